/**
 * A budget rule's changes in a backtest: the daily budgets the replay's hours start from, and what
 * each hour's planned changes (the engine's evaluate(), its roll-backs) come to once the folder's
 * ceilings (the engine's pure applyCeilings) have had their say against the history of the rule's
 * own simulated changes — as claim.ts decides them in a live run, one change per object and hour.
 * A run adding more than the folder's daily increase limit (with the rule's raises of the last 24
 * hours) would have been held for approval: its changes are listed as held and not made.
 *
 * The metric history does not keep ad sets' or campaigns' budgets: the replay starts from the
 * budgets as they are now, changed only by this rule (other rules' and people's changes unseen).
 * Whether Meta had an ad set learning then is not known either: the learning ceiling is not
 * applied; the settling hours after the rule's own significant changes are.
 */
import type { BudgetLimits } from '../../shared/budgetLimits';
import type { ConditionValueDto } from '../../shared/budgetChanges';
import type { RuleAction } from '../../shared/ruleActions';
import { rollbackHoursOf } from '../../shared/ruleActions';
import type { ConditionGroup } from '../../shared/ruleConditions';
import { metricSpec } from '../../shared/ruleConditions';
import { applyCeilings } from '../judgement/budgets/ceilings';
import type { BudgetChangeRecord, BudgetObject, CeilingName } from '../judgement/budgets/types';
import { costLine } from '../judgement/conditions/evaluateConditions';
import type { PlannedBudget } from '../judgement/conditions/judgeObjects';
import { money } from '../judgement/format';
import { HOUR_MS } from '../history/reading';

const HISTORY_MS = 7 * 24 * HOUR_MS;

/** One budget change the rule would have made (cents a day). */
export interface ReplayBudgetChange {
  atMs: number;
  action: PlannedBudget['action'];
  objectId: string;
  level: 'adset' | 'campaign';
  name: string;
  campaignId: string;
  before: number;
  asked: number;
  allowed: number;
  /** The ceiling (or the rule's own bound) that cut it, and its text; null when none did. */
  cutBy: CeilingName | null;
  cut: string | null;
  /** The run would have been held for approval (the folder's daily increase limit): not made. */
  held: boolean;
  conditions: ConditionValueDto[];
  reason: Record<string, string>;
}

/** The rule's own bound named in a plan's bound text (plan.ts words it so). */
function boundOf(text: string | null): CeilingName | null {
  if (!text) return null;
  if (text.includes("the rule's ceiling")) return 'rule_ceiling';
  if (text.includes("the rule's floor")) return 'rule_floor';
  if (text.includes("Meta's minimum")) return 'minimum';
  return null;
}

export class SimulatedBudgets {
  private readonly budgets: Map<string, BudgetObject>;
  private readonly history = new Map<string, BudgetChangeRecord[]>();
  /** The rule's raises made, for its roll-back (once each). */
  private readonly raises: ReplayBudgetChange[] = [];
  private readonly rolledBack = new Set<ReplayBudgetChange>();
  readonly changes: ReplayBudgetChange[] = [];
  readonly ceilingsMet: Partial<Record<CeilingName, number>> = {};

  constructor(
    now: readonly BudgetObject[],
    private readonly limits: BudgetLimits,
    private readonly action: RuleAction,
    private readonly conditions: ConditionGroup | null | undefined,
    private readonly currency: string,
  ) {
    // Whether Meta had it learning then is unknown: no learning stage from today's read.
    this.budgets = new Map(now.map((b) => [b.id, { ...b, learningStage: null }]));
  }

  /**
   * The budgets as the replay stands at an hour, each on when one of its ads delivers then
   * (`delivering`: ad set ids and campaign ids with an ad on).
   */
  objectsAt(delivering: ReadonlySet<string>): BudgetObject[] {
    return [...this.budgets.values()].map((b) => {
      const status = delivering.has(b.id) ? 'ACTIVE' : 'PAUSED';
      return { ...b, status, effectiveStatus: status };
    });
  }

  /** The roll-backs the rule owes at the hour: its raises within the window whose cost rose past its line. */
  private rollbacks(atMs: number, costNow: ReadonlyMap<string, { cost: number | null; spend: number | null }>) {
    const hours = rollbackHoursOf(this.action);
    const line = costLine(this.conditions);
    if (!hours || !line) return [];
    const plans: (PlannedBudget & { raise: ReplayBudgetChange })[] = [];
    for (const raise of [...this.raises].reverse()) {
      if (this.rolledBack.has(raise) || atMs - raise.atMs > hours * HOUR_MS) continue;
      if (plans.some((p) => p.objectId === raise.objectId)) continue;
      const now = costNow.get(raise.objectId);
      const object = this.budgets.get(raise.objectId);
      if (!now || !object?.dailyBudget || object.dailyBudget <= raise.before) continue;
      const past = now.cost !== null ? now.cost > line.value : now.spend !== null && now.spend > line.value;
      if (!past) continue;
      const label = metricSpec(line.metric)?.label ?? line.metric;
      plans.push({
        raise,
        action: 'restore_budget',
        objectId: raise.objectId,
        level: raise.level,
        name: raise.name,
        campaignId: raise.campaignId,
        before: object.dailyBudget,
        asked: raise.before,
        boundText: null,
        conditions: [],
        reason: {
          'Rolled back': `cost rose past the line within ${hours} h of the raise`,
          [label]:
            now.cost !== null
              ? `${money(now.cost, this.currency)} > ${money(line.value, this.currency)}`
              : `none for ${money(now.spend!, this.currency)} spent, over ${money(line.value, this.currency)}`,
        },
      });
    }
    return plans;
  }

  private met(name: CeilingName | null) {
    if (name) this.ceilingsMet[name] = (this.ceilingsMet[name] ?? 0) + 1;
  }

  /** One hour's planned changes decided, made (unless held) and remembered; answers the hour's changes. */
  apply(
    atMs: number,
    planned: readonly PlannedBudget[],
    costNow: ReadonlyMap<string, { cost: number | null; spend: number | null }> | undefined,
  ): ReplayBudgetChange[] {
    const now = new Date(atMs);
    const plans = [...planned, ...this.rollbacks(atMs, costNow ?? new Map())];
    const hour: ReplayBudgetChange[] = [];
    const rollbackOf = new Map<ReplayBudgetChange, ReplayBudgetChange>();
    for (const plan of plans) {
      // One change per object and run: a later plan finds the budget changed since it was read (claim.ts).
      if (hour.some((c) => c.objectId === plan.objectId)) continue;
      const object = this.budgets.get(plan.objectId);
      if (!object) continue;
      const history = (this.history.get(plan.objectId) ?? []).filter((h) => h.at.getTime() > atMs - HISTORY_MS);
      const decision = applyCeilings({
        object,
        before: plan.before,
        asked: plan.asked,
        history,
        limits: this.limits,
        now,
      });
      this.met(boundOf(plan.boundText));
      this.met(decision.cutBy);
      if (decision.allowed === plan.before) continue;
      const change: ReplayBudgetChange = {
        atMs,
        action: plan.action,
        objectId: plan.objectId,
        level: plan.level,
        name: plan.name,
        campaignId: plan.campaignId,
        before: plan.before,
        asked: plan.asked,
        allowed: decision.allowed,
        cutBy: decision.cutBy ?? boundOf(plan.boundText),
        cut: decision.cutText ?? plan.boundText,
        held: false,
        conditions: plan.conditions,
        reason: plan.reason,
      };
      hour.push(change);
      if ('raise' in plan) rollbackOf.set(change, plan.raise as ReplayBudgetChange);
    }
    const limit = this.limits.daily_increase_limit;
    if (limit !== null) {
      const added = (changes: readonly ReplayBudgetChange[]) =>
        changes.filter((c) => !c.held && c.allowed > c.before).reduce((sum, c) => sum + c.allowed - c.before, 0);
      const lastDay = this.changes.filter((c) => c.atMs > atMs - 24 * HOUR_MS);
      if (added(hour) > 0 && added(hour) + added(lastDay) > Math.round(limit * 100))
        for (const change of hour) change.held = true;
    }
    for (const change of hour) {
      this.changes.push(change);
      if (change.held) continue;
      const object = this.budgets.get(change.objectId)!;
      this.budgets.set(change.objectId, { ...object, dailyBudget: change.allowed });
      const records = this.history.get(change.objectId) ?? [];
      records.push({ objectId: change.objectId, at: now, before: change.before, after: change.allowed, state: 'done' });
      this.history.set(change.objectId, records);
      if (change.action === 'raise_budget') this.raises.push(change);
      const reversed = rollbackOf.get(change);
      if (reversed) this.rolledBack.add(reversed);
    }
    return hour;
  }
}
