import { randomBytes, scryptSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordHashCost } from '../../../server/config';
import { users } from '../../../server/db/schema/index';
import { createTestApi, deactivate, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';

eachDatabase((engine) => {
  describe(`auth API on ${engine}`, () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await createTestApi(engine, { config: { loginRateLimit: { max: 3, windowMs: 60_000 } } });
    });
    afterAll(() => api.close());

    const login = (email: string, password: string, remoteAddress = '10.0.0.1') =>
      api.app.inject({ method: 'POST', url: '/api/token/', payload: { email, password }, remoteAddress });

    it('signs in with the right password and answers access and refresh tokens', async () => {
      const user = await api.userWith([]);
      const response = await login(user.email.toUpperCase(), user.password);
      expect(response.statusCode).toBe(200);
      expect(Object.keys(response.json()).sort()).toEqual(['access', 'refresh']);
      const me = await api.request(response.json().access, { method: 'GET', url: '/api/user/me/' });
      expect(me.json()).toMatchObject({ id: user.id, email: user.email, is_active: true, groups: [] });
    });

    it('upgrades a password hash made with weaker parameters at the next sign-in', async () => {
      const user = await api.userWith([]);
      const salt = randomBytes(16);
      const weakN = 2 ** (passwordHashCost() - 1);
      const weak = scryptSync(user.password, salt, 32, { N: weakN, r: 8, p: 1 });
      const stored = ['scrypt', weakN, 8, 1, salt.toString('base64url'), weak.toString('base64url')].join('$');
      await api.dbh.db.update(users).set({ passwordHash: stored }).where(eq(users.id, user.id));
      expect((await login(user.email, user.password, '10.0.0.9')).statusCode).toBe(200);
      const [row] = await api.dbh.db.select().from(users).where(eq(users.id, user.id));
      expect(row!.passwordHash.split('$').slice(0, 4)).toEqual(['scrypt', String(2 ** passwordHashCost()), '8', '1']);
      expect((await login(user.email, user.password, '10.0.0.9')).statusCode).toBe(200);
    });

    it('refuses a wrong password with 401 and a detail', async () => {
      const user = await api.userWith([]);
      const response = await login(user.email, 'wrong-password', '10.0.0.2');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ detail: 'No active account found with the given credentials' });
    });

    it('answers missing fields as field errors', async () => {
      const response = await api.app.inject({ method: 'POST', url: '/api/token/', payload: { email: '' } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ email: ['Field is required'], password: ['Field is required'] });
    });

    it('refuses a deactivated user at login and at refresh', async () => {
      const user = await api.userWith([]);
      await deactivate(api, user.id);
      expect((await login(user.email, user.password, '10.0.0.3')).statusCode).toBe(401);
      const refresh = await api.app.inject({
        method: 'POST',
        url: '/api/token/refresh/',
        payload: { refresh: user.refresh },
      });
      expect(refresh.statusCode).toBe(401);
      const me = await api.request(user.token, { method: 'GET', url: '/api/user/me/' });
      expect(me.statusCode).toBe(401);
    });

    it('rate limits login attempts per e-mail, whatever the address', async () => {
      const user = await api.userWith([]);
      for (let i = 0; i < 3; i += 1) expect((await login(user.email, 'nope', `10.1.0.${i}`)).statusCode).toBe(401);
      const limited = await login(user.email, user.password, '10.1.0.99');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().detail).toMatch(/Too many login attempts/);
    });

    it('rate limits login attempts per client address, whatever the e-mail', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 16; i += 1)
        statuses.push((await login(`nobody${i}@example.com`, 'nope', '10.2.0.1')).statusCode);
      expect(statuses.slice(0, 15).every((s) => s === 401)).toBe(true);
      expect(statuses[15]).toBe(429);
    }, 180_000); // fifteen refused sign-ins are fifteen full-strength scrypt hashes

    it('rotates the refresh token and refuses a used one', async () => {
      const user = await api.userWith([]);
      const first = await api.app.inject({
        method: 'POST',
        url: '/api/token/refresh/',
        payload: { refresh: user.refresh },
      });
      expect(first.statusCode).toBe(200);
      const { access, refresh } = first.json();
      expect(refresh).not.toBe(user.refresh);
      expect((await api.request(access, { method: 'GET', url: '/api/user/me/' })).statusCode).toBe(200);
      const replay = await api.app.inject({
        method: 'POST',
        url: '/api/token/refresh/',
        payload: { refresh: user.refresh },
      });
      expect(replay.statusCode).toBe(401);
      expect(replay.json().detail).toBe('Token is invalid or expired');
      // A replay means the token leaked: the whole session ends, the rotated token with it.
      const next = await api.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh } });
      expect(next.statusCode).toBe(401);
    });

    it('refuses an access token used as a refresh token, and garbage', async () => {
      const user = await api.userWith([]);
      for (const refresh of [user.token, 'not-a-jwt']) {
        const response = await api.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh } });
        expect(response.statusCode).toBe(401);
      }
    });

    it('requires a valid Bearer token for me', async () => {
      expect((await api.request(null, { method: 'GET', url: '/api/user/me/' })).statusCode).toBe(401);
      expect((await api.request('garbage', { method: 'GET', url: '/api/user/me/' })).statusCode).toBe(401);
    });

    it('shows the user with groups and their accesses', async () => {
      const user = await api.userWith(['read_rules', 'view_logs']);
      const me = await api.request(user.token, { method: 'GET', url: '/api/user/me/' });
      expect(me.json().groups).toEqual([
        expect.objectContaining({ group_access: { accesses: ['read_rules', 'view_logs'] } }),
      ]);
    });

    it('answers unknown API paths with 404 detail', async () => {
      const user = await api.userWith([]);
      const response = await api.request(user.token, { method: 'GET', url: '/api/nothing-here/' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not found.' });
    });
  });
});
