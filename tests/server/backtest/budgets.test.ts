import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../server/db/client';
import { prepareBacktest, runBacktest, type BacktestRequest } from '../../../server/backtest/service';
import { keptResult } from '../../../server/backtest/keptResult';
import type { BudgetObject } from '../../../server/judgement/budgets/types';
import type { ConditionWindow } from '../../../shared/ruleConditions';
import { eachDatabase, freshDatabase } from '../../support/db';
import { seedAccount, seedRule } from '../run/support';
import { readAt, ruleBody } from './support';

const NO_LIMIT = { maxShare: 1, maxActions: 1000 };
const NOW = new Date('2024-03-05T12:30:00Z');
const hourOf = (h: number) => `2024-03-05T${String(h).padStart(2, '0')}:00:20Z`;

const budget = (id: string, campaignId: string, cents: number): BudgetObject => ({
  id,
  level: 'adset',
  name: `Ad set ${id}`,
  campaignId,
  status: 'ACTIVE',
  effectiveStatus: 'ACTIVE',
  dailyBudget: cents,
  lifetimeBudget: null,
  budgetRemaining: null,
  learningStage: 'LEARNING',
});
const platformNow = async () => ({
  budgets: [budget('s1', 'c1', 10_000), budget('s2', 'c2', 5_000)],
  adsetOfAd: new Map([
    ['cheap', 's1'],
    ['dud', 's2'],
  ]),
});

const raiseWhileCheap = (window: ConditionWindow) => ({
  conditions: { match: 'all' as const, conditions: [{ metric: 'cpl' as const, window, op: '<' as const, value: 30 }] },
  action: { kind: 'raise_budget' as const, level: 'adset' as const, change: { percent: 20 }, rollback_hours: null },
});

eachDatabase((engine) => {
  describe(`backtest on ${engine}: rules with conditions and budget actions`, () => {
    let dbh: DbHandle;
    let folderId: number;
    let ruleId: number;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      const account = await seedAccount(dbh.db);
      const seeded = await seedRule(dbh.db, account.adAccountId, { everyDayAt: [6] });
      folderId = seeded.folder.id;
      ruleId = seeded.rule.id;
      // From midnight UTC, $10 an hour each: "cheap" gets a lead every 2 hours, "dud" none. The
      // account's day (New York) starts at 05:00 UTC: before then "today" began before the history.
      for (let h = 0; h <= 12; h += 1)
        await readAt(dbh.db, account.adAccountId, hourOf(h), [
          { id: 'cheap', campaignId: 'c1', spend: 10 * h, leads: Math.floor(h / 2) },
          { id: 'dud', campaignId: 'c2', spend: 10 * h },
        ]);
    });
    afterAll(() => dbh.close());

    const backtest = async (rule: Partial<BacktestRequest['rule']>, withPlatform = true) => {
      const request = {
        folder: folderId,
        rule_id: ruleId,
        days: 1,
        rule: { ...ruleBody({}), ...rule },
      } as BacktestRequest;
      return runBacktest(dbh.db, request, await prepareBacktest(dbh.db, request), {
        now: NOW,
        limits: NO_LIMIT,
        ...(withPlatform ? { platformNow } : {}),
      });
    };

    it('lists the raises hour by hour from the budgets of now, each cut by the ceiling it met, with its condition values and the totals', async () => {
      const result = await backtest(raiseWhileCheap('today'));
      expect(result.budgets_from).toBe('now');
      const changes = result.budget_changes!.map((c) => [
        c.at.slice(11, 16),
        c.object_id,
        c.before,
        c.allowed,
        c.cut_by,
      ]);
      // 06:00 the day's first lead ($10 < $30): +20%. 07:00 a second significant raise within the
      // settling hours: just under 20% over the $120 the first left. 08:00–12:00 nothing left: raises
      // add up to under 20% from there while it settles.
      expect(changes).toEqual([
        ['06:00', 's1', 100, 120, null],
        ['07:00', 's1', 120, 143.99, 'settling'],
      ]);
      const [first, second] = result.budget_changes!;
      expect(first).toMatchObject({
        action: 'raise_budget',
        object_type: 'adset',
        name: 'Ad set s1',
        campaign_name: 'EDM Campaign c1',
        asked: 120,
        daily_delta: 20,
        cut: null,
        held: false,
      });
      expect(first!.conditions).toEqual([
        { text: 'CPL (today) < 30', shown: 'CPL (today) $10.00 < $30.00 ✓', result: true },
      ]);
      expect(second!.cut).toBe('+20% asked, +19% allowed: settling (a significant change 1 h ago)');
      expect(result.ceilings_met).toEqual({ settling: 6 });
      expect(result.budget_totals).toEqual({ changes: 2, held: 0, added: 43.99, removed: 0, objects: 1 });
      // Kept whole with the job's summary.
      expect(keptResult(result).summary).toMatchObject({ budget_changes_count: 2, budget_totals: { added: 43.99 } });
    });

    it('lowers too, and a window the history cannot give is no data: no change', async () => {
      const lower = await backtest({
        conditions: {
          match: 'all',
          conditions: [
            { metric: 'spend', window: 'today', op: '>', value: 50 },
            { metric: 'leads', window: 'today', op: '<', value: 1 },
          ],
        },
        action: { kind: 'lower_budget', level: 'adset', change: { to_amount: 20 } },
      });
      expect(lower.budget_changes!.map((c) => [c.at.slice(11, 16), c.object_id, c.before, c.allowed])).toEqual([
        ['11:00', 's2', 50, 20],
      ]);
      expect(lower.budget_totals).toMatchObject({ added: 0, removed: 30 });
      // The history starts on the 5th: three days back it knows nothing.
      const blind = await backtest(raiseWhileCheap('last_3_days'));
      expect(blind.budget_changes).toEqual([]);
      expect(blind.budget_totals).toMatchObject({ changes: 0 });
    });

    it('turns off on its conditions as the task cards do, and a budget rule needs the platform', async () => {
      const result = await backtest({
        conditions: {
          match: 'all',
          conditions: [
            { metric: 'spend', window: 'today', op: '>', value: 50 },
            { metric: 'leads', window: 'today', op: '<', value: 1 },
          ],
        },
        action: { kind: 'turn_off', level: 'ad' },
      });
      expect(result.results.map((p) => [p.at.slice(11, 16), p.object_id, p.task])).toEqual([
        ['11:00', 'dud', 'conditions'],
      ]);
      expect(result.budget_changes).toBeUndefined();
      await expect(backtest(raiseWhileCheap('today'), false)).rejects.toThrow(/budgets to start from cannot be read/);
    });
  });
});
