/**
 * What a rule with conditions or a budget action reads beside the shared snapshot: the insights of
 * each (level, window) its conditions name — one call each, per account and batch, whatever the
 * number of rules — and, for a budget action, every ad set's and campaign's budget. Read when the
 * batch runs (not kept in the snapshot row): a retry reads them again, as a budget must be.
 */
import { DateTime } from 'luxon';
import type { AdPlatformClient, InsightRow, InsightsQuery } from '../../adplatform/types';
import type { ConditionWindow, CompareScope } from '../../../shared/ruleConditions';
import { lastDaysOf, readsOf } from '../../../shared/ruleConditions';
import { isBudgetAction, type ActionLevel } from '../../../shared/ruleActions';
import type { EngineRule } from '../ruleShape';
import type { BudgetObject } from '../budgets/types';
import { validZone } from '../scheduleSlots';

export type InsightLevel = 'ad' | 'adset' | 'campaign' | 'account';

export interface ConditionInputs {
  /** Insight rows by `${level} ${window}` (windowKey). */
  windowRows: Record<string, InsightRow[]>;
  /** Every ad set and campaign with its budget; absent when no rule of the batch changes budgets. */
  budgets?: BudgetObject[];
}

export const windowKey = (level: InsightLevel, window: ConditionWindow) => `${level} ${window}`;

/** The level whose rows a scope reads for an object of `level`. */
export const levelOf = (scope: CompareScope, level: ActionLevel): InsightLevel => (scope === 'self' ? level : scope);

/** The (level, window) reads a rule needs; empty for a rule without conditions or action. */
export function readsNeeded(
  rule: Pick<EngineRule, 'conditions' | 'action'>,
): { level: InsightLevel; window: ConditionWindow }[] {
  if (!rule.conditions || !rule.action) return [];
  const level = rule.action.level;
  const reads = readsOf(rule.conditions).map((r) => ({ level: levelOf(r.of, level), window: r.window }));
  return [...new Map(reads.map((r) => [windowKey(r.level, r.window), r])).values()];
}

export const readsBudgets = (rule: Pick<EngineRule, 'conditions' | 'action'>) =>
  Boolean(rule.conditions && rule.action && isBudgetAction(rule.action.kind));

/** A window's dates in the account's zone; undefined for lifetime (Graph's date_preset=maximum). */
export function timeRangeOf(window: ConditionWindow, zone: string, at: Date): InsightsQuery['timeRange'] {
  if (window === 'lifetime') return undefined;
  const today = DateTime.fromJSDate(at, { zone: validZone(zone) }).startOf('day');
  if (window === 'today') return { since: today.toISODate()!, until: today.toISODate()! };
  if (window === 'yesterday') {
    const day = today.minus({ days: 1 }).toISODate()!;
    return { since: day, until: day };
  }
  const days = lastDaysOf(window)!;
  return { since: today.minus({ days: days - 1 }).toISODate()!, until: today.toISODate()! };
}

const CONDITION_FIELDS = [
  'campaign_id',
  'campaign_name',
  'adset_id',
  'ad_id',
  'ad_name',
  'optimization_goal',
  'spend',
  'impressions',
  'reach',
  'frequency',
  'clicks',
  'inline_link_clicks',
  'ctr',
  'cpc',
  'cpm',
  'actions',
] as const;

/** Reads what the rules of one account's batch need (nothing when none has conditions). */
export async function readConditionInputs(
  client: AdPlatformClient,
  adAccountId: string,
  zone: string,
  at: Date,
  rules: Pick<EngineRule, 'conditions' | 'action'>[],
): Promise<ConditionInputs | undefined> {
  const reads = [...new Map(rules.flatMap(readsNeeded).map((r) => [windowKey(r.level, r.window), r])).values()];
  const budgets = rules.some(readsBudgets);
  if (!reads.length && !budgets) return undefined;
  const [rows, budgetObjects] = await Promise.all([
    Promise.all(
      reads.map(async ({ level, window }) => {
        const timeRange = timeRangeOf(window, zone, at);
        const answer = await client.getInsights(adAccountId, {
          level: level as InsightsQuery['level'],
          ...(timeRange ? { timeRange } : {}),
          fields: CONDITION_FIELDS as unknown as InsightsQuery['fields'],
        });
        return [windowKey(level, window), answer] as const;
      }),
    ),
    budgets ? listBudgetsOf(client, adAccountId) : Promise.resolve(undefined),
  ]);
  return { windowRows: Object.fromEntries(rows), ...(budgetObjects ? { budgets: budgetObjects } : {}) };
}

async function listBudgetsOf(client: AdPlatformClient, adAccountId: string): Promise<BudgetObject[]> {
  const list = (client as { listBudgets?: (id: string) => Promise<BudgetObject[]> }).listBudgets;
  if (!list) throw new Error('this ad platform client cannot read budgets');
  return list.call(client, adAccountId);
}
