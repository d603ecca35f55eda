/**
 * What a rule's conditions do (docs/engine.md, "Conditions and actions"): turn off or turn on ads or campaigns, or
 * raise or lower the daily budget of ad sets or of campaigns with a campaign budget, by a
 * percentage or to an amount, never past the rule's floor and ceiling. A lifetime budget is refused
 * with its reason, never guessed at. Whatever a rule asks, the folder's budget limits
 * (budgetLimits.ts) cut budget growth; the record says so.
 */
import { z } from 'zod';

export const ACTION_KINDS = ['turn_off', 'turn_on', 'raise_budget', 'lower_budget'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];
export const BUDGET_ACTION_KINDS = ['raise_budget', 'lower_budget'] as const;
export const isBudgetAction = (kind: string): kind is (typeof BUDGET_ACTION_KINDS)[number] =>
  (BUDGET_ACTION_KINDS as readonly string[]).includes(kind);

/** Turning on/off acts on ads or campaigns; budgets live on ad sets or (campaign budget) campaigns. */
export const ACTION_LEVELS = {
  turn_off: ['ad', 'campaign'],
  turn_on: ['ad', 'campaign'],
  raise_budget: ['adset', 'campaign'],
  lower_budget: ['adset', 'campaign'],
} as const;
export type ActionLevel = 'ad' | 'adset' | 'campaign';

export interface BudgetChange {
  /** By this percentage of the current daily budget (raise: up, lower: down) … */
  percent?: number;
  /** … or to this daily amount (account currency). */
  to_amount?: number;
}

export interface RuleAction {
  kind: ActionKind;
  level: ActionLevel;
  /** Budget actions only. */
  change?: BudgetChange;
  /** Budget actions only: the rule never takes a daily budget below the floor or above the ceiling. */
  floor?: number | null;
  ceiling?: number | null;
  /**
   * Raises only: a raise whose object's cost rises past the rule's line (its first cost condition
   * under a number) within these hours is rolled back to the budget before it, once. Absent: 48;
   * null: never.
   */
  rollback_hours?: number | null;
}

export const DEFAULT_ROLLBACK_HOURS = 48;

/** The roll-back window of a raising rule in hours; null when it has none. */
export const rollbackHoursOf = (a: RuleAction): number | null =>
  a.kind !== 'raise_budget' ? null : a.rollback_hours === undefined ? DEFAULT_ROLLBACK_HOURS : a.rollback_hours;

export const ACTION_LIMITS = { percentMax: 100, lowerPercentMax: 90, amountMax: 1_000_000 } as const;

export const ACTION_MESSAGES = {
  kind: `Choose an action: ${ACTION_KINDS.join(', ')}`,
  level: (kind: ActionKind) => `${kind} acts on ${ACTION_LEVELS[kind].join(' or ')}`,
  changeNeeded: 'Give the change: a percentage (percent) or an amount (to_amount)',
  changeOne: 'Give a percentage or an amount, not both',
  changeNotBudget: 'Only budget actions take a change, a floor or a ceiling',
  percent: (max: number) => `Must be more than 0 and at most ${max}`,
  amount: `Must be more than 0 and at most ${ACTION_LIMITS.amountMax.toLocaleString('en-US')}`,
  floorOverCeiling: 'The floor must be below the ceiling',
  conditionsNeeded: 'An action needs at least one condition',
  actionNeeded: 'Conditions need an action',
} as const;

const positive = (max: number, message: string) =>
  z.number({ error: 'Must be a number' }).refine((n) => Number.isFinite(n) && n > 0 && n <= max, message);

export const ruleActionSchema = z
  .object({
    kind: z.enum(ACTION_KINDS, { error: ACTION_MESSAGES.kind }),
    level: z.enum(['ad', 'adset', 'campaign'], { error: 'Choose ad, adset or campaign' }),
    change: z
      .object({
        percent: positive(ACTION_LIMITS.percentMax, ACTION_MESSAGES.percent(ACTION_LIMITS.percentMax)).optional(),
        to_amount: positive(ACTION_LIMITS.amountMax, ACTION_MESSAGES.amount).optional(),
      })
      .strict()
      .optional(),
    floor: positive(ACTION_LIMITS.amountMax, ACTION_MESSAGES.amount).nullable().optional(),
    ceiling: positive(ACTION_LIMITS.amountMax, ACTION_MESSAGES.amount).nullable().optional(),
    rollback_hours: z
      .number({ error: 'Must be a number' })
      .int('Must be a whole number')
      .min(1, 'Must be at least 1')
      .max(168, 'Must be at most 168')
      .nullable()
      .optional(),
  })
  .strict()
  .superRefine((a, ctx) => {
    if (!(ACTION_LEVELS[a.kind] as readonly string[]).includes(a.level))
      ctx.addIssue({ code: 'custom', path: ['level'], message: ACTION_MESSAGES.level(a.kind) });
    if (!isBudgetAction(a.kind)) {
      if (a.change || a.floor != null || a.ceiling != null || a.rollback_hours != null)
        ctx.addIssue({ code: 'custom', path: ['change'], message: ACTION_MESSAGES.changeNotBudget });
      return;
    }
    const { percent, to_amount } = a.change ?? {};
    if (percent === undefined && to_amount === undefined)
      ctx.addIssue({ code: 'custom', path: ['change'], message: ACTION_MESSAGES.changeNeeded });
    if (percent !== undefined && to_amount !== undefined)
      ctx.addIssue({ code: 'custom', path: ['change'], message: ACTION_MESSAGES.changeOne });
    if (a.kind === 'lower_budget' && percent !== undefined && percent > ACTION_LIMITS.lowerPercentMax)
      ctx.addIssue({
        code: 'custom',
        path: ['change', 'percent'],
        message: ACTION_MESSAGES.percent(ACTION_LIMITS.lowerPercentMax),
      });
    if (a.kind === 'lower_budget' && a.rollback_hours != null)
      ctx.addIssue({ code: 'custom', path: ['rollback_hours'], message: 'Only a raise is rolled back' });
    if (a.floor != null && a.ceiling != null && a.floor >= a.ceiling)
      ctx.addIssue({ code: 'custom', path: ['floor'], message: ACTION_MESSAGES.floorOverCeiling });
  }) satisfies z.ZodType<RuleAction>;

/** A rule's `action`: null when it has none (its task cards turn off, as they always did). */
export const ruleActionFieldSchema = ruleActionSchema.nullable();

const money = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** "Raise the ad set's daily budget by 20% (at most $500.00)". */
export function actionText(a: RuleAction): string {
  const what = a.level === 'adset' ? 'ad set' : a.level;
  if (a.kind === 'turn_off') return `Turn off the ${what}`;
  if (a.kind === 'turn_on') return `Turn on the ${what}`;
  const verb = a.kind === 'raise_budget' ? 'Raise' : 'Lower';
  const by = a.change?.percent !== undefined ? `by ${a.change.percent}%` : `to ${money(a.change?.to_amount ?? 0)}`;
  const bounds = [
    a.floor != null ? `at least ${money(a.floor)}` : '',
    a.ceiling != null ? `at most ${money(a.ceiling)}` : '',
  ].filter(Boolean);
  return `${verb} the ${what}'s daily budget ${by}${bounds.length ? ` (${bounds.join(', ')})` : ''}`;
}
