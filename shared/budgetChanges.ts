/**
 * What the API answers of a rule's conditions and budget changes (Preview, run records, held runs,
 * Activity): each condition's value as judged, each planned or made budget change with the money it
 * adds or removes a day, and a run's total ("+$1,240/day across 14 ad sets").
 */
import { z } from 'zod';

/** One condition as judged on one object: "CPL (last 7 days) $42.10 > $30.00". */
export interface ConditionValueDto {
  text: string;
  /** The condition with its values filled in, as shown in the record. */
  shown: string;
  /** null: no data (neither true nor false). */
  result: boolean | null;
}

export interface BudgetChangeDto {
  action: 'raise_budget' | 'lower_budget' | 'restore_budget';
  object_id: string;
  object_type: 'adset' | 'campaign';
  name: string;
  campaign_id: string;
  campaign_name: string;
  /** Daily budgets in the account's currency: now, what the rule asked, what the ceilings allow. */
  before: number;
  asked: number;
  allowed: number;
  /** allowed − before: the daily spend the change adds (> 0) or removes (< 0). */
  daily_delta: number;
  /** The ceiling that cut the change: "+20% asked, +8% allowed: 24 h ceiling"; null when none did. */
  cut: string | null;
  conditions: ConditionValueDto[];
  reason: Record<string, string>;
}

/** A run's budget changes, summed: added and removed daily spend, and the sentence that says it. */
export interface MoneyAtRiskDto {
  added: number;
  removed: number;
  objects: number;
  /** "+$1,240.00/day across 14 ad sets" (with "· −$300.00/day across 3 ad sets" when some are lowered). */
  text: string;
}

export const conditionValueSchema = z.object({
  text: z.string(),
  shown: z.string(),
  result: z.boolean().nullable().describe('null: no data'),
}) satisfies z.ZodType<ConditionValueDto>;

export const budgetChangeSchema = z.object({
  action: z.enum(['raise_budget', 'lower_budget', 'restore_budget']),
  object_id: z.string(),
  object_type: z.enum(['adset', 'campaign']),
  name: z.string(),
  campaign_id: z.string(),
  campaign_name: z.string(),
  before: z.number().describe('Daily budget now'),
  asked: z.number().describe('Daily budget the rule asked for'),
  allowed: z.number().describe('Daily budget the folder’s ceilings allow'),
  daily_delta: z.number().describe('Daily spend added (> 0) or removed (< 0)'),
  cut: z.string().nullable().describe('The ceiling that cut the change, when one did'),
  conditions: z.array(conditionValueSchema),
  reason: z.record(z.string(), z.string()),
}) satisfies z.ZodType<BudgetChangeDto>;

export const moneyAtRiskSchema = z.object({
  added: z.number(),
  removed: z.number(),
  objects: z.number().int(),
  text: z.string(),
}) satisfies z.ZodType<MoneyAtRiskDto>;
