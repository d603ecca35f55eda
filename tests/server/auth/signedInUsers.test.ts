/**
 * The signed-in users kept in memory never outlive a change: a write through the API is seen by
 * the very next request; a write by anyone else (another process, a person at a SQL prompt) is seen
 * as soon as the database's notification arrives; without notifications nothing is kept.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSignedInUsers, type SignedInUsersSource } from '../../../server/auth/signedInUsers';
import { groups, users } from '../../../server/db/schema/index';
import type { AuthUser } from '../../../server/people/users';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';

function fakeSource() {
  const people = new Map<number, AuthUser>([[1, { id: 1, is_active: true } as AuthUser]]);
  const ends = new Map<string, Date>([['s1', new Date(10_000)]]);
  const source = {
    loadUser: vi.fn(async (id: number) => people.get(id)),
    sessionExpiry: vi.fn(async (id: string) => ends.get(id) ?? null),
  } satisfies SignedInUsersSource;
  return { source, people, ends };
}

describe('signed-in users in memory', () => {
  it('reads a user once while listening, again after a change or when the entry is too old', async () => {
    let now = 0;
    const { source } = fakeSource();
    const cache = createSignedInUsers(source, { ttlSeconds: 30, now: () => now });
    cache.setListening(true);
    await cache.user(1);
    await cache.user(1);
    expect(source.loadUser).toHaveBeenCalledTimes(1);
    cache.clear();
    await cache.user(1);
    expect(source.loadUser).toHaveBeenCalledTimes(2);
    now = 30_000;
    await cache.user(1);
    expect(source.loadUser).toHaveBeenCalledTimes(3);
  });

  it('a change to sessions costs the users nothing: only sessions are read again', async () => {
    const { source } = fakeSource();
    const cache = createSignedInUsers(source, { ttlSeconds: 30, now: () => 0 });
    cache.setListening(true);
    await cache.user(1);
    await cache.sessionIsLive('s1');
    cache.clear('sessions');
    await cache.user(1);
    await cache.sessionIsLive('s1');
    expect(source.loadUser).toHaveBeenCalledTimes(1);
    expect(source.sessionExpiry).toHaveBeenCalledTimes(2);
  });

  it('keeps nothing while changes cannot be heard', async () => {
    const { source } = fakeSource();
    const cache = createSignedInUsers(source, { ttlSeconds: 30 });
    await cache.user(1);
    await cache.user(1);
    cache.setListening(true);
    cache.setListening(false);
    await cache.user(1);
    expect(source.loadUser).toHaveBeenCalledTimes(3);
  });

  it('never stores what it read before a change that came in meanwhile', async () => {
    const { source, people } = fakeSource();
    const cache = createSignedInUsers(source, { ttlSeconds: 30 });
    cache.setListening(true);
    let release!: () => void;
    source.loadUser.mockImplementationOnce(async (id) => {
      const before = people.get(id);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return before;
    });
    const stale = cache.user(1);
    await vi.waitFor(() => expect(release).toBeDefined());
    people.set(1, { id: 1, is_active: false } as AuthUser);
    cache.clear(); // the deactivation is heard while the first read is under way
    release();
    expect((await stale)?.is_active).toBe(true);
    expect((await cache.user(1))?.is_active).toBe(false);
  });

  it('a session kept in memory still ends at its expiry time', async () => {
    let now = 0;
    const { source } = fakeSource();
    const cache = createSignedInUsers(source, { ttlSeconds: 60, now: () => now });
    cache.setListening(true);
    expect(await cache.sessionIsLive('s1')).toBe(true);
    now = 10_000;
    expect(await cache.sessionIsLive('s1')).toBe(false);
    expect(await cache.sessionIsLive('unknown')).toBe(false);
    expect(source.sessionExpiry).toHaveBeenCalledTimes(2);
  });
});

eachDatabase((engine) => {
  describe(`signed-in users on ${engine}`, () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await createTestApi(engine);
    });
    afterAll(() => api.close());

    const me = (token: string) => api.request(token, { method: 'GET', url: '/api/user/me/' });
    /** A change that reached the database some other way than this process's API. */
    const untilStatus = (token: string, url: string, status: number) =>
      vi.waitFor(async () => expect((await api.request(token, { method: 'GET', url })).statusCode).toBe(status), {
        timeout: 5_000,
        interval: 50,
      });

    it('a deactivation written straight to the database ends access', async () => {
      const user = await api.userWith([]);
      expect((await me(user.token)).statusCode).toBe(200);
      expect((await me(user.token)).statusCode).toBe(200);
      await api.dbh.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
      await untilStatus(user.token, '/api/user/me/', 401);
    });

    it('an access taken from a group straight in the database is gone from its members', async () => {
      const user = await api.userWith(['view_logs']);
      await untilStatus(user.token, '/api/log/', 200);
      await api.dbh.db.update(groups).set({ accesses: [] }); // every group, the user's among them
      await untilStatus(user.token, '/api/log/', 403);
    });

    it('a change through the API is seen by the very next request', async () => {
      const admin = await api.userWith('superuser');
      const user = await api.userWith([]);
      expect((await me(user.token)).statusCode).toBe(200);
      const answer = await api.request(admin.token, {
        method: 'PATCH',
        url: `/api/user/${user.id}/`,
        payload: { is_active: false },
      });
      expect(answer.statusCode).toBe(200);
      expect((await me(user.token)).statusCode).toBe(401);
    });
  });
});
