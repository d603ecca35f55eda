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
  }),
  by_day: z.array(z.object({ date: z.string(), pauses: z.number().int(), spend_avoided: z.number() })),
  pauses: z.array(impactPauseSchema),
  /** How the estimates are made, in words, for the screen. */
  method: z.array(z.string()),
});
export type ImpactReport = z.infer<typeof impactReportSchema>;
