/**
 * The ads list (`GET /api/ads/`) and the on/off state it and the campaigns list show: whether an ad or
 * campaign is on and, when it is not, why — a rule turned it off, Meta paused it, a person paused it,
 * its campaign is off, or the platform holds it for another reason. Built by the server
 * (server/ads/), read by the browser (src/resources/ads/, the campaigns list's Status column).
 */
import { z } from 'zod';

const isoTime = z.string().describe('ISO 8601 date and time');

export const STATE_REASONS = ['on', 'rule', 'meta', 'person', 'campaign', 'platform', 'unknown'] as const;
export type StateReason = (typeof STATE_REASONS)[number];

/** Reasons an object is off, as the `reason` filter takes them. */
export const OFF_REASONS = STATE_REASONS.filter((r) => r !== 'on' && r !== 'unknown');

export const objectStateSchema = z
  .object({
    on: z.boolean().describe('Delivering as far as the product knows (its own status and its campaign on)'),
    reason: z
      .enum(STATE_REASONS)
      .describe(
        'on; rule: a rule turned it off; meta: Meta paused it; person: paused by hand; campaign: its campaign is off; ' +
          'platform: archived, deleted, in review or with issues; unknown: no live reading of it yet',
      ),
    at: isoTime.nullable().describe('When the rule turned it off or Meta paused it'),
    rule: z
      .object({ id: z.number().int().nullable(), name: z.string().nullable() })
      .nullable()
      .describe('The rule that turned it off (id and name null once the rule is deleted for good)'),
    run_id: z.number().int().nullable().describe("The run that turned it off: the rule editor's run record"),
    entry_id: z.number().int().nullable().describe('The rule activity entry of the turn-off or of Meta’s pause'),
    detail: z.string().nullable().describe("Meta's words for its pause, or the platform's status"),
  })
  .describe('Whether the object is on and, if not, why');

export type ObjectStateDto = z.infer<typeof objectStateSchema>;

const numbersSchema = z.object({
  spend: z.number(),
  leads: z.number(),
  cpl: z.number().nullable().describe('spend ÷ leads; null without leads'),
});

export const adSchema = z.object({
  id: z.string().describe('The ad id'),
  ad_id: z.string(),
  name: z.string(),
  campaign: z.object({ id: z.string(), name: z.string(), state: objectStateSchema.nullable() }),
  folder: z.object({ id: z.number().int(), name: z.string() }),
  ad_account: z.object({ id: z.string(), name: z.string(), currency: z.string(), timezone_name: z.string() }),
  state: objectStateSchema,
  read_at: isoTime.nullable().describe('The live reading the state rests on (the hour it was read in)'),
  today: numbersSchema
    .extend({ as_of: isoTime.describe('The hour of the latest reading counted') })
    .nullable()
    .describe("Today's numbers in the ad account's time zone, as of the latest reading; null: not read today"),
  last_judged: numbersSchema
    .extend({
      run_id: z.number().int(),
      rule: z.object({ id: z.number().int(), name: z.string() }),
      at: isoTime,
    })
    .nullable()
    .describe('What the last run that judged the ad read (the rule window’s numbers); null: no rule judged it'),
});

export type AdDto = z.infer<typeof adSchema>;

export const AD_TURN_ON_MAX = 100;

export const adTurnOnBody = z.object({
  ids: z.array(z.string().min(1).max(40)).min(1).max(AD_TURN_ON_MAX).describe('The ads to turn back on'),
});

export const adTurnOnAnswer = z.object({
  detail: z.string(),
  turned_on: z.number().int(),
  results: z.array(
    z.object({
      ad_id: z.string(),
      result: z.enum(['turned_on', 'skipped', 'failed']),
      detail: z.string(),
    }),
  ),
});

export type AdTurnOnAnswer = z.infer<typeof adTurnOnAnswer>;
