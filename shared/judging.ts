/**
 * How a rule judges data that arrives late (docs/engine.md, "Late data: the judging settings"): the rule's
 * judging settings, their defaults and limits, shared by the API, the engine and the editor.
 *
 * - maturity: an object is judged only once it has delivered for `maturity_hours` and reached
 *   `maturity_impressions`; before that its verdict is "too early".
 * - lag allowance: with `lag_hours` set, the lead tasks compare the leads reported so far with the
 *   spend made more than that many hours ago (spend that has not had time to convert is left out).
 * - revive: with `revive_hours` set, an ad this rule turned off whose numbers no longer cross any
 *   active task within that many hours of the turn-off is turned back on, once.
 * - cool-down: an object turned back on (undo, revive, or by hand on the platform) is not turned
 *   off again by the rule for `cooldown_hours`.
 * - attribution window: the lead tasks count the leads Meta credits within `attribution_window`
 *   (a click or view that long before); null counts Meta's default (the ad set's attribution setting).
 *   Meta stopped reporting 7d_view and 28d_view on 12 January 2026: a rule cannot be saved on one,
 *   and a stored one fails its runs with a note saying so (server/run/pipeline/attributionCheck.ts).
 * - carried_over: read only; the rule existed before these settings and keeps judging as it did
 *   (no maturity, no cool-down) until someone saves its judging settings.
 */
import { z } from 'zod';

/** The windows a rule may count leads in (Graph's action_attribution_windows). */
export const ATTRIBUTION_WINDOWS = ['1d_click', '7d_click', '1d_view'] as const;
/** Windows Meta no longer reports (since 12 January 2026). */
export const REMOVED_ATTRIBUTION_WINDOWS = ['7d_view', '28d_view'] as const;
export type AttributionWindow = (typeof ATTRIBUTION_WINDOWS)[number] | (typeof REMOVED_ATTRIBUTION_WINDOWS)[number];

const WINDOW_NAMES: Record<AttributionWindow, string> = {
  '1d_click': '1-day click',
  '7d_click': '7-day click',
  '1d_view': '1-day view',
  '7d_view': '7-day view',
  '28d_view': '28-day view',
};

export const windowName = (window: AttributionWindow | null): string =>
  window ? WINDOW_NAMES[window] : 'Meta’s default (the ad set’s attribution setting)';

export const isRemovedWindow = (window: unknown): window is (typeof REMOVED_ATTRIBUTION_WINDOWS)[number] =>
  (REMOVED_ATTRIBUTION_WINDOWS as readonly unknown[]).includes(window);

/** Why a rule on this window cannot judge; undefined for a window Meta reports. */
export function removedWindowMessage(window: unknown): string | undefined {
  if (!isRemovedWindow(window)) return undefined;
  return `Meta no longer reports ${WINDOW_NAMES[window]} attribution (since 12 January 2026): choose ${ATTRIBUTION_WINDOWS.map((w) => WINDOW_NAMES[w]).join(', ')} or Meta’s default`;
}

export interface RuleJudging {
  maturity_hours: number;
  maturity_impressions: number;
  lag_hours: number | null;
  revive_hours: number | null;
  cooldown_hours: number;
  /** The window the lead tasks count leads in; null: Meta's default. */
  attribution_window: AttributionWindow | null;
  carried_over: boolean;
}

/** What a new rule starts with. */
export const NEW_RULE_JUDGING: RuleJudging = {
  maturity_hours: 24,
  maturity_impressions: 1000,
  lag_hours: null,
  revive_hours: null,
  cooldown_hours: 24,
  attribution_window: null,
  carried_over: false,
};

/** What a rule made before the judging settings keeps: it judges exactly as it did. */
export const CARRIED_OVER_JUDGING: RuleJudging = {
  maturity_hours: 0,
  maturity_impressions: 0,
  lag_hours: null,
  revive_hours: null,
  cooldown_hours: 0,
  attribution_window: null,
  carried_over: true,
};

/** The revive window a rule gets when revive is switched on without a window. */
export const DEFAULT_REVIVE_HOURS = 72;

export const JUDGING_LIMITS = {
  maturity_hours: { min: 0, max: 720 },
  maturity_impressions: { min: 0, max: 10_000_000 },
  lag_hours: { min: 1, max: 168 },
  revive_hours: { min: 1, max: 720 },
  cooldown_hours: { min: 0, max: 720 },
} as const;

const whole = (key: keyof typeof JUDGING_LIMITS) => {
  const { min, max } = JUDGING_LIMITS[key];
  return z
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(min, `Must be at least ${min}`)
    .max(max, `Must be at most ${max.toLocaleString('en-US')}`);
};

/** The rule answer's `judging`. */
export const judgingSchema = z.object({
  maturity_hours: whole('maturity_hours').describe('Hours an object must have delivered before it is judged'),
  maturity_impressions: whole('maturity_impressions').describe('Impressions an object must have before it is judged'),
  lag_hours: whole('lag_hours').nullable().describe('Lead tasks leave out the spend of the last L hours (null: off)'),
  revive_hours: whole('revive_hours')
    .nullable()
    .describe('Turn back on, once, what this rule turned off when its numbers no longer cross (null: off)'),
  cooldown_hours: whole('cooldown_hours').describe('Hours an object turned back on is left alone'),
  attribution_window: z
    .enum([...ATTRIBUTION_WINDOWS, ...REMOVED_ATTRIBUTION_WINDOWS])
    .nullable()
    .describe(
      "The attribution window the lead tasks count leads in (null: Meta's default). 7d_view and 28d_view are no longer reported: a rule stored on one fails its runs",
    ),
  carried_over: z.boolean().describe('The rule predates these settings and judges as it did before (read only)'),
}) satisfies z.ZodType<RuleJudging>;

/** A window a rule may be saved on: a removed one is refused with the reason. */
const savableWindow = z
  .enum(ATTRIBUTION_WINDOWS, {
    error: (issue) =>
      removedWindowMessage(issue.input) ??
      `Must be one of ${ATTRIBUTION_WINDOWS.join(', ')}, or null for Meta’s default`,
  })
  .nullable();

/** PATCH `judging`: any of the settings; carried_over is not written by a client, a removed window not saved. */
export const judgingPatchSchema = judgingSchema
  .omit({ carried_over: true })
  .extend({ attribution_window: savableWindow })
  .partial()
  .strict();
export type JudgingPatch = z.infer<typeof judgingPatchSchema>;

/** Made once: zod compiles a schema on its first parse, which a schema made per call repeats every time. */
const storedJudgingSchema = judgingSchema.partial();

/**
 * A stored value read back whole: anything missing or malformed takes the carried-over value. A
 * window Meta removed is kept, so the rule's runs can say why they cannot judge.
 */
export function readJudging(stored: unknown): RuleJudging {
  const parsed = storedJudgingSchema.safeParse(stored ?? {});
  const value = parsed.success ? parsed.data : {};
  return { ...CARRIED_OVER_JUDGING, ...value };
}

/** Saving any judging setting makes the settings the rule's own (no longer carried over). */
export const applyJudgingPatch = (before: RuleJudging, patch: JudgingPatch): RuleJudging => ({
  ...before,
  ...patch,
  carried_over: false,
});

export const judgingEqual = (a: RuleJudging, b: RuleJudging): boolean =>
  (Object.keys(a) as (keyof RuleJudging)[]).every((key) => a[key] === b[key]);

/**
 * Two active rules on one ad account that act against each other, of one folder or of two folders
 * sharing the account (GET /api/rules/{id}/conflicts/): the rule asked about, then the other.
 */
export interface RuleConflictDto {
  rule_id: number;
  rule_name: string;
  folder_id: number;
  folder_name: string;
  other_rule_id: number;
  other_rule_name: string;
  /** The other rule's folder: the rule's own, or another folder on the same ad account. */
  other_folder_id: number;
  other_folder_name: string;
  /** revives_what_other_pauses: one rule turns back on what the other turns off; same_filters: one set of filters, different thresholds. */
  kind: 'revives_what_other_pauses' | 'same_filters' | 'opposite_budgets' | 'turns_on_what_other_pauses';
  detail: string;
}

export const ruleConflictSchema = z.object({
  rule_id: z.number().int(),
  rule_name: z.string(),
  folder_id: z.number().int(),
  folder_name: z.string(),
  other_rule_id: z.number().int(),
  other_rule_name: z.string(),
  other_folder_id: z
    .number()
    .int()
    .describe("The other rule's folder: the rule's own, or another on the same ad account"),
  other_folder_name: z.string(),
  kind: z.enum(['revives_what_other_pauses', 'same_filters', 'opposite_budgets', 'turns_on_what_other_pauses']),
  detail: z.string(),
}) satisfies z.ZodType<RuleConflictDto>;
