/**
 * The lag allowance in a backtest goes to the ads a run of the engine gives it to
 * (server/judgement/lateData.ts, leadsMayArriveLate): an instant-form ad (optimisation goal
 * LEAD_GENERATION) that has had no website lead is judged on all its spend; a website-lead ad, an
 * instant-form ad with a website lead, and an ad whose goal was never reported leave out the spend
 * of the last L hours. Hand-computed: every ad spends $10 an hour from midnight, read at every hour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../server/db/client';
import { prepareBacktest, runBacktest, type BacktestRequest } from '../../../server/backtest/service';
import { CARRIED_OVER_JUDGING } from '../../../shared/judging';
import { eachDatabase, freshDatabase } from '../../support/db';
import { seedAccount, seedRule } from '../run/support';
import { everyHour, readAt, ruleBody } from './support';

const NOW = new Date('2024-03-05T12:30:00Z');
const at = (h: number) => `2024-03-05T${String(h).padStart(2, '0')}:00:00.000Z`;
const ALLOWANCE = 'spend of the last 3 h ($30.00) left out';

eachDatabase((engine) => {
  describe(`backtest on ${engine}: which ads get the lag allowance`, () => {
    let dbh: DbHandle;
    let folderId: number;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      const account = await seedAccount(dbh.db);
      folderId = (await seedRule(dbh.db, account.adAccountId)).folder.id;
      for (let h = 0; h <= 12; h += 1)
        await readAt(dbh.db, account.adAccountId, `2024-03-05T${String(h).padStart(2, '0')}:00:20Z`, [
          { id: 'instant_form', spend: 10 * h, goal: 'LEAD_GENERATION' },
          { id: 'website', spend: 10 * h, goal: 'OFFSITE_CONVERSIONS' },
          { id: 'goal_unknown', spend: 10 * h },
          { id: 'instant_form_lead', spend: 10 * h, leads: 1, goal: 'QUALITY_LEAD' },
          { id: 'instant_form_website_lead', spend: 10 * h, leads: 1, websiteLeads: 1, goal: 'LEAD_GENERATION' },
        ]);
    });
    afterAll(() => dbh.close());

    it('judges an instant-form ad on all its spend and a website-lead ad on the spend older than 3 hours', async () => {
      const request = {
        folder: folderId,
        days: 1,
        rule: ruleBody({ spend_cpl_no_leads: { spend: '50' }, trigger_cpl: { cpl: '30' } }, everyHour(), 'UTC', {
          ...CARRIED_OVER_JUDGING,
          carried_over: false,
          lag_hours: 3,
        }),
      } as BacktestRequest;
      const result = await runBacktest(dbh.db, request, await prepareBacktest(dbh.db, request), {
        now: NOW,
        limits: { maxShare: 1, maxActions: 1000 },
      });
      const rows = [...result.results]
        .sort((a, b) => a.at.localeCompare(b.at) || a.object_id.localeCompare(b.object_id))
        .map((r) => [r.at, r.object_id, r.task, r.reason.CPL ?? r.reason.Spend, r.reason['Lag allowance'] ?? null]);
      expect(rows).toEqual([
        // 1 instant-form lead: $40 a lead at 04:00 (over $30 first then), on all the spend.
        [at(4), 'instant_form_lead', 'trigger_cpl', '$40.00 > $30.00', null],
        // No lead, $60 > $50 at 06:00, on all the spend.
        [at(6), 'instant_form', 'spend_cpl_no_leads', '$60.00 > $50.00', null],
        // A website lead may come late: $70 spent, the last 3 hours' $30 left out, $40 a lead.
        [at(7), 'instant_form_website_lead', 'trigger_cpl', '$40.00 > $30.00', ALLOWANCE],
        // $90 spent, $60 of it older than 3 hours.
        [at(9), 'goal_unknown', 'spend_cpl_no_leads', '$60.00 > $50.00', ALLOWANCE],
        [at(9), 'website', 'spend_cpl_no_leads', '$60.00 > $50.00', ALLOWANCE],
      ]);
    });
  });
});
