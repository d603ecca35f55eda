import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleActivity } from '../../../server/db/schema/index';
import { impactReport } from '../../../server/impact/report';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { readAt } from '../backtest/support';
import { seedAccount, seedRule } from '../run/support';

const NOW = new Date('2024-03-05T12:00:00Z');
const START = Date.UTC(2024, 2, 1);
const atHour = (t: number) => new Date(START + t * 3_600_000 + 20_000).toISOString();

eachDatabase((engine) => {
  describe(`impact report on ${engine}: budget changes`, () => {
    let api: TestApi;
    let ruleId: number;

    beforeAll(async () => {
      api = await createTestApi(engine);
      const db = api.dbh.db;
      const account = await seedAccount(db);
      const seeded = await seedRule(db, account.adAccountId, { tasks: { spend_cpl_no_leads: { spend: '50' } } });
      ruleId = seeded.rule.id;
      // $10 an hour from March 1st: a lead every 4 hours ($40) until the raise on the 4th, every 2 hours ($20) after.
      for (let t = 0; t <= 108; t += 6)
        await readAt(db, account.adAccountId, atHour(t), [
          {
            id: 'x',
            campaignId: 'c1',
            spend: 10 * t,
            leads: t <= 72 ? Math.floor(t / 4) : 18 + Math.floor((t - 72) / 2),
          },
        ]);
      const change = (
        action: string,
        objectType: string,
        adId: string,
        before: number,
        after: number,
        state = 'done',
      ) => ({
        ruleId,
        folderId: seeded.folder.id,
        action,
        adId,
        objectType,
        state,
        budgetBefore: before,
        budgetAfter: after,
        reason: (objectType === 'campaign' ? { Campaign: 'EDM Campaign c1' } : { 'Ad set': 'Ad set s1' }) as Record<
          string,
          string
        >,
        createdAt: new Date('2024-03-04T00:00:30Z'),
      });
      await db.insert(ruleActivity).values([
        change('raise_budget', 'campaign', 'c1', 10_000, 15_000),
        change('lower_budget', 'adset', 's1', 20_000, 10_000),
        // Not made (yet): not counted.
        change('raise_budget', 'adset', 's2', 10_000, 12_000, 'pending'),
      ]);
    });
    afterAll(() => api?.close());

    it('sums the daily budget added and removed, and shows the cost per lead before and after each change', async () => {
      const report = await impactReport(api.dbh.db, { kind: 'rule', id: ruleId }, 7, NOW);
      expect(report.totals).toMatchObject({ budget_added: 50, budget_removed: 100 });
      expect(report.budget_changes).toHaveLength(2);
      const byId = Object.fromEntries(report.budget_changes!.map((c) => [c.object_id, c]));
      // 3 days before: $720 for 18 leads; after (36 h up to now): $360 for 18 leads.
      expect(byId.c1).toMatchObject({
        action: 'raise_budget',
        object_type: 'campaign',
        name: 'EDM Campaign c1',
        before: 100,
        after: 150,
        daily_delta: 50,
        cpl_before: 40,
        cpl_after: 20,
      });
      // The history keeps no ad sets: N/A.
      expect(byId.s1).toMatchObject({ daily_delta: -100, name: 'Ad set s1', cpl_before: null, cpl_after: null });
      expect(report.method.at(-1)).toMatch(/^Budget added and removed/);
    });
  });
});
