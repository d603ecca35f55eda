/**
 * The budget bench's folders and rules: per ad account one folder and the scaling pair an agency
 * typically writes — raise the ad set's daily budget 20 % while its cost per lead over the last
 * three days is under the target with at least three leads, lower it 20 % while that cost is over
 * the target — both on every hour, on the account's EDM campaigns. What differs between the bench's
 * two runs is how they judge (maturity, lag allowance, roll-back) and the folder's budget limits.
 */
import type { SimAccount } from '../../../server/adplatform/simulator/world';
import type { Database } from '../../../server/db/client';
import { folders, metaAdAccounts, ruleItems, rules } from '../../../server/db/schema/index';
import type { BudgetLimits } from '../../../shared/budgetLimits';
import { NEW_RULE_JUDGING, type RuleJudging } from '../../../shared/judging';
import type { RuleAction } from '../../../shared/ruleActions';
import type { ConditionGroup } from '../../../shared/ruleConditions';

export type BudgetVariant = 'naive' | 'safe';

const everyHour = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => true));

/** Naive: acts on the first hour's numbers, as reported, and never looks back at a raise. */
const NAIVE_JUDGING: RuleJudging = {
  maturity_hours: 0,
  maturity_impressions: 0,
  lag_hours: null,
  revive_hours: null,
  cooldown_hours: 0,
  attribution_window: null,
  carried_over: false,
};

/**
 * The loosest limits a folder may be given: the naive run's folders, so that nothing of the folder's
 * limits holds its rules back even where the engine's switch (`budgetSafety`, server/run/pipeline/
 * context.ts) does not reach.
 */
const LOOSEST_LIMITS: BudgetLimits = {
  growth_24h_pct: 500,
  growth_7d_pct: 1000,
  significant_pct: 100,
  settle_hours: 0,
  daily_increase_limit: null,
};

/** Safe: a new rule's maturity (24 h, 1,000 impressions) and the lag allowance. */
export function judgingOf(variant: BudgetVariant, lagHours: number): RuleJudging {
  if (variant === 'naive') return NAIVE_JUDGING;
  return { ...NEW_RULE_JUDGING, lag_hours: lagHours };
}

/** The folder's budget limits: the defaults (null) when safe, the loosest allowed when naive. */
export const budgetLimitsOf = (variant: BudgetVariant): Partial<BudgetLimits> | null =>
  variant === 'naive' ? LOOSEST_LIMITS : null;

export interface ScalingRule {
  name: string;
  conditions: ConditionGroup;
  action: RuleAction;
}

/**
 * The pair: raise at CPL (3 days) < target with ≥ 3 leads, lower at CPL (3 days) > target, 20 % each.
 * A raise is rolled back within `rollbackHours` when the cost passes the line again (null: never).
 */
export function scalingPair(target: number, percent: number, rollbackHours: number | null): ScalingRule[] {
  return [
    {
      name: `Scale winners: CPL under $${target}`,
      // The cost line comes first: it is the line a raise is rolled back at.
      conditions: {
        match: 'all',
        conditions: [
          { metric: 'cpl', window: 'last_3_days', op: '<', value: target },
          { metric: 'leads', window: 'last_3_days', op: '>=', value: 3 },
        ],
      },
      action: { kind: 'raise_budget', level: 'adset', change: { percent }, rollback_hours: rollbackHours },
    },
    {
      name: `Cut losers: CPL over $${target}`,
      conditions: { match: 'all', conditions: [{ metric: 'cpl', window: 'last_3_days', op: '>', value: target }] },
      action: { kind: 'lower_budget', level: 'adset', change: { percent } },
    },
  ];
}

/** The account, its folder and the rule pair, all active; answers the rules' ids. */
export async function seedBudgetFolder(
  db: Database,
  account: SimAccount,
  variant: BudgetVariant,
  pair: readonly ScalingRule[],
  lagHours: number,
): Promise<number[]> {
  const adAccountId = `act_${account.accountId}`;
  await db.insert(metaAdAccounts).values({
    adAccountId,
    accountName: account.name,
    timezoneName: account.timezone,
    currency: account.currency,
  });
  const [folder] = await db
    .insert(folders)
    .values({ name: account.name, clientType: 'EDM', plan: 'solo', adAccountId, budgetLimits: budgetLimitsOf(variant) })
    .returning();
  const ids: number[] = [];
  for (const rule of pair) {
    const [created] = await db
      .insert(rules)
      .values({
        folderId: folder!.id,
        name: rule.name,
        isActive: true,
        schedule: everyHour,
        alertSchedule: Array(24).fill(false),
        timezone: 'UTC',
        judging: judgingOf(variant, lagHours),
        conditions: rule.conditions,
        action: rule.action,
      })
      .returning();
    await db.insert(ruleItems).values(
      [
        { type: 'rule_filter', name: 'campaign_name_contains', values: ['EDM'], isActive: true, position: 0 },
        { type: 'rule_filter', name: 'campaign_name_not_contains', values: [], isActive: false, position: 1 },
      ].map((item) => ({ ...item, ruleId: created!.id })),
    );
    ids.push(created!.id);
  }
  return ids;
}
