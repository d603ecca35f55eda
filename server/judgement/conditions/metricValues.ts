/**
 * The numbers a rule's conditions compare (shared/ruleConditions.ts): every metric of the
 * catalogue for one object over one window, from Graph's insight row of that window and, for the
 * show-up metrics, from what the object's leads became (AdQuality, lifetime only).
 *
 * Unknown is null, never 0: no row, or a row without a usable spend or impressions, is "no data"
 * for every metric (objectMetrics.ts reads rows the same way); a cost over nothing bought (CPL with
 * no lead) is unknown too. Leads are insightValues.ts's count, within the rule's attribution window.
 */
import { leadCount, websiteLeadCount } from '../../adplatform/insightValues';
import type { AttributionWindowKey, InsightRow } from '../../adplatform/types';
import type { AdQuality } from '../../outcomes/quality';
import { METRIC_KEYS, type MetricKey } from '../../../shared/ruleConditions';
import { numberOrNull } from '../objectMetrics';

export type WindowMetrics = Record<MetricKey, number | null>;

const SHOW_UP_KEYS = ['registrations', 'attendees', 'show_up_rate', 'cost_per_attendee'] as const;
export type ShowUpMetrics = Pick<WindowMetrics, (typeof SHOW_UP_KEYS)[number]>;

/** The goal of ad sets buying website (pixel) leads: their results are those leads. */
const WEBSITE_LEADS_GOAL = 'OFFSITE_CONVERSIONS';

/** Every metric unknown: the object has no data in the window. */
export const NO_DATA: WindowMetrics = Object.freeze(
  Object.fromEntries(METRIC_KEYS.map((key) => [key, null])) as WindowMetrics,
);

const ratio = (numerator: number | null, denominator: number | null, scale = 1) =>
  numerator !== null && denominator ? (numerator / denominator) * scale : null;

/**
 * One row's metrics, leads counted within `window` when one is named (else Meta's default). Graph's
 * own ctr, cpc, cpm and frequency are taken when the row has them, else worked out from the counts.
 */
export function metricsOfRow(row: InsightRow | null | undefined, window?: AttributionWindowKey | null): WindowMetrics {
  if (!row) return NO_DATA;
  const spend = numberOrNull(row.spend);
  const impressions = numberOrNull(row.impressions);
  if (spend === null || impressions === null) return NO_DATA;
  const reach = numberOrNull(row.reach);
  const clicks = numberOrNull(row.clicks);
  const leads = leadCount(row.actions, window);
  const results = row.optimization_goal === WEBSITE_LEADS_GOAL ? (websiteLeadCount(row.actions, window) ?? 0) : leads;
  return {
    spend,
    impressions,
    reach,
    frequency: numberOrNull(row.frequency) ?? ratio(impressions, reach),
    clicks,
    // Graph leaves inline_link_clicks out when there were none.
    link_clicks: numberOrNull(row.inline_link_clicks) ?? 0,
    ctr: numberOrNull(row.ctr) ?? (clicks !== null ? ratio(clicks, impressions, 100) : null),
    cpc: numberOrNull(row.cpc) ?? ratio(spend, clicks),
    cpm: numberOrNull(row.cpm) ?? ratio(spend, impressions, 1000),
    leads,
    cpl: ratio(spend, leads),
    results,
    cost_per_result: ratio(spend, results),
    registrations: null,
    attendees: null,
    show_up_rate: null,
    cost_per_attendee: null,
  };
}

/**
 * Totals of several objects' metrics (a campaign from its ads' rows): the counts and spend add up,
 * the rates are worked out again; reach and frequency stay unknown, people reached by two ads being
 * one person. Unknown when no object has data.
 */
export function sumMetrics(items: readonly WindowMetrics[]): WindowMetrics {
  const known = items.filter((m) => m.spend !== null);
  if (!known.length) return NO_DATA;
  const sum = (key: MetricKey) =>
    known.some((m) => m[key] !== null) ? known.reduce((total, m) => total + (m[key] ?? 0), 0) : null;
  const spend = sum('spend');
  const impressions = sum('impressions');
  const clicks = sum('clicks');
  const leads = sum('leads');
  const results = sum('results');
  return {
    spend,
    impressions,
    reach: null,
    frequency: null,
    clicks,
    link_clicks: sum('link_clicks'),
    ctr: ratio(clicks, impressions, 100),
    cpc: ratio(spend, clicks),
    cpm: ratio(spend, impressions, 1000),
    leads,
    cpl: ratio(spend, leads),
    results,
    cost_per_result: ratio(spend, results),
    registrations: null,
    attendees: null,
    show_up_rate: null,
    cost_per_attendee: null,
  };
}

/** An ad's quality, with its lifetime spend and leads when read (the cost of its settled registrations). */
export interface AdOutcome {
  quality: AdQuality;
  lifetime?: Pick<WindowMetrics, 'spend' | 'leads'> | null;
}

/**
 * The spend that bought the settled registrations: the store's figure, else what that many leads
 * cost at the ad's lifetime CPL (outcomeTasks.ts reads it the same way); null when neither is known.
 */
function spendOfSettled({ quality, lifetime }: AdOutcome): number | null {
  if (quality.settledSpend !== null) return quality.settledSpend;
  const spend = lifetime?.spend ?? null;
  const leads = lifetime?.leads ?? null;
  if (spend === null) return null;
  return leads ? Math.min(spend, (spend / leads) * quality.settledRegistrations) : spend;
}

/**
 * The show-up metrics (lifetime) of an ad, or of an ad set or campaign from its ads' outcomes: all
 * unknown when no outcome store knows any of them; a rate or cost over nothing settled is unknown.
 */
export function showUpMetrics(ads: readonly AdOutcome[]): ShowUpMetrics {
  if (!ads.length) return { registrations: null, attendees: null, show_up_rate: null, cost_per_attendee: null };
  let registrations = 0;
  let settled = 0;
  let attendees = 0;
  let settledSpend: number | null = 0;
  for (const ad of ads) {
    registrations += ad.quality.registrations;
    settled += ad.quality.settledRegistrations;
    attendees += ad.quality.attendees;
    const spend = spendOfSettled(ad);
    settledSpend = settledSpend === null || spend === null ? null : settledSpend + spend;
  }
  return {
    registrations,
    attendees,
    show_up_rate: ratio(attendees, settled, 100),
    cost_per_attendee: ratio(settledSpend, attendees),
  };
}

/** Lifetime metrics with the show-up metrics filled in. */
export const withShowUp = (metrics: WindowMetrics, showUp: ShowUpMetrics): WindowMetrics => ({
  ...metrics,
  ...showUp,
});
