/**
 * Sessions that really end (ASVS 3.3, 3.5): logout ends the whole family of a sign-in; a replayed
 * refresh token ends it too and is logged; no rotation extends a session past SESSION_MAX_DAYS; a
 * password change or reset and a deactivation end every session at once, access tokens included.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTokenService } from '../../../server/auth/tokens';
import type { Database } from '../../../server/db/client';
import { sessions } from '../../../server/db/schema/index';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';

eachDatabase((engine) => {
  describe(`sessions on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith('superuser');
    });
    afterAll(() => api.close());

    const me = (token: string) => api.request(token, { method: 'GET', url: '/api/user/me/' });
    const refresh = (token: string) =>
      api.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: token } });
    const logout = (token: string) =>
      api.app.inject({ method: 'POST', url: '/api/token/logout/', payload: { refresh: token } });

    it('logout ends the session: its access token and every refresh token rotated from it', async () => {
      const user = await api.userWith([]);
      const rotated = (await refresh(user.refresh)).json();
      expect((await me(rotated.access)).statusCode).toBe(200);
      const other = await api.app.tokens.issue(user.id); // a second sign-in, elsewhere

      expect((await logout(rotated.refresh)).statusCode).toBe(204);
      expect((await me(rotated.access)).statusCode).toBe(401);
      expect((await me(user.token)).statusCode).toBe(401);
      expect((await refresh(rotated.refresh)).statusCode).toBe(401);
      // The other sign-in is another session: it goes on.
      expect((await me(other.access)).statusCode).toBe(200);
      expect((await refresh(other.refresh)).statusCode).toBe(200);
    });

    it('a replayed refresh token revokes its whole session and is logged', async () => {
      const user = await api.userWith([]);
      const warnings: unknown[] = [];
      const warn = api.app.log.warn;
      api.app.log.warn = ((...args: unknown[]) => warnings.push(args)) as typeof warn;
      try {
        const good = (await refresh(user.refresh)).json(); // the legitimate client rotates
        const replay = await refresh(user.refresh); // an attacker replays the stolen, used token
        expect(replay.statusCode).toBe(401);
        expect((await me(good.access)).statusCode).toBe(401);
        expect((await refresh(good.refresh)).statusCode).toBe(401);
        const [row] = await api.dbh.db.select().from(sessions).where(eq(sessions.userId, user.id));
        expect(row!.revokedReason).toBe('reuse');
        expect(JSON.stringify(warnings)).toContain('refresh token reused');
      } finally {
        api.app.log.warn = warn;
      }
    });

    it('no rotation carries a session past its absolute lifetime', async () => {
      const user = await api.userWith([]);
      const first = (await refresh(user.refresh)).json();
      await api.dbh.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.userId, user.id));
      expect((await refresh(first.refresh)).statusCode).toBe(401);
      expect((await me(first.access)).statusCode).toBe(401);
    });

    it('a password change ends every other session at once and keeps the changer signed in', async () => {
      const user = await api.userWith([]);
      const elsewhere = await api.app.tokens.issue(user.id);
      const changed = await api.request(user.token, {
        method: 'POST',
        url: '/api/user/change_password/',
        payload: { old_password: user.password, new_password: 'new-horse-22', new_password2: 'new-horse-22' },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect((await me(elsewhere.access)).statusCode).toBe(401);
      expect((await me(user.token)).statusCode).toBe(401);
      expect((await refresh(elsewhere.refresh)).statusCode).toBe(401);
      expect((await me(changed.json().access)).statusCode).toBe(200);
    });

    it('deactivation ends the access token at its next request, not minutes later', async () => {
      const user = await api.userWith([]);
      expect((await me(user.token)).statusCode).toBe(200);
      const off = await api.request(admin.token, {
        method: 'PATCH',
        url: `/api/user/${user.id}/`,
        payload: { is_active: false },
      });
      expect(off.statusCode, off.body).toBe(200);
      expect((await me(user.token)).statusCode).toBe(401);
      expect((await refresh(user.refresh)).statusCode).toBe(401);
    });

    it('logout with an unknown or malformed token has nothing to end', async () => {
      expect((await logout('not-a-token')).statusCode).toBe(204);
      const missing = await api.app.inject({ method: 'POST', url: '/api/token/logout/', payload: {} });
      expect(missing.statusCode).toBe(400);
    });
  });
});

describe('access tokens checked once', () => {
  it('stop working at their expiry even after their signature was checked', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-25T12:00:00Z'), toFake: ['Date'] });
    try {
      const tokens = createTokenService({} as Database, {
        secret: 'a-test-secret-of-at-least-thirty-two-bytes',
        accessTokenSeconds: 60,
        refreshTokenSeconds: 600,
      });
      const { SignJWT } = await import('jose');
      const access = await new SignJWT({ token_type: 'access', user_id: 7, sid: 's', ver: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setJti('j')
        .setExpirationTime(Math.floor(Date.now() / 1000) + 60)
        .sign(new TextEncoder().encode('a-test-secret-of-at-least-thirty-two-bytes'));
      expect(await tokens.verifyAccess(access)).toEqual({ userId: 7, sessionId: 's', version: 0 });
      vi.setSystemTime(new Date('2026-11-25T12:01:01Z'));
      await expect(tokens.verifyAccess(access)).rejects.toThrow();
      await expect(tokens.verifyAccess(`${access.slice(0, -2)}xx`)).rejects.toThrow();
    } finally {
      vi.useRealTimers();
    }
  });
});
