/**
 * Insight rows carry metrics as strings and leads as overlapping action types. This module is the
 * one reading of them that sync and the rule engine share.
 */
import type { ActionValue, AttributionWindowKey, InsightRow } from './types';

/** On-Facebook (instant form) leads. */
export const ONSITE_LEAD = 'onsite_conversion.lead_grouped';
/** Website (pixel) leads. */
export const WEBSITE_LEAD = 'offsite_conversion.fb_pixel_lead';
/** Website leads as some accounts report them, instead of (never beside) the pixel type. */
export const ONSITE_WEB_LEAD = 'onsite_web_lead';
/** All leads: on-Facebook plus website. */
export const ALL_LEADS = 'lead';

export interface InsightMetrics {
  spend: number;
  impressions: number;
  clicks: number;
  linkClicks: number;
  /** All leads ('lead', or on-Facebook + website when 'lead' is absent). */
  leads: number;
  websiteLeads: number;
  /** Percent, all clicks over impressions; null without impressions. */
  ctr: number | null;
  /** Spend per click (all clicks); null without clicks. */
  cpc: number | null;
  /** Spend per lead; null without leads. */
  cpl: number | null;
  websiteCpl: number | null;
}

const toNumber = (value: string | undefined | null): number => {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
};

/**
 * An action's count: its `value` (Meta's default window), or within `window` when one is named — an
 * action Graph reports without that window's key had none in it.
 */
export function actionValue(
  actions: ActionValue[] | undefined,
  type: string,
  window?: AttributionWindowKey | null,
): number | undefined {
  const found = actions?.find((a) => a.action_type === type);
  if (!found) return undefined;
  return toNumber(window ? found[window] : found.value);
}

/**
 * Website leads: the pixel's count, else `onsite_web_lead` — the same leads under another name
 * (reported equal where both appear), so one of them, never their sum.
 */
export function websiteLeadCount(
  actions: ActionValue[] | undefined,
  window?: AttributionWindowKey | null,
): number | undefined {
  return actionValue(actions, WEBSITE_LEAD, window) ?? actionValue(actions, ONSITE_WEB_LEAD, window);
}

/** `lead` (Meta's total) when present, else on-Facebook plus website leads — never a total and its parts. */
export function leadCount(actions: ActionValue[] | undefined, window?: AttributionWindowKey | null): number {
  return (
    actionValue(actions, ALL_LEADS, window) ??
    (actionValue(actions, ONSITE_LEAD, window) ?? 0) + (websiteLeadCount(actions, window) ?? 0)
  );
}

export function insightMetrics(row: InsightRow | null | undefined): InsightMetrics {
  const spend = toNumber(row?.spend);
  const impressions = toNumber(row?.impressions);
  const clicks = toNumber(row?.clicks);
  const leads = leadCount(row?.actions);
  const websiteLeads = websiteLeadCount(row?.actions) ?? 0;
  return {
    spend,
    impressions,
    clicks,
    linkClicks: toNumber(row?.inline_link_clicks),
    leads,
    websiteLeads,
    ctr: row?.ctr !== undefined ? toNumber(row.ctr) : impressions > 0 ? (clicks / impressions) * 100 : null,
    cpc: row?.cpc !== undefined ? toNumber(row.cpc) : clicks > 0 ? spend / clicks : null,
    cpl: leads > 0 ? spend / leads : null,
    websiteCpl: websiteLeads > 0 ? spend / websiteLeads : null,
  };
}
