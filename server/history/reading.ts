/**
 * One ad's numbers at one reading, as integers (money in cents), and back to the insight row the
 * rule evaluator reads: history stores what the platform said, and a backtest hands the evaluator
 * the same row shape a live run gets.
 */
import { ALL_LEADS, leadCount, WEBSITE_LEAD, websiteLeadCount } from '../adplatform/insightValues';
import type { InsightRow } from '../adplatform/types';
import { numberOrNull, type ObjectMetrics } from '../judgement/objectMetrics';

/** HISTORY_DAYS' default: 30-day backtests plus the days before their first hour. */
export const DEFAULT_HISTORY_DAYS = 35;

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The metrics kept per reading, in the order of the table's array columns. */
export const METRICS = ['spendCents', 'impressions', 'clicks', 'linkClicks', 'leads', 'websiteLeads'] as const;
export type MetricName = (typeof METRICS)[number];

/** null: the platform did not report the metric at that reading. */
export type AdNumbers = Record<MetricName, number | null>;

const whole = (value: unknown): number | null => {
  const n = numberOrNull(value);
  return n === null ? null : Math.round(n);
};

export function numbersOf(row: InsightRow): AdNumbers {
  const spend = numberOrNull(row.spend);
  return {
    spendCents: spend === null ? null : Math.round(spend * 100),
    impressions: whole(row.impressions),
    clicks: whole(row.clicks),
    // Graph leaves out what it has nothing to report: no link clicks or leads is 0, as the evaluator reads it.
    linkClicks: whole(row.inline_link_clicks) ?? 0,
    leads: leadCount(row.actions),
    websiteLeads: websiteLeadCount(row.actions) ?? 0,
  };
}

/** The lifetime insight row of an ad with these numbers (what a live read would have returned). */
export function insightRowOf(
  ids: { adId: string; adName: string; campaignId: string; campaignName: string; optimizationGoal?: string | null },
  n: AdNumbers,
): InsightRow {
  const actions = [];
  if (n.leads) actions.push({ action_type: ALL_LEADS, value: String(n.leads) });
  if (n.websiteLeads) actions.push({ action_type: WEBSITE_LEAD, value: String(n.websiteLeads) });
  const row: InsightRow = {
    campaign_id: ids.campaignId,
    campaign_name: ids.campaignName,
    ad_id: ids.adId,
    ad_name: ids.adName,
    spend: n.spendCents === null ? '' : (n.spendCents / 100).toFixed(2),
    inline_link_clicks: String(n.linkClicks ?? 0),
  };
  if (ids.optimizationGoal) row.optimization_goal = ids.optimizationGoal;
  if (n.impressions !== null) row.impressions = String(n.impressions);
  if (n.clicks !== null) row.clicks = String(n.clicks);
  if (actions.length) row.actions = actions;
  return row;
}

/**
 * The evaluator's metrics of an ad with these numbers: what rowMetrics reads from insightRowOf's
 * row, without making the row (a backtest asks this of every ad at every hour). Spend in whole
 * cents survives toFixed(2) unchanged; with no leads reported the row's website leads are its leads.
 */
export function metricsOfNumbers(n: AdNumbers): ObjectMetrics | null {
  if (n.spendCents === null || n.impressions === null) return null;
  const spend = n.spendCents / 100;
  const { clicks, impressions } = n;
  return {
    spend,
    leads: n.leads || n.websiteLeads || 0,
    websiteLeads: n.websiteLeads || 0,
    linkClicks: n.linkClicks ?? 0,
    clicks,
    impressions,
    ctr: clicks !== null && impressions ? (clicks / impressions) * 100 : null,
    cpc: clicks ? spend / clicks : null,
  };
}

/** UTC day (yyyy-mm-dd) and hour of an instant: where its reading is kept. */
export function bucketOf(at: Date): { day: string; hour: number } {
  return { day: at.toISOString().slice(0, 10), hour: at.getUTCHours() };
}

export const dayStartMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
