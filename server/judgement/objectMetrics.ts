/**
 * Graph insight rows (metric values are strings) → numbers the evaluator compares.
 *
 * Which action type counts as a lead is server/adplatform/insightValues.ts's reading, shared with the
 * campaign sync: `lead` (Meta's all-leads total) when the row has it, otherwise instant-form plus
 * website leads — counting 0 leads for an ad with form leads would let the "no leads" tasks turn a
 * converting ad off. Website leads are `offsite_conversion.fb_pixel_lead` only.
 *
 * Graph leaves out what it has nothing to report: `actions` when there are none (→ 0 leads),
 * `inline_link_clicks` when there were no link clicks (→ 0), `cpc` when there were no clicks
 * (→ unknown, so no CPC task acts). A row without a usable `spend` or `impressions` is not judged at
 * all ("no data") — unlike the sync's reading, which shows it as $0.
 */
import { leadCount, websiteLeadCount } from '../adplatform/insightValues';
import type { AttributionWindowKey, InsightRow } from '../adplatform/types';

export interface ObjectMetrics {
  spend: number;
  leads: number;
  websiteLeads: number;
  linkClicks: number;
  /** All clicks (what Graph's ctr and cpc are computed from); null when not reported. */
  clicks: number | null;
  impressions: number | null;
  /** Percent (Graph sends "1.25" for 1.25 %); null when it cannot be known. */
  ctr: number | null;
  /** Cost per click; null when there were no clicks. */
  cpc: number | null;
}

/** A number from a decimal string (Graph metrics, rule thresholds) or a number; null for anything else, blank included. */
export function numberOrNull(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * Metrics of one insight row, its leads counted within `window` when one is named (else Meta's
 * default); null when the row lacks spend or impressions: missing data is unknown, never zero, so
 * nothing is judged on it ("no data").
 */
export function rowMetrics(row: InsightRow, window?: AttributionWindowKey | null): ObjectMetrics | null {
  const spend = numberOrNull(row.spend);
  const impressions = numberOrNull(row.impressions);
  if (spend === null || impressions === null) return null;
  const clicks = numberOrNull(row.clicks);
  const ctr = numberOrNull(row.ctr) ?? (clicks !== null && impressions ? (clicks / impressions) * 100 : null);
  const cpc = numberOrNull(row.cpc) ?? (clicks ? spend / clicks : null);
  return {
    spend,
    leads: leadCount(row.actions, window),
    websiteLeads: websiteLeadCount(row.actions, window) ?? 0,
    linkClicks: numberOrNull(row.inline_link_clicks) ?? 0,
    clicks,
    impressions,
    ctr,
    cpc,
  };
}

/** Campaign totals from its ads' rows (one ad-level fetch serves both levels). */
export function sumMetrics(items: ObjectMetrics[]): ObjectMetrics {
  const sum = (pick: (m: ObjectMetrics) => number | null) =>
    items.some((m) => pick(m) !== null) ? items.reduce((total, m) => total + (pick(m) ?? 0), 0) : null;
  const spend = sum((m) => m.spend) ?? 0;
  const clicks = sum((m) => m.clicks);
  const impressions = sum((m) => m.impressions);
  return {
    spend,
    leads: sum((m) => m.leads) ?? 0,
    websiteLeads: sum((m) => m.websiteLeads) ?? 0,
    linkClicks: sum((m) => m.linkClicks) ?? 0,
    clicks,
    impressions,
    ctr: clicks !== null && impressions ? (clicks / impressions) * 100 : null,
    cpc: clicks ? spend / clicks : null,
  };
}
