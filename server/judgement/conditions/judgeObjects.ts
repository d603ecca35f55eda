/**
 * A rule's conditions on each object its action acts on (docs/engine.md, "Conditions and actions"): the ads,
 * ad sets or campaigns of the campaigns its name filters match. Each object is judged as the task
 * cards judge an ad — already off, exempt, cooling down, too early (the rule's maturity: an ad set
 * or campaign is as old as its oldest ad and has its ads' impressions), then its conditions —, and
 * with a lag allowance the cost-per-lead metrics of the object itself leave out the spend of the
 * last L hours, as the lead tasks do. What it concludes: turn-offs for the pipeline's claims, and
 * budget changes asked (plan.ts) for the budget claims (../budgets/claim.ts), each with the values
 * its conditions read.
 */
import type { AttributionWindowKey, InsightRow } from '../../adplatform/types';
import type { ConditionWindow, CompareScope, MetricKey } from '../../../shared/ruleConditions';
import { isBudgetAction, type RuleAction } from '../../../shared/ruleActions';
import type { ConditionValueDto } from '../../../shared/budgetChanges';
import { costLine, evaluateConditions } from './evaluateConditions';
import { metricsOfRow, showUpMetrics, type AdOutcome } from './metricValues';
import { askedBudget } from '../budgets/plan';
import { levelOf, windowKey, type ConditionInputs, type InsightLevel } from './inputs';
import type { BudgetObject } from '../budgets/types';
import type { Campaign } from '../../adplatform/types';
import type { AdQuality } from '../../outcomes/quality';
import type { ObjectMetrics } from '../objectMetrics';
import type { RuleJudging } from '../../../shared/judging';
import { coolingDown, tooEarly, type ObjectFacts } from '../lateData';
import { isOn } from '../deliveryStatus';
import type { RunVerdict } from '../../../shared/contracts';

/** What the conditions read of the account's snapshot as the rule sees it (evaluate.ts's SnapshotView fits it). */
export interface ConditionsView {
  judging: RuleJudging;
  now: Date;
  campaignsById: Map<string, Campaign>;
  metricsOf(adId: string): ObjectMetrics | null;
  qualityOf(adId: string): AdQuality | undefined;
  factsOf(objectId: string, impressions: number | null): ObjectFacts;
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

interface Target {
  type: 'ad' | 'adset' | 'campaign';
  id: string;
  name: string;
  campaignId: string;
  adsetId?: string;
  on: boolean;
  adIds: string[];
  budget?: BudgetObject;
}

const ROW_ID: Record<InsightLevel, keyof InsightRow | null> = {
  ad: 'ad_id',
  adset: 'adset_id',
  campaign: 'campaign_id',
  account: null,
};

/** Rows of each read by object id (the account's single row under ''). */
function indexRows(inputs: ConditionInputs | undefined): Map<string, Map<string, InsightRow>> {
  const index = new Map<string, Map<string, InsightRow>>();
  for (const [key, rows] of Object.entries(inputs?.windowRows ?? {})) {
    const level = key.split(' ')[0] as InsightLevel;
    const idField = ROW_ID[level];
    index.set(key, new Map(rows.map((row) => [idField ? String(row[idField] ?? '') : '', row])));
  }
  return index;
}

function targetsOf(
  action: RuleAction,
  view: ConditionsView,
  ads: { id: string; name: string; campaign_id: string; adset_id: string; status: string; effective_status: string }[],
  inScope: (campaignId: string) => boolean,
  budgets: BudgetObject[] | undefined,
): Target[] {
  const scoped = ads.filter((ad) => inScope(ad.campaign_id));
  if (action.level === 'ad')
    return scoped.map((ad) => ({
      type: 'ad',
      id: ad.id,
      name: ad.name,
      campaignId: ad.campaign_id,
      adsetId: ad.adset_id,
      on: isOn(ad),
      adIds: [ad.id],
    }));
  if (action.level === 'campaign') {
    const byBudget = new Map((budgets ?? []).filter((b) => b.level === 'campaign').map((b) => [b.id, b]));
    return [...view.campaignsById.values()]
      .filter((c) => inScope(c.id))
      .map((c) => ({
        type: 'campaign' as const,
        id: c.id,
        name: c.name,
        campaignId: c.id,
        on: isOn(c),
        adIds: scoped.filter((ad) => ad.campaign_id === c.id).map((ad) => ad.id),
        ...(byBudget.has(c.id) ? { budget: byBudget.get(c.id)! } : {}),
      }));
  }
  return (budgets ?? [])
    .filter((b) => b.level === 'adset' && inScope(b.campaignId))
    .map((b) => ({
      type: 'adset' as const,
      id: b.id,
      name: b.name,
      campaignId: b.campaignId,
      adsetId: b.id,
      on:
        b.status === 'ACTIVE' &&
        b.effectiveStatus === 'ACTIVE' &&
        isOn(view.campaignsById.get(b.campaignId) ?? { status: 'PAUSED', effective_status: 'PAUSED' }),
      adIds: scoped.filter((ad) => ad.adset_id === b.id).map((ad) => ad.id),
      budget: b,
    }));
}

/** An ad set's or campaign's facts from its ads': the oldest ad's age, every ad's recent spend. */
function groupFacts(view: ConditionsView, adIds: string[]): { facts: ObjectFacts; impressions: number | null } {
  const known = adIds
    .map((id) => {
      const metrics = view.metricsOf(id);
      return metrics ? { metrics, facts: view.factsOf(id, metrics.impressions) } : null;
    })
    .filter((p) => p !== null);
  const hours = known.map((p) => p.facts.hoursDelivered).filter((h): h is number => h !== null);
  const recent = known.map((p) => p.facts.recentSpend).filter((s): s is number => s !== null);
  const impressions = known.some((p) => p.metrics.impressions !== null)
    ? known.reduce((n, p) => n + (p.metrics.impressions ?? 0), 0)
    : null;
  return {
    facts: {
      hoursDelivered: hours.length ? Math.max(...hours) : null,
      olderThanHourly: known.some((p) => p.facts.olderThanHourly),
      recentSpend: recent.length ? recent.reduce((a, b) => a + b, 0) : null,
      lastTurnedOnAt: null,
    },
    impressions,
  };
}

const LAGGED_METRICS = new Set<MetricKey>(['cpl', 'cost_per_result']);

export function judgeConditions(
  rule: { conditions: NonNullable<import('../ruleShape').EngineRule['conditions']>; action: RuleAction },
  view: ConditionsView,
  snapshot: {
    ads: {
      id: string;
      name: string;
      campaign_id: string;
      adset_id: string;
      status: string;
      effective_status: string;
    }[];
    currency: string;
  },
  inputs: ConditionInputs | undefined,
  options: {
    inScope: (campaignId: string) => boolean;
    exempt: ReadonlySet<string>;
    /** The attribution window leads are counted in (null: Meta's default). */
    attribution: AttributionWindowKey | null;
  },
): ConditionsJudgement {
  const { attribution } = options;
  const { action, conditions } = rule;
  const rows = indexRows(inputs);
  const judgement: ConditionsJudgement = {
    objects: [],
    turnOffs: [],
    turnOns: [],
    budgets: [],
    refused: [],
    costNow: new Map(),
  };
  const line = action.kind === 'raise_budget' ? costLine(conditions) : null;
  const targets = targetsOf(action, view, snapshot.ads, options.inScope, inputs?.budgets);
  const adsetOfAd = new Map(snapshot.ads.map((ad) => [ad.id, ad.adset_id]));

  for (const target of targets) {
    const report: ConditionReport = {
      type: target.type,
      id: target.id,
      name: target.name,
      campaignId: target.campaignId,
      verdict: 'under_threshold',
      conditions: [],
    };
    judgement.objects.push(report);
    const { facts, impressions } =
      target.type === 'ad'
        ? (() => {
            const m = view.metricsOf(target.id);
            return { facts: view.factsOf(target.id, m?.impressions ?? null), impressions: m?.impressions ?? null };
          })()
        : groupFacts(view, target.adIds);
    const outcomes: AdOutcome[] = target.adIds.flatMap((id) => {
      const quality = view.qualityOf(id);
      const lifetime = view.metricsOf(id);
      return quality ? [{ quality, lifetime: lifetime && { spend: lifetime.spend, leads: lifetime.leads } }] : [];
    });
    const showUp = showUpMetrics(outcomes);
    const idFor = (scope: CompareScope): string => {
      if (scope === 'self') return target.id;
      if (scope === 'campaign') return target.campaignId;
      if (scope === 'adset') return target.adsetId ?? adsetOfAd.get(target.adIds[0] ?? '') ?? '';
      return '';
    };
    const lookup = (scope: CompareScope, metric: MetricKey, window: ConditionWindow): number | null => {
      if (metric in showUp) return scope === 'self' ? showUp[metric as keyof typeof showUp] : null;
      const level = levelOf(scope, action.level);
      const row = rows.get(windowKey(level, window))?.get(idFor(scope));
      const metrics = metricsOfRow(row, attribution);
      const value = metrics[metric] ?? null;
      if (scope !== 'self' || !LAGGED_METRICS.has(metric) || facts.recentSpend === null || !row) return value;
      // The lag allowance: leads of the recent spend may still come, so it is left out.
      const settled = (metrics.spend ?? 0) - facts.recentSpend;
      const leads = metric === 'cpl' ? metrics.leads : metrics.results;
      if (!leads || settled <= 0) return null;
      return settled / leads;
    };
    if (line) {
      // With no lead (no click …) the cost is unknown; the roll-back then weighs the settled spend alone.
      const spend = lookup('self', 'spend', line.window);
      const settled = spend === null ? null : Math.max(0, spend - (facts.recentSpend ?? 0));
      judgement.costNow.set(target.id, { cost: lookup('self', line.metric, line.window), spend: settled });
    }
    const turningOn = action.kind === 'turn_on';
    if (!turningOn && !target.on) {
      report.verdict = 'already_off';
      continue;
    }
    if (turningOn && target.on) {
      report.verdict = 'under_threshold';
      continue;
    }
    if (options.exempt.has(target.id)) {
      report.verdict = 'exempt';
      continue;
    }
    if (target.type !== 'adset' && coolingDown(view.judging, facts, view.now)) {
      report.verdict = 'cooling_down';
      continue;
    }
    // Turning on judges what an object did before it was off: no maturity to wait for.
    if (!turningOn && tooEarly(view.judging, facts, impressions)) {
      report.verdict = 'too_early';
      continue;
    }
    const judged = evaluateConditions(
      conditions,
      {
        level: target.type,
        id: target.id,
        campaignId: target.campaignId,
        ...(target.adsetId ? { adsetId: target.adsetId } : {}),
      },
      lookup,
      snapshot.currency,
    );
    const values = judged.conditions.map(({ text, shown, result }) => ({ text, shown, result }));
    report.conditions = values;
    if (judged.result === null) {
      report.verdict = 'no_data';
      continue;
    }
    if (!judged.result) continue;

    const reason = Object.fromEntries(
      judged.conditions.filter((c) => c.result).map((c) => [c.text.split(' (')[0]!, c.shown]),
    );
    if (!isBudgetAction(action.kind)) {
      report.verdict = 'acted';
      (action.kind === 'turn_off' ? judgement.turnOffs : judgement.turnOns).push({
        objectId: target.id,
        level: target.type === 'campaign' ? 'campaign' : 'ad',
        campaignId: target.campaignId,
        reason: { ...reason, [target.type === 'ad' ? 'Ad' : 'Campaign']: target.name },
      });
      continue;
    }
    const budget = target.budget;
    if (!budget) {
      report.verdict = 'no_data';
      continue;
    }
    const asked = askedBudget(action, budget);
    if ('refused' in asked) {
      report.verdict = 'under_threshold';
      judgement.refused.push({ objectId: target.id, name: target.name, reason: asked.refused });
      continue;
    }
    report.verdict = 'acted';
    judgement.budgets.push({
      action: action.kind as 'raise_budget' | 'lower_budget',
      objectId: target.id,
      level: target.type as PlannedBudget['level'],
      name: target.name,
      campaignId: target.campaignId,
      before: budget.dailyBudget!,
      asked: asked.asked,
      boundText: asked.boundText ?? null,
      conditions: values,
      reason,
    });
  }
  return judgement;
}
