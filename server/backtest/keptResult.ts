/**
 * What is kept of a finished backtest: the summary (everything but the pauses: totals and per day
 * count every pause) and the first MAX_LISTED_PAUSES pauses, so a job's stored size has a bound
 * whatever the account's size or the rule (one pause row is under a kilobyte).
 */
import type { BacktestPause, BacktestResult } from '../../src/domain/backtest';
import type { BacktestResult as FullResult } from './service';

export const MAX_LISTED_PAUSES = 2_000;

export type BacktestSummary = Omit<BacktestResult, 'results'>;

export function keptResult(full: FullResult): { summary: BacktestSummary; pauses: BacktestPause[] } {
  const { results, ...rest } = full;
  const pauses = results.slice(0, MAX_LISTED_PAUSES);
  return { summary: { ...rest, results_count: results.length, results_listed: pauses.length }, pauses };
}
