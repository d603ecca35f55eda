/**
 * The backtest's and the impact report's answers (docs/api.md), shared by the server (which
 * serialises through these schemas) and the screens that read them.
 */
import { z } from 'zod';
import { conditionValueSchema } from './budgetChanges';

export const BACKTEST_SPANS = [7, 14, 30] as const;
export const IMPACT_SPANS = [7, 30] as const;
/** Pauses per page of a backtest's result: the job's answer carries the first page. */
export const BACKTEST_PAUSES_PAGE = 100;

export const pauseVerdictSchema = z.enum(['stopped_waste', 'paused_converter', 'goal_reached', 'held']);
export type PauseVerdict = z.infer<typeof pauseVerdictSchema>;

export const backtestPauseSchema = z.object({
  at: z.string().describe('The scheduled hour it would have run at'),
  object_type: z.enum(['ad', 'campaign']),
  object_id: z.string(),
  name: z.string(),
  campaign_id: z.string(),
  campaign_name: z.string(),
  task: z.string(),
  reason: z.record(z.string(), z.string()).describe('The numbers and threshold that triggered it'),
  settled_numbers: z.boolean().describe('Judged on backfilled (settled) numbers, not as known then'),
  spend_at_pause: z.number(),
  leads_at_pause: z.number().int(),
  spend_after: z.number().describe('What it went on to spend after that hour, in the recorded history'),
  leads_after: z.number().int().describe('The leads it went on to bring (late leads included)'),
  final_cpl: z.number().nullable(),
  verdict: pauseVerdictSchema,
  revived_at: z
    .string()
    .nullable()
    .describe('When the rule would have turned it back on (revive); null: it stayed off'),
});
export type BacktestPause = z.infer<typeof backtestPauseSchema>;

/** One budget change a budget rule would have made in the history (daily budgets in the account's currency). */
export const backtestBudgetChangeSchema = z.object({
  at: z.string().describe('The scheduled hour it would have run at'),
  action: z.enum(['raise_budget', 'lower_budget', 'restore_budget']),
  object_id: z.string(),
  object_type: z.enum(['adset', 'campaign']),
  name: z.string(),
  campaign_id: z.string(),
  campaign_name: z.string(),
  before: z.number().describe('Daily budget before the change'),
  asked: z.number().describe('Daily budget the rule asked for'),
  allowed: z.number().describe('Daily budget the folder’s limits allowed'),
  daily_delta: z.number().describe('allowed − before'),
  /** "+20% asked, +8% allowed: 24 h ceiling"; null when nothing cut it. */
  cut: z.string().nullable(),
  cut_by: z.string().nullable().describe('The ceiling that cut it: growth_24h, growth_7d, settling, …'),
  held: z.boolean().describe('The run would have waited for approval (daily increase limit): not made'),
  conditions: z.array(conditionValueSchema),
  reason: z.record(z.string(), z.string()),
});
export type BacktestBudgetChange = z.infer<typeof backtestBudgetChangeSchema>;

export const backtestBudgetTotalsSchema = z.object({
  changes: z.number().int().describe('Changes made (held ones not counted)'),
  held: z.number().int(),
  added: z.number().describe('Daily budget the raises added, summed'),
  removed: z.number().describe('Daily budget the lowers and roll-backs removed, summed (0 or more)'),
  objects: z.number().int().describe('Ad sets and campaigns changed'),
});
export type BacktestBudgetTotals = z.infer<typeof backtestBudgetTotalsSchema>;

export const backtestResultSchema = z.object({
  rule: z.object({ id: z.number().int().nullable(), name: z.string() }),
  account: z.object({ ad_account_id: z.string(), account_name: z.string(), currency: z.string() }),
  from: z.string(),
  to: z.string(),
  days: z.number().int(),
  timezone: z.string(),
  slots: z.number().int(),
  slots_without_data: z.number().int(),
  history: z.object({ first: z.string().nullable(), last: z.string().nullable(), settled_share: z.number() }),
  totals: z.object({
    pauses: z.number().int(),
    held: z.number().int(),
    converters_paused: z.number().int(),
    spend_stopped: z.number(),
    leads_lost: z.number().int(),
    revives: z.number().int().describe('Pauses the rule would have turned back on (revive)'),
  }),
  by_day: z.array(
    z.object({
      date: z.string(),
      pauses: z.number().int(),
      converters_paused: z.number().int(),
      spend_stopped: z.number(),
    }),
  ),
  results: z
    .array(backtestPauseSchema)
    .describe('The first page of pauses (the rest: GET /api/backtests/{id}/pauses/)'),
  results_count: z.number().int().describe('Pauses found, held ones included: what totals and by_day count'),
  results_listed: z
    .number()
    .int()
    .describe('Pauses that can be listed: the first ones found, up to a limit (results_count when below it)'),
  budget_changes: z
    .array(backtestBudgetChangeSchema)
    .optional()
    .describe('A budget rule: the changes it would have made, oldest first (the first ones, up to a limit)'),
  budget_changes_count: z.number().int().optional().describe('Budget changes found, held ones included'),
  ceilings_met: z
    .record(z.string(), z.number().int())
    .optional()
    .describe('How often each ceiling (or the rule’s own bound) cut a change, by name'),
  budget_totals: backtestBudgetTotalsSchema.optional(),
  budgets_from: z
    .enum(['now'])
    .optional()
    .describe('now: the history keeps no budgets; they start as they are now, changed only by this rule'),
});
export type BacktestResult = z.infer<typeof backtestResultSchema>;

/** A page of a finished backtest's pauses (`GET /api/backtests/{id}/pauses/?limit=&offset=`). */
export const backtestPausePageSchema = z.object({
  count: z.number().int(),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(backtestPauseSchema),
});
export type BacktestPausePage = z.infer<typeof backtestPausePageSchema>;

export const backtestJobSchema = z.object({
  id: z.string(),
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  result: backtestResultSchema.nullable(),
  error: z.string().nullable(),
});
export type BacktestJob = z.infer<typeof backtestJobSchema>;

export const historyCoverageSchema = z.object({
  ad_account_id: z.string(),
  days: z.number().int(),
  ads: z.number().int(),
  first: z.string().nullable(),
  last: z.string().nullable(),
  readings: z.number().int(),
  settled_readings: z.number().int(),
});
export type HistoryCoverage = z.infer<typeof historyCoverageSchema>;
