/**
 * Ad sets and campaigns as Graph sends their budgets (cents as strings, learning_stage_info on ad
 * sets) read as the engine's BudgetObject: cents as integers, null where the object has none.
 */
import type { BudgetObject } from '../judgement/budgets/types';

/** An AdSet or Campaign row with the budget fields (graphFields.ts ADSET_BUDGET_FIELDS, CAMPAIGN_BUDGET_FIELDS). */
export interface BudgetNode {
  id: string;
  name: string;
  /** Ad sets only. */
  campaign_id?: string;
  status: string;
  effective_status: string;
  daily_budget?: string;
  lifetime_budget?: string;
  budget_remaining?: string;
  /** Ad sets only: LEARNING, SUCCESS or FAIL. */
  learning_stage_info?: { status?: string };
}

/** Cents from Graph's string; null when absent, unreadable or 0 (Graph's "no budget here"). */
function cents(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : null;
}

export function budgetObject(node: BudgetNode, level: BudgetObject['level']): BudgetObject {
  const dailyBudget = cents(node.daily_budget);
  const lifetimeBudget = cents(node.lifetime_budget);
  const remaining = Number(node.budget_remaining);
  const hasBudget = dailyBudget !== null || lifetimeBudget !== null;
  return {
    id: node.id,
    level,
    name: node.name,
    campaignId: level === 'campaign' ? node.id : (node.campaign_id ?? ''),
    status: node.status,
    effectiveStatus: node.effective_status,
    dailyBudget,
    lifetimeBudget,
    // An object without a budget of its own reports 0 remaining: that says nothing, so it is unknown.
    budgetRemaining:
      hasBudget && node.budget_remaining !== undefined && Number.isFinite(remaining) ? Math.round(remaining) : null,
    learningStage: node.learning_stage_info?.status ?? null,
  };
}
