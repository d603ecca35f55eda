/**
 * The agency overview's answer (`GET /api/overview/`), shared by the server and the screen: per live
 * folder, what it spent and the leads it got today and over the last 7 days (its ad account's days,
 * in the account's time zone), its cost per lead against the lowest CPL threshold of its active
 * rules, what its rules did today, the held runs waiting for a person and its ad account's health
 * problems; and why it needs a person, which orders the rows.
 */
import { z } from 'zod';
import { HEALTH_CHECKS, healthProblemSchema } from './health';

const isoTime = z.string().describe('ISO 8601 date and time');

/** What needs a person, most urgent first: the score of a row is its most urgent reason's. */
export const ATTENTION_SCORES = { held_runs: 3, health: 3, cpl_over: 2, spend_no_leads: 1 } as const;

export const overviewPeriodSchema = z.object({
  spend: z.number().nullable().describe("Spend in the account's currency; null: no day of the period was read yet"),
  leads: z.number().int().nullable().describe('Leads (all leads; website leads when the account reports no other)'),
  cpl: z.number().nullable().describe('Spend / leads, to the cent; null without a lead'),
  days_read: z.number().int().describe('Days of the period the account was read for (1 for today, up to 7)'),
});
export type OverviewPeriod = z.infer<typeof overviewPeriodSchema>;

const periodName = z.enum(['today', 'week']).describe('today, or the last 7 days (today included)');

export const attentionReasonSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('held_runs'),
    count: z.number().int(),
    budget_added: z.number().nullable().describe('Daily budget the held runs would add; null: none of them raises one'),
  }),
  z.object({
    kind: z.literal('health'),
    check: z.enum(HEALTH_CHECKS),
    state: z.enum(['problem', 'warning']).describe('problem: the runs are held; warning: nothing held yet'),
    detail: z.string(),
  }),
  z.object({
    kind: z.literal('cpl_over'),
    period: periodName,
    cpl: z.number(),
    threshold: z.number(),
  }),
  z.object({
    kind: z.literal('spend_no_leads'),
    period: periodName,
    spend: z.number(),
  }),
]);
export type AttentionReason = z.infer<typeof attentionReasonSchema>;

export const overviewRowSchema = z.object({
  folder: z.object({ id: z.number().int(), name: z.string(), client_type: z.string() }),
  ad_account: z.object({
    ad_account_id: z.string(),
    account_name: z.string(),
    timezone_name: z.string(),
    currency: z.string(),
  }),
  today: overviewPeriodSchema,
  week: overviewPeriodSchema.describe('The last 7 days of the account, today included'),
  read_at: isoTime.nullable().describe("When today's numbers were read from the platform; null: not yet"),
  cpl_threshold: z
    .number()
    .nullable()
    .describe('The lowest CPL threshold (trigger_cpl, website_cpl) of the folder’s active rules; null: none'),
  cpl_over_threshold: z.boolean().describe("Today's or the 7 days' CPL is above the threshold"),
  rules_acted_today: z.number().int().describe('Rules that turned something off or on or changed a budget today'),
  actions_today: z.number().int().describe('What they turned off, on or changed today'),
  held_runs: z.object({
    count: z.number().int().describe('Held runs waiting for Approve or Dismiss'),
    turn_offs: z.number().int().describe('The turn-offs they planned'),
    budget_added: z.number().nullable().describe('Daily budget they would add; null: none raises one'),
    oldest: z
      .object({ rule_id: z.number().int(), run_id: z.number().int() })
      .nullable()
      .describe('The oldest waiting run, to open in the rule editor'),
  }),
  health: z.array(healthProblemSchema).describe("The ad account's problems and warnings (its token's included)"),
  needs_attention: z.object({
    score: z
      .number()
      .int()
      .describe('3: held runs or a health problem, 2: CPL over the threshold, 1: spend with no leads, 0: quiet'),
    reasons: z.array(attentionReasonSchema),
  }),
});
export type OverviewRow = z.infer<typeof overviewRowSchema>;

export const agencyOverviewSchema = z.object({
  generated_at: isoTime,
  count: z.number().int(),
  results: z
    .array(overviewRowSchema)
    .describe('Every live folder, those that need a person first (score, then spend today, then 7 days, then name)'),
});
export type AgencyOverview = z.infer<typeof agencyOverviewSchema>;
