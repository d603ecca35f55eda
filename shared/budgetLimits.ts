/**
 * A folder's budget limits (docs/engine.md, "Budget changes"): whatever its rules say, several
 * rules together included, no object's daily budget grows faster than these, and the platform's own
 * limits are never met. Shown (and editable) in the folder dialog, shown read-only in the rule
 * editor's action section. Lowering a budget is held back only by the changes-per-hour limit: a
 * ceiling never keeps money flowing to what a rule found too dear.
 */
import { z } from 'zod';

export interface BudgetLimits {
  /** At most this much growth (%) of one object's daily budget over any 24 hours. */
  growth_24h_pct: number;
  /** … and over any 7 days. */
  growth_7d_pct: number;
  /** A change at least this large (%) is significant: it sends an ad set back into learning. */
  significant_pct: number;
  /** No second significant raise while the object is learning or within these hours of the last. */
  settle_hours: number;
  /** A run (with the folder's raises of the last 24 hours) adding more daily budget than this is held for approval; null: no limit. */
  daily_increase_limit: number | null;
}

export const DEFAULT_BUDGET_LIMITS: BudgetLimits = {
  growth_24h_pct: 50,
  growth_7d_pct: 100,
  significant_pct: 20,
  settle_hours: 72,
  daily_increase_limit: 1000,
};

/** Meta's own limits (never configurable): a fifth budget change within an hour blocks the object for an hour (error 613, subcode 1487632). */
export const META_BUDGET_CHANGES_PER_HOUR = 4;
/** Mutations a second the engine sends per ad account at most. */
export const MUTATIONS_PER_SECOND = 100;

export const BUDGET_LIMITS_RANGE = {
  growth_24h_pct: { min: 1, max: 500 },
  growth_7d_pct: { min: 1, max: 1000 },
  significant_pct: { min: 1, max: 100 },
  settle_hours: { min: 0, max: 336 },
} as const;

const whole = (key: keyof typeof BUDGET_LIMITS_RANGE) => {
  const { min, max } = BUDGET_LIMITS_RANGE[key];
  return z
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(min, `Must be at least ${min}`)
    .max(max, `Must be at most ${max}`);
};

export const budgetLimitsSchema = z
  .object({
    growth_24h_pct: whole('growth_24h_pct').describe('Largest growth (%) of one daily budget in 24 hours'),
    growth_7d_pct: whole('growth_7d_pct').describe('Largest growth (%) of one daily budget in 7 days'),
    significant_pct: whole('significant_pct').describe('A change this large (%) restarts learning'),
    settle_hours: whole('settle_hours').describe('Hours after a significant raise before the next one'),
    daily_increase_limit: z
      .number({ error: 'Must be a number' })
      .positive('Must be greater than 0')
      .max(10_000_000, 'Must be at most 10,000,000')
      .nullable()
      .describe(
        'Daily budget a run may add (with the last 24 hours of raises) before it waits for approval; null: none',
      ),
  })
  .strict()
  .superRefine((l, ctx) => {
    if (l.growth_7d_pct < l.growth_24h_pct)
      ctx.addIssue({ code: 'custom', path: ['growth_7d_pct'], message: 'Must be at least the 24-hour growth' });
  }) satisfies z.ZodType<BudgetLimits>;

/** PATCH: any of the limits. */
export const budgetLimitsPatchSchema = z
  .object({
    growth_24h_pct: whole('growth_24h_pct'),
    growth_7d_pct: whole('growth_7d_pct'),
    significant_pct: whole('significant_pct'),
    settle_hours: whole('settle_hours'),
    daily_increase_limit: z
      .number({ error: 'Must be a number' })
      .positive('Must be greater than 0')
      .max(10_000_000)
      .nullable(),
  })
  .partial()
  .strict();

/** A stored value read back whole: anything missing or malformed takes the default. */
export function readBudgetLimits(stored: unknown): BudgetLimits {
  const parsed = budgetLimitsPatchSchema.safeParse(stored ?? {});
  return { ...DEFAULT_BUDGET_LIMITS, ...(parsed.success ? parsed.data : {}) };
}
