/**
 * Sign-in limits that hold (ASVS 2.2.1): failures counted per account in the database with a
 * growing, capped delay (the same for e-mails no account has); the client address taken from
 * X-Forwarded-For only through TRUST_PROXY hops; counters shared by every API process — in the
 * database, or in Redis when REDIS_URL is set — and never pushed out by junk keys.
 */
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { loginFailures } from '../../../server/db/schema/index';
import { databaseStore } from '../../../server/http/rateLimitStore';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

eachDatabase((engine) => {
  describe(`sign-in limits on ${engine}`, () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await createTestApi(engine);
    });
    afterAll(() => api.close());

    const login = (email: string, password: string, remoteAddress = '10.9.0.1', headers = {}) =>
      api.app.inject({ method: 'POST', url: '/api/token/', payload: { email, password }, remoteAddress, headers });

    it('slows an account down after five failures, from any address, without telling whether it exists', async () => {
      const user = await api.userWith([]);
      const ghost = 'nobody-here@example.com';
      for (const email of [user.email, ghost]) {
        const statuses: number[] = [];
        for (let i = 0; i < 5; i += 1) statuses.push((await login(email, 'wrong-password', `10.9.1.${i}`)).statusCode);
        expect(statuses).toEqual([401, 401, 401, 401, 401]);
        const sixth = await login(email, 'wrong-password', '10.9.2.1');
        expect(sixth.statusCode).toBe(429);
        expect(sixth.json().detail).toMatch(/^Too many failed sign-ins for this account\. Try again in \d+ seconds\.$/);
      }
      // Even the right password waits: the delay is not an oracle.
      expect((await login(user.email, user.password, '10.9.3.1')).statusCode).toBe(429);
      // The delay runs out (never a permanent lockout); a good sign-in clears the count.
      await api.dbh.db.update(loginFailures).set({ blockedUntil: sql`now() - interval '1 second'` });
      expect((await login(user.email, user.password, '10.9.3.1')).statusCode).toBe(200);
      expect((await login(user.email, 'wrong-password', '10.9.3.1')).statusCode).toBe(401);
    }, 180_000);

    it('answers an e-mail that is no string with a field error, not a 500 (it is counted before validation)', async () => {
      const response = await api.app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { email: { toString: [1, true] }, password: 'x' },
        remoteAddress: '10.9.4.1',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toHaveProperty('email');
    });

    it('doubles the delay with each further failure, up to fifteen minutes', async () => {
      await api.dbh.db.delete(loginFailures);
      const email = 'doubling@example.com';
      const waits: number[] = [];
      for (let i = 0; i < 16; i += 1) {
        await api.dbh.db.update(loginFailures).set({ blockedUntil: null });
        await login(email, 'wrong-password');
        const [row] = await api.dbh.db
          .select({ wait: sql<number>`coalesce(ceil(extract(epoch from (blocked_until - now()))), 0)::integer` })
          .from(loginFailures);
        waits.push(Number(row!.wait));
      }
      expect(waits.slice(0, 4)).toEqual([0, 0, 0, 0]);
      expect(waits.slice(4, 8).map((w) => Math.round(w / 10) * 10)).toEqual([30, 60, 120, 240]);
      expect(Math.max(...waits)).toBe(900);
      await api.dbh.db.delete(loginFailures);
    }, 180_000);
  });
});

describe('the client address behind proxies', () => {
  let api: TestApi;
  afterAll(() => api?.close());

  it('ignores X-Forwarded-For by default, and believes exactly TRUST_PROXY hops when set', async () => {
    api = await createTestApi('pglite', { config: { loginRateLimit: { max: 2, windowMs: 60_000 } } });
    const attempt = (_i: number, forwardedFor: string) =>
      api.app.inject({
        method: 'POST',
        url: '/api/token/refresh/',
        payload: { refresh: 'x' },
        remoteAddress: '10.0.0.7',
        headers: { 'x-forwarded-for': forwardedFor },
      });
    // Refresh is throttled per address (×5 the sign-in limit): made-up forwarded addresses share one counter.
    const statuses = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await attempt(i, `203.0.113.${i}`)).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);

    const trusting = await buildApp({
      config: loadConfig({ DATA_DIR: '/tmp/unused', TRUST_PROXY: '1' } as NodeJS.ProcessEnv, {
        loginRateLimit: { max: 2, windowMs: 60_000 },
      }),
      dbh: api.dbh,
      jwtSecret: 'x'.repeat(32),
    });
    const seen: string[] = [];
    trusting.get('/api/whoami-test/', { config: { public: true } }, async (request) => {
      seen.push(request.ip);
      return {};
    });
    await trusting.ready();
    await trusting.inject({
      url: '/api/whoami-test/',
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-for': '198.51.100.9, 203.0.113.5' },
    });
    expect(seen).toEqual(['203.0.113.5']); // the one hop the proxy added, not what the client wrote
    await trusting.close();
  });
});

/** Three password-reset requests for one e-mail: the first and third to `first`, the second to `second`. */
async function threeResets(first: FastifyInstance, second: FastifyInstance, email: string): Promise<number[]> {
  const reset = (app: FastifyInstance) =>
    app.inject({
      method: 'POST',
      url: '/api/user/send_password_reset/',
      payload: { email },
      remoteAddress: '10.1.0.1',
    });
  return [(await reset(first)).statusCode, (await reset(second)).statusCode, (await reset(first)).statusCode];
}

describe('shared counters', () => {
  it('are shared by two API processes on one database', async () => {
    const api = await createTestApi('pglite', { config: { loginRateLimit: { max: 2, windowMs: 60_000 } } });
    const second = await buildApp({ config: api.config, dbh: api.dbh, jwtSecret: 'y'.repeat(32) });
    await second.ready();
    try {
      const statuses = await threeResets(api.app, second, 'shared@example.com');
      expect(statuses[2]).toBe(429);
    } finally {
      await second.close();
      await api.close();
    }
  });

  it('in the database, are not pushed out by thousands of junk keys', async () => {
    const api = await createTestApi('pglite');
    try {
      const Store = databaseStore(api.dbh.db);
      const store = new Store();
      const incr = (key: string) =>
        new Promise<number>((resolve, reject) =>
          store.incr(key, (error, result) => (error ? reject(error) : resolve(result!.current)), 60_000),
        );
      await incr('victim');
      await incr('victim');
      for (let i = 0; i < 6000; i += 1) await incr(`junk-${i}`);
      expect(await incr('victim')).toBe(3);
    } finally {
      await api.close();
    }
  }, 180_000);

  it('in Redis when REDIS_URL is set, shared by two processes', async () => {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const keys = await redis.keys('ad-rules-rl:*');
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    const api = await createTestApi('pglite', {
      config: { redisUrl: REDIS_URL, loginRateLimit: { max: 2, windowMs: 60_000 } },
    });
    const second = await buildApp({ config: api.config, dbh: api.dbh, jwtSecret: 'y'.repeat(32) });
    await second.ready();
    try {
      const statuses = await threeResets(api.app, second, 'redis@example.com');
      expect(statuses[2]).toBe(429);
      const check = new Redis(REDIS_URL);
      expect((await check.keys('ad-rules-rl:*')).length).toBeGreaterThan(0);
      await check.quit();
      const [row] = await api.dbh.db
        .execute(sql`select count(*)::int as n from rate_limit_counters`)
        .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
      expect(row!.n).toBe(0); // nothing went to the database
    } finally {
      await second.close();
      await api.close();
    }
  });
});

describe('calls that spend the ad platform budget', () => {
  it('are throttled per person: Run now, Preview and the refreshes', async () => {
    const api = await createTestApi('pglite', { config: { loginRateLimit: { max: 2, windowMs: 60_000 } } });
    try {
      const other = await api.userWith('superuser');
      const call = (token: string, method: 'GET' | 'POST', url: string) => api.request(token, { method, url });
      for (const [method, url] of [
        ['GET', '/api/rules/1/preview/'],
        ['POST', '/api/rules/1/run_now/'],
        ['GET', '/api/meta_ad_account/refresh/'],
        ['POST', '/api/campaigns/sync/'],
      ] as const) {
        const person = await api.userWith('superuser'); // Run now and Preview share one budget
        const statuses = [];
        for (let i = 0; i < 3; i += 1) statuses.push((await call(person.token, method, url)).statusCode);
        expect(statuses.slice(0, 2), url).not.toContain(429);
        expect(statuses[2], url).toBe(429);
      }
      // Another person has a budget of their own.
      expect((await call(other.token, 'GET', '/api/rules/1/preview/')).statusCode).not.toBe(429);
    } finally {
      await api.close();
    }
  });
});
