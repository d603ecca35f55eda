/** The impact report's answer (`GET /api/impact/`), shared by the server and the screen. */
import { z } from 'zod';

export const impactPauseSchema = z.object({
  at: z.string(),
  rule_id: z.number().int().nullable(),
  rule_name: z.string(),
  folder_name: z.string(),
  object_type: z.string(),
  object_id: z.string(),
  name: z.string(),
  reason: z.record(z.string(), z.string()),
  /** When it was turned back on (undo or revive); null while it stays off. */
  back_on_at: z.string().nullable(),
  back_on_by: z.enum(['undo', 'revive']).nullable(),
  hours_off: z.number(),
  /** Spend an hour in the day before the pause (null: no history before it). */
  spend_rate: z.number().nullable(),
  /** The campaign's daily budget × the days it stayed off (null: no budget known). */
  budget_cap: z.number().nullable(),
  spend_avoided: z.number(),
  /** Why it counts as a false pause: undone, revived or settled_under_threshold; null otherwise. */
  false_pause: z.enum(['undone', 'revived', 'settled_under_threshold']).nullable(),
  leads_brought_back: z.number().int(),
});
export type ImpactPause = z.infer<typeof impactPauseSchema>;

/** A done budget change of the period, with the object's cost per lead around it. */
export const impactBudgetChangeSchema = z.object({
  at: z.string(),
  rule_id: z.number().int().nullable(),
  rule_name: z.string(),
  folder_name: z.string(),
  action: z.enum(['raise_budget', 'lower_budget', 'restore_budget']),
  object_type: z.enum(['adset', 'campaign']),
  object_id: z.string(),
  name: z.string(),
  /** Daily budgets before and after, and what the change added (> 0) or removed (< 0) a day. */
  before: z.number(),
  after: z.number(),
  daily_delta: z.number(),
  /** Cost per lead in the days before the change and in the days after it (null: N/A, unknown). */
  cpl_before: z.number().nullable(),
  cpl_after: z.number().nullable(),
});
export type ImpactBudgetChange = z.infer<typeof impactBudgetChangeSchema>;

export const impactReportSchema = z.object({
  scope: z.object({ kind: z.enum(['agency', 'folder', 'rule']), id: z.number().int().nullable(), name: z.string() }),
  days: z.number().int(),
  from: z.string(),
  to: z.string(),
  currency: z.string().describe('The currency of the sums (mixed when the accounts differ)'),
  totals: z.object({
    turn_offs: z.number().int(),
    revives: z.number().int(),
    undos: z.number().int(),
    spend_avoided: z.number(),
    false_pauses: z.number().int(),
    leads_brought_back: z.number().int(),
    /** Daily budget the done budget changes added, and removed (0 or more), summed over the period. */
    budget_added: z.number().optional(),
    budget_removed: z.number().optional(),
  }),
  by_day: z.array(z.object({ date: z.string(), pauses: z.number().int(), spend_avoided: z.number() })),
  pauses: z.array(impactPauseSchema),
  budget_changes: z.array(impactBudgetChangeSchema).optional().describe('Done budget changes, newest first'),
  /** How the estimates are made, in words, for the screen. */
  method: z.array(z.string()),
});
export type ImpactReport = z.infer<typeof impactReportSchema>;
