/**
 * A member with only read access starting backtests in a loop cannot take the API down: each start
 * counts against BACKTEST_RATE_LIMIT (shared by every API process), a finished result lives in the
 * database — not the process's memory — with its first MAX_LISTED_PAUSES pauses, and only the
 * person's newest KEPT_PER_OWNER results are kept.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_PER_OWNER } from '../../../server/backtest/jobStore';
import { MAX_LISTED_PAUSES } from '../../../server/backtest/keptResult';
import type { Database } from '../../../server/db/client';
import { resultRows } from '../../../server/http/pagination';
import type { BacktestJob } from '../../../shared/backtest';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { waitUntil } from '../../support/waitUntil';
import { seedAccount, seedRule } from '../run/support';
import { ruleBody } from './support';

/** More ads than a result lists: each crosses "spend over $50 with no leads" once. */
const ADS = MAX_LISTED_PAUSES + 400;

/** Two days and today of hourly readings for every ad: $5 more spend each hour, never a lead. */
async function seedBigAccount(db: Database, adAccountId: string) {
  await db.execute(sql`
    insert into ad_metric_history (ad_account_id, day, ad_id, campaign_id, spend_cents, impressions, clicks,
      link_clicks, leads, website_leads, read_mask, settled_mask, on_mask, campaign_on_mask)
    select ${adAccountId}, current_date - d, 'ad_' || a, 'c1',
      array(select ((2 - d) * 24 + h + 1) * 500 from generate_series(0, 23) h),
      array(select ((2 - d) * 24 + h + 1) * 200 from generate_series(0, 23) h),
      array(select ((2 - d) * 24 + h + 1) * 5 from generate_series(0, 23) h),
      array(select ((2 - d) * 24 + h + 1) * 2 from generate_series(0, 23) h),
      array_fill(0, array[24]), array_fill(0, array[24]), 16777215, 0, 16777215, 16777215
    from generate_series(1, ${ADS}) a, generate_series(0, 2) d`);
  await db.execute(sql`
    insert into ad_history_names (ad_id, ad_account_id, ad_name, campaign_id, campaign_name, read_at)
    select 'ad_' || a, ${adAccountId}, 'Webinar ad ' || a, 'c1', 'EDM Spring Webinar', now()
    from generate_series(1, ${ADS}) a`);
}

const heapUsedAfterGc = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    return process.memoryUsage().heapUsed;
  };
})();

eachDatabase((engine) => {
  describe(`a read-only member starting backtests in a loop, on ${engine}`, () => {
    let api: TestApi;
    let member: TestUser;
    let folderId: number;

    beforeAll(async () => {
      api = await createTestApi(engine, {
        config: {
          // One window for the whole loop, however slow the machine.
          loginRateLimit: { max: 1000, windowMs: 30 * 60_000 },
          backtestRateLimit: 8,
          engineMaxShare: 1,
          engineMaxActions: 1_000_000,
        },
      });
      member = await api.userWith(['read_rules']);
      const account = await seedAccount(api.dbh.db);
      folderId = (await seedRule(api.dbh.db, account.adAccountId)).folder.id;
      await seedBigAccount(api.dbh.db, account.adAccountId);
    });
    afterAll(() => api?.close());

    const start = () =>
      api.request(member.token, {
        method: 'POST',
        url: '/api/backtests/',
        payload: { folder: folderId, days: 1, rule: ruleBody({ spend_cpl_no_leads: { spend: '50' } }) },
      });
    const finished = (id: string): Promise<BacktestJob> =>
      waitUntil(
        async () =>
          (await api.request(member.token, { method: 'GET', url: `/api/backtests/${id}/` })).json() as BacktestJob,
        `backtest ${id} to end`,
        { until: (job) => job.state !== 'running', intervalMs: 50 },
      );

    it('keeps the API’s memory flat, is refused past its rate limit, and keeps only the newest results', async () => {
      const heapBefore = heapUsedAfterGc();
      const finishedJobs: BacktestJob[] = [];
      let refused = await start();
      while (refused.statusCode === 202) {
        finishedJobs.push(await finished(refused.json().id));
        refused = await start();
      }
      const heapGrowth = heapUsedAfterGc() - heapBefore;

      expect(finishedJobs).toHaveLength(8);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        detail: expect.stringMatching(/^Too many backtests started\. Try again in \d+ seconds\.$/),
      });

      const latest = finishedJobs.at(-1)!;
      // Totals count every pause; the answer carries the first page, the rest are paged up to the limit.
      expect(latest.result).toMatchObject({
        totals: { pauses: ADS },
        results_count: ADS,
        results_listed: MAX_LISTED_PAUSES,
      });
      expect(latest.result!.results).toHaveLength(100);
      const lastPage = await api.request(member.token, {
        method: 'GET',
        url: `/api/backtests/${latest.id}/pauses/?limit=100&offset=${MAX_LISTED_PAUSES - 100}`,
      });
      expect(lastPage.json()).toMatchObject({ count: MAX_LISTED_PAUSES, next: null });
      expect(lastPage.json().results).toHaveLength(100);

      // Only the newest results are kept; the older ones are gone.
      const kept = await Promise.all(
        finishedJobs.map(
          async (job) =>
            (await api.request(member.token, { method: 'GET', url: `/api/backtests/${job.id}/` })).statusCode,
        ),
      );
      expect(kept).toEqual([...Array(8 - KEPT_PER_OWNER).fill(404), ...Array(KEPT_PER_OWNER).fill(200)]);
      const stored = resultRows<{ pauses: number }>(
        await api.dbh.db.execute(sql`select count(*)::int as pauses from backtest_pauses`),
      );
      expect(stored).toEqual([{ pauses: KEPT_PER_OWNER * MAX_LISTED_PAUSES }]);

      // Eight results of this account held in memory would be 8 × ADS pauses; the heap keeps none of them.
      const answerBytes = Buffer.byteLength(JSON.stringify(latest.result!.results)) / 100;
      expect(heapGrowth).toBeLessThan(finishedJobs.length * ADS * answerBytes * 0.5);
    });
  });
});
