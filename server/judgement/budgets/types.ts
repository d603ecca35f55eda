/**
 * The budget side of the engine, shared by the pure pieces (conditions, ceilings, plan) and the
 * pipeline that reads, claims and sends: what the platform says of a budgeted object, and what a
 * rule plans to change.
 */
import type { ActionLevel } from '../../../shared/ruleActions';

/** An ad set or campaign as read from the platform with its budget fields (cents as integers). */
export interface BudgetObject {
  id: string;
  level: 'adset' | 'campaign';
  name: string;
  campaignId: string;
  status: string;
  effectiveStatus: string;
  /** Daily budget in cents; null when it has none (a lifetime budget, or the campaign holds the budget). */
  dailyBudget: number | null;
  /** Lifetime budget in cents; null when none. */
  lifetimeBudget: number | null;
  /** Cents left of today's (or the lifetime) budget; null when not reported. */
  budgetRemaining: number | null;
  /** Meta's learning_stage_info.status (ad sets): LEARNING, SUCCESS, FAIL; null when not reported. */
  learningStage: string | null;
}

/** A budget change the engine made or claimed (rule_activity rows of action raise/lower/restore_budget). */
export interface BudgetChangeRecord {
  objectId: string;
  at: Date;
  /** Cents/day before and after. */
  before: number;
  after: number;
  state: 'pending' | 'done';
}

/** Which ceiling cut a change (docs/engine.md, "Budget changes"). */
export type CeilingName =
  | 'growth_24h'
  | 'growth_7d'
  | 'learning'
  | 'settling'
  | 'changes_per_hour'
  | 'rule_ceiling'
  | 'rule_floor'
  | 'minimum';

/** What one planned budget change comes to once the rule's bounds and the folder's ceilings have had their say. */
export interface BudgetDecision {
  objectId: string;
  level: Extract<ActionLevel, 'adset' | 'campaign'>;
  /** Cents/day now, what the rule asked, what is allowed (= before when nothing is). */
  before: number;
  asked: number;
  allowed: number;
  /** The ceiling that cut the change, when one did; "+20% asked, +8% allowed: 24 h ceiling". */
  cutBy: CeilingName | null;
  /** Human text of the cut, when cut. */
  cutText: string | null;
}
