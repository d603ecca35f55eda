/**
 * What is kept of a finished backtest: the summary (everything but the pauses: totals and per day
 * count every pause) and the first MAX_LISTED_PAUSES pauses, so a job's stored size has a bound
 * whatever the account's size or the rule (one pause row is under a kilobyte); a budget rule's
 * changes are kept in the summary, the first MAX_LISTED_PAUSES of them.
 */
import type { BacktestPause, BacktestResult } from '../../shared/backtest';
import type { BacktestResult as FullResult } from './service';

export const MAX_LISTED_PAUSES = 2_000;

export type BacktestSummary = Omit<BacktestResult, 'results'>;

export function keptResult(full: FullResult): { summary: BacktestSummary; pauses: BacktestPause[] } {
  const { results, budget_changes, ...rest } = full;
  const pauses = results.slice(0, MAX_LISTED_PAUSES);
  // A budget rule's changes stay in the summary, as many as the pauses listed at most.
  const budgets = budget_changes
    ? { budget_changes: budget_changes.slice(0, MAX_LISTED_PAUSES), budget_changes_count: budget_changes.length }
    : {};
  return { summary: { ...rest, ...budgets, results_count: results.length, results_listed: pauses.length }, pauses };
}
