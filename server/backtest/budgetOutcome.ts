/**
 * A budget rule's backtest in the API's words: each change the replay would have made (daily
 * budgets in the account's currency, the ceiling that cut it, the condition values it acted on),
 * how often each ceiling cut one, and the daily budget the changes added and removed in all.
 */
import type { BacktestBudgetChange, BacktestBudgetTotals } from '../../shared/backtest';
import type { Timeline } from '../history/timeline';
import type { ReplayResult } from './replay';

const dollars = (cents: number) => Math.round(cents) / 100;

export function budgetOutcomesOf(
  replayed: Pick<ReplayResult, 'budgetChanges' | 'ceilingsMet'>,
  timeline: Pick<Timeline, 'ads'>,
): {
  budget_changes: BacktestBudgetChange[];
  ceilings_met: Record<string, number>;
  budget_totals: BacktestBudgetTotals;
} {
  const campaignNames = new Map(timeline.ads.map((s) => [s.campaignId, s.campaignName]));
  const budget_changes = replayed.budgetChanges.map(
    (c): BacktestBudgetChange => ({
      at: new Date(c.atMs).toISOString(),
      action: c.action,
      object_id: c.objectId,
      object_type: c.level,
      name: c.name,
      campaign_id: c.campaignId,
      campaign_name: campaignNames.get(c.campaignId) ?? '',
      before: dollars(c.before),
      asked: dollars(c.asked),
      allowed: dollars(c.allowed),
      daily_delta: dollars(c.allowed - c.before),
      cut: c.cut,
      cut_by: c.cutBy,
      held: c.held,
      conditions: c.conditions,
      reason: c.reason,
    }),
  );
  const made = replayed.budgetChanges.filter((c) => !c.held);
  const added = made.filter((c) => c.allowed > c.before).reduce((sum, c) => sum + c.allowed - c.before, 0);
  const removed = made.filter((c) => c.allowed < c.before).reduce((sum, c) => sum + c.before - c.allowed, 0);
  return {
    budget_changes,
    ceilings_met: Object.fromEntries(Object.entries(replayed.ceilingsMet).filter(([, n]) => n)) as Record<
      string,
      number
    >,
    budget_totals: {
      changes: made.length,
      held: replayed.budgetChanges.length - made.length,
      added: dollars(added),
      removed: dollars(removed),
      objects: new Set(made.map((c) => c.objectId)).size,
    },
  };
}
