/**
 * Adding insight rows read in parts back together. When a period is read in two halves, an ad's
 * row for the whole period is the sum of its two rows: counts and spend add, actions add per
 * action type, and the ratios (ctr, cpc, cost per action) are worked out again from the sums.
 * Rows of different objects, days or hours stay apart.
 */
import type { ActionValue, InsightRow } from './types';

const COUNTS = ['spend', 'impressions', 'clicks', 'inline_link_clicks'] as const;
const KEYS = [
  'account_id',
  'campaign_id',
  'adset_id',
  'ad_id',
  'hourly_stats_aggregated_by_advertiser_time_zone',
] as const;

const num = (value: string | undefined) => Number(value ?? 0) || 0;
/** Graph writes money with up to two decimals and ratios with more; neither needs float noise. */
const text = (value: number, decimals: number) => String(Number(value.toFixed(decimals)));

function addActions(a: ActionValue[] | undefined, b: ActionValue[] | undefined): ActionValue[] | undefined {
  if (!a && !b) return undefined;
  const sums = new Map<string, number>();
  for (const action of [...(a ?? []), ...(b ?? [])])
    sums.set(action.action_type, (sums.get(action.action_type) ?? 0) + num(action.value));
  return [...sums].map(([action_type, value]) => ({ action_type, value: text(value, 6) }));
}

function addRows(a: InsightRow, b: InsightRow): InsightRow {
  const row: InsightRow = { ...a };
  for (const field of COUNTS)
    if (a[field] !== undefined || b[field] !== undefined) row[field] = text(num(a[field]) + num(b[field]), 2);
  row.actions = addActions(a.actions, b.actions);
  if (row.actions === undefined) delete row.actions;
  const spend = num(row.spend);
  if (a.ctr !== undefined || b.ctr !== undefined)
    row.ctr = text(num(row.impressions) ? (num(row.clicks) / num(row.impressions)) * 100 : 0, 6);
  if (a.cpc !== undefined || b.cpc !== undefined) row.cpc = text(num(row.clicks) ? spend / num(row.clicks) : 0, 6);
  if (a.cost_per_action_type !== undefined || b.cost_per_action_type !== undefined)
    row.cost_per_action_type = (row.actions ?? [])
      .filter((action) => num(action.value) > 0)
      .map((action) => ({ action_type: action.action_type, value: text(spend / num(action.value), 6) }));
  if (a.date_start && b.date_start) row.date_start = a.date_start < b.date_start ? a.date_start : b.date_start;
  if (a.date_stop && b.date_stop) row.date_stop = a.date_stop > b.date_stop ? a.date_stop : b.date_stop;
  return row;
}

/**
 * Rows of consecutive parts of one period merged into rows of the whole period. `perDay`: the rows
 * are per day (time_increment), so a day from each part is its own row and nothing is added.
 */
export function mergeRows(rows: readonly InsightRow[], perDay: boolean): InsightRow[] {
  const merged = new Map<string, InsightRow>();
  for (const row of rows) {
    const key = JSON.stringify([...KEYS.map((k) => row[k] ?? ''), perDay ? row.date_start : '']);
    const seen = merged.get(key);
    merged.set(key, seen ? addRows(seen, row) : row);
  }
  return [...merged.values()];
}
