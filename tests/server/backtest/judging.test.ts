/**
 * The backtest judges with the rule's judging settings as a run of the engine does — maturity, the
 * lead-lag allowance, revive, cool-down and exemptions — on hand-computed cases: every ad spends
 * $10 an hour from midnight, read at every hour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../server/db/client';
import { objectSwitches, ruleExemptions } from '../../../server/db/schema/index';
import { prepareBacktest, runBacktest, type BacktestRequest } from '../../../server/backtest/service';
import { CARRIED_OVER_JUDGING, type RuleJudging } from '../../../shared/judging';
import { eachDatabase, freshDatabase } from '../../support/db';
import { seedAccount, seedRule } from '../run/support';
import { everyHour, readAt, ruleBody } from './support';

const NO_LIMIT = { maxShare: 1, maxActions: 1000 };
const NOW = new Date('2024-03-05T12:30:00Z');
const at = (h: number, minutes = 0) =>
  `2024-03-05T${String(h).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:00.000Z`;
const judging = (settings: Partial<RuleJudging>): RuleJudging => ({
  ...CARRIED_OVER_JUDGING,
  carried_over: false,
  ...settings,
});

eachDatabase((engine) => {
  describe(`backtest on ${engine}: the rule's judging settings`, () => {
    let dbh: DbHandle;
    let folderId: number;
    let ruleId: number;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      const account = await seedAccount(dbh.db);
      const { folder, rule } = await seedRule(dbh.db, account.adAccountId, { everyDayAt: [6] });
      folderId = folder.id;
      ruleId = rule.id;
      for (let h = 0; h <= 12; h += 1)
        await readAt(dbh.db, account.adAccountId, `2024-03-05T${String(h).padStart(2, '0')}:00:20Z`, [
          { id: 'dud', spend: 10 * h },
          // Leads credited to the early hours, reported only from 08:00 on.
          { id: 'late', spend: 10 * h, leads: h >= 8 ? 2 : 0 },
          { id: 'reviver', spend: 10 * h, leads: h >= 8 ? 3 : 0 },
          { id: 'by_hand', spend: 10 * h },
          { id: 'kept', spend: 10 * h },
          { id: 'undone_later', spend: 10 * h },
        ]);
      // Someone turned "by_hand" back on on the platform at 05:30 (after a turn-off of another rule).
      await dbh.db.insert(objectSwitches).values({
        adAccountId: account.adAccountId,
        objectId: 'by_hand',
        turned: 'on',
        source: 'platform',
        at: new Date(at(5, 30)),
      });
      // Undo: "kept" is exempt from this rule since 05:00, "undone_later" only from 09:30.
      await dbh.db.insert(ruleExemptions).values([
        { ruleId, objectId: 'kept', createdAt: new Date(at(5)) },
        { ruleId, objectId: 'undone_later', createdAt: new Date(at(9, 30)) },
      ]);
    });
    afterAll(() => dbh.close());

    const backtest = async (tasks: Record<string, Record<string, string>>, settings: RuleJudging) => {
      const request = {
        folder: folderId,
        rule_id: ruleId,
        days: 1,
        rule: ruleBody(tasks, everyHour(), 'UTC', settings),
      } as BacktestRequest;
      const result = await runBacktest(dbh.db, request, await prepareBacktest(dbh.db, request), {
        now: NOW,
        limits: NO_LIMIT,
      });
      const rows = [...result.results].sort(
        (a, b) => a.at.localeCompare(b.at) || a.object_id.localeCompare(b.object_id),
      );
      return { result, rows };
    };

    it('maturity: an ad is "too early" until it has delivered long enough or reached its impressions', async () => {
      const tasks = { spend_cpl_no_leads: { spend: '30' } };
      // Carried over (no maturity): $40 > $30 at 04:00.
      const before = await backtest(tasks, CARRIED_OVER_JUDGING);
      expect(new Set(before.rows.map((r) => r.at))).toEqual(new Set([at(4)]));
      // Delivering since 00:00: six hours old at 06:00.
      const hours = await backtest(tasks, judging({ maturity_hours: 6 }));
      expect(hours.rows.map((r) => [r.at, r.object_id, r.reason.Spend])).toEqual(
        ['by_hand', 'dud', 'late', 'reviver', 'undone_later'].map((id) => [at(6), id, '$60.00 > $30.00']),
      );
      // 2,000 impressions ($50 at 40 a dollar) are reached at 05:00.
      const impressions = await backtest(tasks, judging({ maturity_impressions: 2000 }));
      expect(new Set(impressions.rows.map((r) => r.at))).toEqual(new Set([at(5)]));
    });

    it('lead-lag allowance: the late converter is never paused, the dud is, on the spend older than L hours', async () => {
      const tasks = { spend_cpl_no_leads: { spend: '50' } };
      // Without it both are paused at 06:00 ($60, no lead known yet): the late converter by mistake.
      const plain = await backtest(tasks, CARRIED_OVER_JUDGING);
      expect(
        plain.rows.filter((r) => ['dud', 'late'].includes(r.object_id)).map((r) => [r.at, r.object_id, r.verdict]),
      ).toEqual([
        [at(6), 'dud', 'stopped_waste'],
        [at(6), 'late', 'paused_converter'],
      ]);
      // With 3 hours: at H the spend judged is $10 × (H − 3); it passes $50 at 09:00, when the late
      // converter's leads are known.
      const lagged = await backtest(tasks, judging({ lag_hours: 3 }));
      expect(lagged.rows.map((r) => [r.at, r.object_id])).toEqual([
        [at(9), 'by_hand'],
        [at(9), 'dud'],
        [at(9), 'undone_later'],
      ]);
      expect(lagged.rows[1]!.reason).toMatchObject({
        Spend: '$60.00 > $50.00',
        'Lag allowance': 'spend of the last 3 h ($30.00) left out',
      });
      expect(lagged.result.totals).toMatchObject({ pauses: 3, converters_paused: 0 });
    });

    it('revive and cool-down: late leads turn an ad back on once; a turned-on ad is left alone for the cool-down', async () => {
      const tasks = { spend_cpl_no_leads: { spend: '50' }, trigger_cpl: { cpl: '30' } };
      const { rows, result } = await backtest(tasks, judging({ revive_hours: 24, cooldown_hours: 3 }));
      expect(rows.map((r) => [r.at, r.object_id, r.task, r.revived_at])).toEqual([
        // Turned on by hand at 05:30: cooling down until 08:30, paused at 09:00 ($90, no lead).
        [at(6), 'dud', 'spend_cpl_no_leads', null],
        // Its 2 leads at 08:00 make $40 a lead, over $30: it stays off.
        [at(6), 'late', 'spend_cpl_no_leads', null],
        // Its 3 leads at 08:00 make $26.67 a lead: revived at 08:00.
        [at(6), 'reviver', 'spend_cpl_no_leads', at(8)],
        // Paused before its Undo at 09:30 made it exempt.
        [at(6), 'undone_later', 'spend_cpl_no_leads', null],
        [at(9), 'by_hand', 'spend_cpl_no_leads', null],
        // $33.33 a lead at 10:00, but cooling down after the revive until 11:00 ($36.67).
        [at(11), 'reviver', 'trigger_cpl', null],
      ]);
      const revived = rows.find((r) => r.revived_at)!;
      // Off from 06:00 to 08:00: $20 of spend and its 3 leads missed.
      expect(revived).toMatchObject({ spend_after: 20, leads_after: 3, verdict: 'paused_converter' });
      expect(rows.at(-1)!.reason.CPL).toBe('$36.67 > $30.00');
      expect(result.totals).toMatchObject({ pauses: 6, revives: 1 });
    });

    it('exemptions: an ad undone before the hour is left alone; one undone later was paused before', async () => {
      const { rows } = await backtest({ spend_cpl_no_leads: { spend: '50' } }, CARRIED_OVER_JUDGING);
      expect(rows.some((r) => r.object_id === 'kept')).toBe(false);
      expect(rows.filter((r) => r.object_id === 'undone_later').map((r) => r.at)).toEqual([at(6)]);
    });

    it("takes the saved rule's judging when the body has none", async () => {
      const request = {
        folder: folderId,
        rule_id: ruleId,
        days: 1,
        rule: { ...ruleBody({ spend_cpl_no_leads: { spend: '30' } }), judging: undefined },
      } as BacktestRequest;
      const prepared = await prepareBacktest(dbh.db, request);
      expect(prepared.judging).toEqual(CARRIED_OVER_JUDGING);
      const unsaved = await prepareBacktest(dbh.db, { ...request, rule_id: null });
      expect(unsaved.judging.maturity_hours).toBe(24);
    });
  });
});
