/**
 * Paging links come from PUBLIC_URL, whatever Host or X-Forwarded-* headers a client sends (ASVS 5.1,
 * 14.5); big lists' totals are estimated or counted, never below what a page proves.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog } from '../../../server/db/schema/index';
import { countMatching, estimatedSlice, plannerEstimate } from '../../../server/http/pagination';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';

describe('paging links', () => {
  let api: TestApi;
  let admin: TestUser;
  beforeAll(async () => {
    api = await createTestApi('pglite', { config: { publicUrl: 'https://console.example.com' } });
    admin = await api.userWith('superuser');
    for (let i = 0; i < 3; i += 1) await api.userWith([]);
  });
  afterAll(() => api.close());

  it('point at the configured address, not at a Host header the client chose', async () => {
    const answer = await api.request(admin.token, {
      method: 'GET',
      url: '/api/user/?limit=1&offset=1',
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    });
    expect(answer.statusCode).toBe(200);
    const { next, previous } = answer.json();
    expect(next).toBe('https://console.example.com/api/user/?limit=1&offset=2');
    expect(previous).toBe('https://console.example.com/api/user/?limit=1');
  });
});

describe('totals of big lists', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi('pglite');
    await api.dbh.db.insert(auditLog).values(Array.from({ length: 12 }, (_, i) => ({ action: `Counted ${i + 1}` })));
    await api.dbh.sql.exec('analyze audit_log');
  });
  afterAll(() => api.close());

  const entries = () => api.dbh.db.select({ id: auditLog.id }).from(auditLog);
  const total = async () => (await api.dbh.db.select({ id: auditLog.id }).from(auditLog)).length;

  it("are the planner's estimate above the cap, and counted at or below it", async () => {
    const estimated = await countMatching(api.dbh.db, entries(), 5);
    expect(estimated.kind).toBe('estimate');
    expect(estimated.n).toBeGreaterThan(5);
    expect(await countMatching(api.dbh.db, entries(), 1000)).toEqual({ n: await total(), kind: 'exact' });
  });

  it('are "at least the cap" when the planner expected fewer rows than there are', async () => {
    // The planner takes a comparison it cannot judge to keep a third of the rows (4 of 12 here).
    const underestimated = entries().where(sql`random() >= 0`);
    expect(await countMatching(api.dbh.db, underestimated, 5)).toEqual({ n: 5, kind: 'atLeast' });
  });

  it('plan an estimate asked twice at once (a page and its count) once, and plan it again after a failure', async () => {
    const execute = vi.spyOn(api.dbh.db, 'execute');
    try {
      const same = () => entries().where(sql`${auditLog.action} like 'Counted 1%'`);
      const [first, second] = await Promise.all([
        plannerEstimate(api.dbh.db, same()),
        plannerEstimate(api.dbh.db, same()),
      ]);
      expect(second).toBe(first);
      expect(execute).toHaveBeenCalledTimes(1);

      execute.mockRejectedValueOnce(new Error('connection lost'));
      const other = () => entries().where(sql`${auditLog.action} like 'Counted 2%'`);
      await expect(plannerEstimate(api.dbh.db, other())).rejects.toThrow('connection lost');
      expect(await plannerEstimate(api.dbh.db, other())).toBeGreaterThan(0);
      expect(execute).toHaveBeenCalledTimes(3);
    } finally {
      execute.mockRestore();
    }
  });

  it('are never below what a page proves, and exact on the last page', async () => {
    const rows = (n: number) => Promise.resolve(Array.from({ length: n }, (_, i) => i));
    const asked: number[] = [];
    const about = (n: number) => () => {
      asked.push(n);
      return Promise.resolve({ n, kind: 'estimate' as const });
    };
    // More rows follow this page: at least offset + page + 1, whatever the estimate said.
    expect(await estimatedSlice({ limit: 10, offset: 50 }, rows(11), about(20))).toMatchObject({
      count: 61,
      countKind: 'estimate',
      hasMore: true,
    });
    expect(await estimatedSlice({ limit: 10, offset: 0 }, rows(11), about(52_000))).toMatchObject({
      count: 52_000,
      countKind: 'estimate',
    });
    // The last page: everything has been seen.
    expect(await estimatedSlice({ limit: 10, offset: 50 }, rows(3), about(52_000))).toMatchObject({
      count: 53,
      countKind: 'exact',
      hasMore: false,
    });
    expect(await estimatedSlice({ limit: 10, offset: 0 }, rows(0), about(52_000))).toMatchObject({
      count: 0,
      countKind: 'exact',
    });
    // The last two asked nothing: their pages proved the total.
    expect(asked).toEqual([20, 52_000]);
    // A page past the end proves nothing: the total is asked.
    await estimatedSlice({ limit: 10, offset: 500 }, rows(0), about(40));
    expect(asked).toEqual([20, 52_000, 40]);
  });
});
