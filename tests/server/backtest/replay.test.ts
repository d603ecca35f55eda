import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../server/db/client';
import { ruleExemptions } from '../../../server/db/schema/index';
import { prepareBacktest, runBacktest, type BacktestRequest } from '../../../server/backtest/service';
import { writeSettledDays } from '../../../server/history/store';
import { eachDatabase, freshDatabase } from '../../support/db';
import { seedAccount, seedRule } from '../run/support';
import { readAt, ruleBody } from './support';

const NO_LIMIT = { maxShare: 1, maxActions: 1000 };
const NOW = new Date('2024-03-05T12:30:00Z');
const hourOf = (h: number) => `2024-03-05T${String(h).padStart(2, '0')}:00:20Z`;

eachDatabase((engine) => {
  describe(`backtest on ${engine}: hand-computed cases`, () => {
    let dbh: DbHandle;
    let folderId: number;
    let ruleId: number;
    let adAccountId: string;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      const account = await seedAccount(dbh.db);
      adAccountId = account.adAccountId;
      const { folder, rule } = await seedRule(dbh.db, adAccountId, { everyDayAt: [6] });
      folderId = folder.id;
      ruleId = rule.id;
      // Every ad spends $10 an hour from midnight; readings at each hour, as known then.
      for (let h = 0; h <= 12; h += 1) {
        await readAt(dbh.db, adAccountId, hourOf(h), [
          { id: 'dud', spend: 10 * h },
          // Its 2 leads of the morning were credited to 03:00 but only reported from 08:00 on.
          { id: 'late', spend: 10 * h, leads: h >= 8 ? 2 : 0 },
          { id: 'kept', spend: 10 * h },
          { id: 'cheap', spend: 4 * h, leads: h >= 2 ? 3 : 0 },
          // One lead from 03:00 ($40 a lead at 04:00), six by 10:00: it ends at $20 a lead.
          { id: 'improver', spend: 10 * h, leads: h >= 10 ? 6 : h >= 3 ? 1 : 0 },
        ]);
      }
      // A person turned "kept" back on after an earlier turn-off: exempt since 05:00.
      await dbh.db
        .insert(ruleExemptions)
        .values({ ruleId, objectId: 'kept', createdAt: new Date('2024-03-05T05:00:00Z') });
    });
    afterAll(() => dbh.close());

    const backtest = async (body: Omit<BacktestRequest, 'folder'>) => {
      const request = { folder: folderId, ...body } as BacktestRequest;
      return runBacktest(dbh.db, request, await prepareBacktest(dbh.db, request), { now: NOW, limits: NO_LIMIT });
    };

    it('pauses the dud and the late converter at 06:00 ($60 > $50, 0 leads known), leaves the exempt ad, and says what each did after', async () => {
      const result = await backtest({
        rule_id: ruleId,
        days: 1,
        rule: ruleBody({ spend_cpl_no_leads: { spend: '50' } }),
      });
      expect(result.from).toBe('2024-03-04T13:00:00.000Z');
      expect(result.to).toBe('2024-03-05T13:00:00.000Z');
      expect(result.slots).toBe(24);
      expect(result.slots_without_data).toBe(11); // 13:00–23:00 of the day before: nothing read yet
      expect(
        result.results.map((r) => [
          r.at,
          r.object_id,
          r.reason.Spend,
          r.spend_at_pause,
          r.spend_after,
          r.leads_after,
          r.final_cpl,
          r.verdict,
        ]),
      ).toEqual([
        ['2024-03-05T06:00:00.000Z', 'dud', '$60.00 > $50.00', 60, 60, 0, null, 'stopped_waste'],
        ['2024-03-05T06:00:00.000Z', 'late', '$60.00 > $50.00', 60, 60, 2, 60, 'paused_converter'],
      ]);
      expect(result.totals).toEqual({
        pauses: 2,
        held: 0,
        converters_paused: 1,
        spend_stopped: 120,
        leads_lost: 2,
        revives: 0,
      });
      expect(result.by_day).toEqual([
        { date: '2024-03-04', pauses: 0, converters_paused: 0, spend_stopped: 0 },
        { date: '2024-03-05', pauses: 2, converters_paused: 1, spend_stopped: 120 },
      ]);
    });

    it('judges only the hours the schedule has on, in the rule’s time zone, on the numbers known then', async () => {
      // 08:00 in New York is 13:00 UTC: outside the span. 03:00 in New York is 08:00 UTC: the late
      // converter's leads are known by then, so only the dud is paused (at $80).
      const schedule = Array.from({ length: 7 }, () => Array.from({ length: 24 }, (_, h) => h === 3));
      const result = await backtest({
        days: 1,
        rule: ruleBody({ spend_cpl_no_leads: { spend: '50' } }, schedule, 'America/New_York'),
      });
      expect(result.slots).toBe(1);
      expect(result.results.map((r) => [r.at, r.object_id, r.reason.Spend])).toEqual([
        ['2024-03-05T08:00:00.000Z', 'dud', '$80.00 > $50.00'],
        ['2024-03-05T08:00:00.000Z', 'kept', '$80.00 > $50.00'], // no rule id: no exemptions
      ]);
    });

    it('reads settled numbers where nothing was known live, and says so', async () => {
      const nulls = () => new Array<number | null>(24).fill(null);
      const values = {
        spendCents: nulls(),
        impressions: nulls(),
        clicks: nulls(),
        linkClicks: nulls(),
        leads: nulls(),
        websiteLeads: nulls(),
      };
      values.spendCents[23] = 9000;
      values.impressions[23] = 100;
      values.leads[23] = 0;
      await writeSettledDays(dbh.db, adAccountId, [
        {
          day: '2024-03-04',
          adId: 'old',
          campaignId: 'c1',
          values,
          readMask: 1 << 23,
          onMask: 1 << 23,
          campaignOnMask: 1 << 23,
        },
      ]);
      const result = await backtest({ days: 1, rule: ruleBody({ spend_cpl_no_leads: { spend: '50' } }) });
      const old = result.results.find((r) => r.object_id === 'old')!;
      expect(old).toMatchObject({ at: '2024-03-04T23:00:00.000Z', settled_numbers: true, spend_at_pause: 90 });
      expect(result.results.find((r) => r.object_id === 'dud')!.settled_numbers).toBe(false);
    });

    it('calls a CPL pause "would have paused a converter" when the final CPL ended under the threshold', async () => {
      // At $35: improver is over at 04:00 ($40/1) and ends at $120/6 = $20 (a converter); late is
      // over at 08:00 ($80/2 = $40) and ends at $60 (waste); cheap never passes $16.
      const result = await backtest({ days: 1, rule: ruleBody({ trigger_cpl: { cpl: '35' } }) });
      expect(result.results.map((r) => [r.at, r.object_id, r.reason.CPL, r.final_cpl, r.verdict])).toEqual([
        ['2024-03-05T04:00:00.000Z', 'improver', '$40.00 > $35.00', 20, 'paused_converter'],
        ['2024-03-05T08:00:00.000Z', 'late', '$40.00 > $35.00', 60, 'stopped_waste'],
      ]);
      expect(result.totals).toMatchObject({ pauses: 2, converters_paused: 1, spend_stopped: 80 + 40, leads_lost: 5 });
    });

    it('holds a run over the blast-radius limit: nothing paused, the hour counted as held', async () => {
      const request = {
        folder: folderId,
        days: 1,
        rule: ruleBody({ spend_cpl_no_leads: { spend: '50' } }),
      } as BacktestRequest;
      const result = await runBacktest(dbh.db, request, await prepareBacktest(dbh.db, request), {
        now: NOW,
        limits: { maxShare: 0.5, maxActions: 25 },
      });
      // 06:00 and 07:00 would pause dud, late and kept: 3 of 5 delivering ads, over half: held. At 08:00
      // late's leads are known: 2 of 5 is under half, and dud and kept are paused.
      expect(result.results.filter((r) => r.object_id === 'dud').map((r) => [r.at, r.verdict])).toEqual([
        ['2024-03-05T06:00:00.000Z', 'held'],
        ['2024-03-05T07:00:00.000Z', 'held'],
        ['2024-03-05T08:00:00.000Z', 'stopped_waste'],
      ]);
      // …and the day before at 23:00 the one ad read then (old) would have been 1 of 1: held too.
      expect(result.totals.held).toBe(7);
    });
  });
});
