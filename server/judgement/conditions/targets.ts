/**
 * The objects a rule's conditions judge (judgeObjects.ts): the ads, ad sets or campaigns its action
 * acts on, within the campaigns its name filters match, each with the ads it holds and the facts its
 * maturity and cool-down are judged on.
 */
import type { RuleAction } from '../../../shared/ruleActions';
import type { Campaign } from '../../adplatform/types';
import type { BudgetObject } from '../budgets/types';
import { isOn } from '../deliveryStatus';
import type { ObjectFacts } from '../lateData';
import type { ObjectMetrics } from '../objectMetrics';

/** What the targets and their facts read of the account's snapshot (judgeObjects.ts's ConditionsView extends it). */
export interface TargetView {
  campaignsById: Map<string, Campaign>;
  metricsOf(adId: string): ObjectMetrics | null;
  factsOf(objectId: string, impressions: number | null): ObjectFacts;
}

/** An ad of the snapshot, as the conditions read it. */
export interface SnapshotAd {
  id: string;
  name: string;
  campaign_id: string;
  adset_id: string;
  status: string;
  effective_status: string;
}

export interface Target {
  type: 'ad' | 'adset' | 'campaign';
  id: string;
  name: string;
  campaignId: string;
  adsetId?: string;
  on: boolean;
  adIds: string[];
  budget?: BudgetObject;
}

/** The objects at the action's level in the campaigns in scope; an ad set or campaign with its ads. */
export function targetsOf(
  action: RuleAction,
  view: TargetView,
  ads: SnapshotAd[],
  inScope: (campaignId: string) => boolean,
  budgets: BudgetObject[] | undefined,
): Target[] {
  const scoped = ads.filter((ad) => inScope(ad.campaign_id));
  if (action.level === 'ad') return scoped.map(adTarget);
  if (action.level === 'campaign') return campaignTargets(view, scoped, inScope, budgets);
  return adsetTargets(view, scoped, inScope, budgets);
}

const adTarget = (ad: SnapshotAd): Target => ({
  type: 'ad',
  id: ad.id,
  name: ad.name,
  campaignId: ad.campaign_id,
  adsetId: ad.adset_id,
  on: isOn(ad),
  adIds: [ad.id],
});

function campaignTargets(
  view: TargetView,
  scoped: SnapshotAd[],
  inScope: (campaignId: string) => boolean,
  budgets: BudgetObject[] | undefined,
): Target[] {
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

/** Ad sets are known by their budgets: an ad set is on when it and its campaign are. */
function adsetTargets(
  view: TargetView,
  scoped: SnapshotAd[],
  inScope: (campaignId: string) => boolean,
  budgets: BudgetObject[] | undefined,
): Target[] {
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

/** The facts a target's maturity and cool-down are judged on, with its impressions. */
export function targetFacts(view: TargetView, target: Target): { facts: ObjectFacts; impressions: number | null } {
  if (target.type !== 'ad') return groupFacts(view, target.adIds);
  const impressions = view.metricsOf(target.id)?.impressions ?? null;
  return { facts: view.factsOf(target.id, impressions), impressions };
}

/** An ad set's or campaign's facts from its ads': the oldest ad's age, every ad's recent spend. */
function groupFacts(view: TargetView, adIds: string[]): { facts: ObjectFacts; impressions: number | null } {
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
