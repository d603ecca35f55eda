/**
 * The values a target's conditions read (judgeObjects.ts): each metric of the object itself or what
 * it belongs to, over a window, from the insight rows read for the rule; the show-up metrics from
 * what its ads' leads became. With a lag allowance the object's own cost per lead leaves out the
 * spend of the last hours, whose leads may still come.
 */
import type { AttributionWindowKey, InsightRow } from '../../adplatform/types';
import type { ActionLevel } from '../../../shared/ruleActions';
import type { ConditionWindow, CompareScope, MetricKey } from '../../../shared/ruleConditions';
import type { ObjectFacts } from '../lateData';
import type { ValueOf } from './evaluateConditions';
import { levelOf, windowKey, type ConditionInputs, type InsightLevel } from './inputs';
import { metricsOfRow, type ShowUpMetrics } from './metricValues';
import type { Target } from './targets';

/** Rows of each read (`${level} ${window}`) by object id (the account's single row under ''). */
export type RowsByRead = Map<string, Map<string, InsightRow>>;

const ROW_ID: Record<InsightLevel, keyof InsightRow | null> = {
  ad: 'ad_id',
  adset: 'adset_id',
  campaign: 'campaign_id',
  account: null,
};

export function indexRows(inputs: ConditionInputs | undefined): RowsByRead {
  const index: RowsByRead = new Map();
  for (const [key, rows] of Object.entries(inputs?.windowRows ?? {})) {
    const level = key.split(' ')[0] as InsightLevel;
    const idField = ROW_ID[level];
    index.set(key, new Map(rows.map((row) => [idField ? String(row[idField] ?? '') : '', row])));
  }
  return index;
}

/** What every target's values are read from: the rule's rows, and the facts of the whole snapshot. */
export interface ValueSources {
  rows: RowsByRead;
  actionLevel: ActionLevel;
  adsetOfAd: Map<string, string>;
  /** The attribution window leads are counted in (null: Meta's default). */
  attribution: AttributionWindowKey | null;
}

const LAGGED_METRICS = new Set<MetricKey>(['cpl', 'cost_per_result']);

/** The id of the object a scope names for the target ('' for the account). */
function idFor(target: Target, scope: CompareScope, adsetOfAd: Map<string, string>): string {
  if (scope === 'self') return target.id;
  if (scope === 'campaign') return target.campaignId;
  if (scope === 'adset') return target.adsetId ?? adsetOfAd.get(target.adIds[0] ?? '') ?? '';
  return '';
}

/** The target's values, as evaluateConditions reads them. */
export function targetValues(
  sources: ValueSources,
  target: Target,
  facts: ObjectFacts,
  showUp: ShowUpMetrics,
): ValueOf {
  return (scope: CompareScope, metric: MetricKey, window: ConditionWindow): number | null => {
    if (metric in showUp) return scope === 'self' ? showUp[metric as keyof typeof showUp] : null;
    const level = levelOf(scope, sources.actionLevel);
    const row = sources.rows.get(windowKey(level, window))?.get(idFor(target, scope, sources.adsetOfAd));
    const metrics = metricsOfRow(row, sources.attribution);
    const value = metrics[metric] ?? null;
    if (scope !== 'self' || !LAGGED_METRICS.has(metric) || facts.recentSpend === null || !row) return value;
    // The lag allowance: leads of the recent spend may still come, so it is left out.
    const settled = (metrics.spend ?? 0) - facts.recentSpend;
    const leads = metric === 'cpl' ? metrics.leads : metrics.results;
    if (!leads || settled <= 0) return null;
    return settled / leads;
  };
}
