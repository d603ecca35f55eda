/**
 * A rule's conditions on each object its action acts on (docs/engine.md, "Conditions and actions"): the ads,
 * ad sets or campaigns of the campaigns its name filters match. Each object is judged as the task
 * cards judge an ad — already off, exempt, cooling down, too early (the rule's maturity: an ad set
 * or campaign is as old as its oldest ad and has its ads' impressions), then its conditions —, and
 * with a lag allowance the cost-per-lead metrics of the object itself leave out the spend of the
 * last L hours, as the lead tasks do. What it concludes: turn-offs for the pipeline's claims, and
 * budget changes asked (plan.ts) for the budget claims (../budgets/claim.ts), each with the values
 * its conditions read. The objects and their facts: targets.ts; the values read: targetValues.ts.
 */
import type { AttributionWindowKey } from '../../adplatform/types';
import { isBudgetAction, type RuleAction } from '../../../shared/ruleActions';
import type { ConditionValueDto } from '../../../shared/budgetChanges';
import type { RuleJudging } from '../../../shared/judging';
import type { RunVerdict } from '../../../shared/contracts';
import type { AdQuality } from '../../outcomes/quality';
import { askedBudget } from '../budgets/plan';
import { coolingDown, tooEarly, type ObjectFacts } from '../lateData';
import type { EngineRule } from '../ruleShape';
import {
  costLine,
  evaluateConditions,
  type ConditionValue,
  type JudgedObject,
  type ValueOf,
} from './evaluateConditions';
import type { ConditionInputs } from './inputs';
import { showUpMetrics, type AdOutcome, type ShowUpMetrics } from './metricValues';
import { targetFacts, targetsOf, type SnapshotAd, type Target, type TargetView } from './targets';
import { indexRows, targetValues, type ValueSources } from './targetValues';

/** What the conditions read of the account's snapshot as the rule sees it (evaluate.ts's SnapshotView fits it). */
export interface ConditionsView extends TargetView {
  judging: RuleJudging;
  now: Date;
  qualityOf(adId: string): AdQuality | undefined;
}

/** The verdict key of a rule's conditions in a run record (beside the task names). */
export const CONDITIONS_TASK = 'conditions';

export interface ConditionReport {
  type: 'ad' | 'adset' | 'campaign';
  id: string;
  name: string;
  campaignId: string;
  verdict: RunVerdict;
  conditions: ConditionValueDto[];
}

/** A budget change a rule asks for, before the folder's ceilings (../budgets/claim.ts) have their say. */
export interface PlannedBudget {
  action: 'raise_budget' | 'lower_budget' | 'restore_budget';
  /** A roll-back: the raise (rule_activity id) it reverses. */
  reverses?: number;
  objectId: string;
  level: 'adset' | 'campaign';
  name: string;
  campaignId: string;
  /** Cents a day: now, and what the rule asks (within its floor and ceiling). */
  before: number;
  asked: number;
  /** The rule's own bound that cut the ask (its floor or ceiling, Meta's minimum), when one did. */
  boundText: string | null;
  conditions: ConditionValueDto[];
  reason: Record<string, string>;
}

export interface SwitchPlan {
  objectId: string;
  level: 'ad' | 'campaign';
  campaignId: string;
  reason: Record<string, string>;
}

export interface ConditionsJudgement {
  objects: ConditionReport[];
  turnOffs: SwitchPlan[];
  /** A turn_on action: paused ads or campaigns whose conditions hold (../pipeline/turnOns.ts). */
  turnOns: SwitchPlan[];
  budgets: PlannedBudget[];
  /** Objects a budget action cannot change, with the reason (a lifetime budget …). */
  refused: { objectId: string; name: string; reason: string }[];
  /** A raising rule: each object's cost on the line it holds to (costLine), for the roll-back. */
  costNow: Map<string, { cost: number | null; spend: number | null }>;
}

type ConditionsRule = { conditions: NonNullable<EngineRule['conditions']>; action: RuleAction };

type CostLine = NonNullable<ReturnType<typeof costLine>>;

/** What judging each target shares. */
interface JudgingContext {
  rule: ConditionsRule;
  view: ConditionsView;
  currency: string;
  exempt: ReadonlySet<string>;
  values: ValueSources;
  /** A raising rule's cost line (costLine), whose cost each object is read at for the roll-back. */
  line: CostLine | null;
}

export function judgeConditions(
  rule: ConditionsRule,
  view: ConditionsView,
  snapshot: { ads: SnapshotAd[]; currency: string },
  inputs: ConditionInputs | undefined,
  options: {
    inScope: (campaignId: string) => boolean;
    exempt: ReadonlySet<string>;
    /** The attribution window leads are counted in (null: Meta's default). */
    attribution: AttributionWindowKey | null;
  },
): ConditionsJudgement {
  const context: JudgingContext = {
    rule,
    view,
    currency: snapshot.currency,
    exempt: options.exempt,
    values: {
      rows: indexRows(inputs),
      actionLevel: rule.action.level,
      adsetOfAd: new Map(snapshot.ads.map((ad) => [ad.id, ad.adset_id])),
      attribution: options.attribution,
    },
    line: rule.action.kind === 'raise_budget' ? costLine(rule.conditions) : null,
  };
  const judgement: ConditionsJudgement = {
    objects: [],
    turnOffs: [],
    turnOns: [],
    budgets: [],
    refused: [],
    costNow: new Map(),
  };
  for (const target of targetsOf(rule.action, view, snapshot.ads, options.inScope, inputs?.budgets))
    judgeTarget(context, target, judgement);
  return judgement;
}

/** The target's report, and, when its conditions hold, what the action makes of it. */
function judgeTarget(context: JudgingContext, target: Target, judgement: ConditionsJudgement): void {
  const report: ConditionReport = {
    type: target.type,
    id: target.id,
    name: target.name,
    campaignId: target.campaignId,
    verdict: 'under_threshold',
    conditions: [],
  };
  judgement.objects.push(report);
  const { facts, impressions } = targetFacts(context.view, target);
  const lookup = targetValues(context.values, target, facts, showUpOf(context.view, target.adIds));
  if (context.line) judgement.costNow.set(target.id, costNow(lookup, context.line, facts));
  const standing = targetStanding(context, target, facts, impressions);
  if (standing) {
    report.verdict = standing;
    return;
  }
  const judged = evaluateConditions(context.rule.conditions, judgedObject(target), lookup, context.currency);
  report.conditions = judged.conditions.map(({ text, shown, result }) => ({ text, shown, result }));
  if (judged.result === null) report.verdict = 'no_data';
  else if (judged.result)
    report.verdict = conclude(context.rule.action, target, report.conditions, reasonOf(judged.conditions), judgement);
}

/** The show-up metrics of the target's ads: what their leads became. */
function showUpOf(view: ConditionsView, adIds: string[]): ShowUpMetrics {
  const outcomes: AdOutcome[] = adIds.flatMap((id) => {
    const quality = view.qualityOf(id);
    const lifetime = view.metricsOf(id);
    return quality ? [{ quality, lifetime: lifetime && { spend: lifetime.spend, leads: lifetime.leads } }] : [];
  });
  return showUpMetrics(outcomes);
}

/** The target's cost on the raising rule's line now, and its settled spend. */
function costNow(lookup: ValueOf, line: CostLine, facts: ObjectFacts): { cost: number | null; spend: number | null } {
  // With no lead (no click …) the cost is unknown; the roll-back then weighs the settled spend alone.
  const spend = lookup('self', 'spend', line.window);
  const settled = spend === null ? null : Math.max(0, spend - (facts.recentSpend ?? 0));
  return { cost: lookup('self', line.metric, line.window), spend: settled };
}

/** Why the target's conditions are not judged (already off, exempt, cooling down, too early …); null when they are. */
function targetStanding(
  { rule, view, exempt }: JudgingContext,
  target: Target,
  facts: ObjectFacts,
  impressions: number | null,
): RunVerdict | null {
  const turningOn = rule.action.kind === 'turn_on';
  if (!turningOn && !target.on) return 'already_off';
  if (turningOn && target.on) return 'under_threshold';
  if (exempt.has(target.id)) return 'exempt';
  if (target.type !== 'adset' && coolingDown(view.judging, facts, view.now)) return 'cooling_down';
  // Turning on judges what an object did before it was off: no maturity to wait for.
  if (!turningOn && tooEarly(view.judging, facts, impressions)) return 'too_early';
  return null;
}

const judgedObject = (target: Target): JudgedObject => ({
  level: target.type,
  id: target.id,
  campaignId: target.campaignId,
  ...(target.adsetId ? { adsetId: target.adsetId } : {}),
});

/** The conditions that held, by their metric's name ("CPL"), with their values shown. */
const reasonOf = (conditions: ConditionValue[]): Record<string, string> =>
  Object.fromEntries(conditions.filter((c) => c.result).map((c) => [c.text.split(' (')[0]!, c.shown]));

/** What the action makes of a target whose conditions hold: a turn-off or turn-on, or a budget asked; its verdict. */
function conclude(
  action: RuleAction,
  target: Target,
  conditions: ConditionValueDto[],
  reason: Record<string, string>,
  judgement: ConditionsJudgement,
): RunVerdict {
  if (isBudgetAction(action.kind)) return planBudget(action, target, conditions, reason, judgement);
  (action.kind === 'turn_off' ? judgement.turnOffs : judgement.turnOns).push({
    objectId: target.id,
    level: target.type === 'campaign' ? 'campaign' : 'ad',
    campaignId: target.campaignId,
    reason: { ...reason, [target.type === 'ad' ? 'Ad' : 'Campaign']: target.name },
  });
  return 'acted';
}

/** The budget the action asks of the target (or why it cannot change it); no budget read: no data. */
function planBudget(
  action: RuleAction,
  target: Target,
  conditions: ConditionValueDto[],
  reason: Record<string, string>,
  judgement: ConditionsJudgement,
): RunVerdict {
  const budget = target.budget;
  if (!budget) return 'no_data';
  const asked = askedBudget(action, budget);
  if ('refused' in asked) {
    judgement.refused.push({ objectId: target.id, name: target.name, reason: asked.refused });
    return 'under_threshold';
  }
  judgement.budgets.push({
    action: action.kind as 'raise_budget' | 'lower_budget',
    objectId: target.id,
    level: target.type as PlannedBudget['level'],
    name: target.name,
    campaignId: target.campaignId,
    before: budget.dailyBudget!,
    asked: asked.asked,
    boundText: asked.boundText ?? null,
    conditions,
    reason,
  });
  return 'acted';
}
