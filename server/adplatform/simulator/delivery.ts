/**
 * Delivery: an ad's metrics at any simulated moment. An ad delivers while it, its ad set and its
 * campaign are all ACTIVE and the campaign is between its start and stop times. Its spend runs at
 * its profile's rate times the budget ratio of each moment (the budget that governs it now over the
 * one it was created with), so its delivery is a list of pieces (schedule.ts) and its cumulative
 * metrics a pure, non-decreasing function of the "effective hours" delivered by a moment (hours ×
 * ratio). Leads are the floor of a cumulative lead mass, which each piece adds to at its own lead
 * factor (dearer leads at a higher budget, and while an ad set relearns after a budget change).
 * Metrics over a period are the difference of the cumulative metrics at its ends, so every date
 * range adds up.
 */
import type { SimAd, SimAdSet, SimCampaign } from './world';
import { adPieces } from './learning';

export * from './pieces';
import { subtract, totalsBy, type Totals } from './pieces';

/** An ad's metrics over [from, to) as delivered (not as reported: reporting.ts). */
export function adTotals(ad: SimAd, adset: SimAdSet, campaign: SimCampaign, from: number, to: number): Totals {
  const pieces = adPieces(ad, adset, campaign);
  return subtract(totalsBy(ad.profile, pieces, to), totalsBy(ad.profile, pieces, from));
}

/**
 * Unique people reached: fewer than impressions, the more so the more impressions there are
 * (frequency grows from 1 towards 2). Not additive over ads or periods, as on Graph.
 */
export function reachOf(impressions: number): number {
  if (impressions <= 0) return 0;
  return Math.max(1, Math.round(impressions / (1 + impressions / (impressions + 40_000))));
}

/** People who clicked: fewer than the clicks, the more so the more clicks there are (never more than reached). */
export function uniqueClickersOf(clicks: number, reach: number): number {
  if (clicks <= 0) return 0;
  return Math.min(reach, Math.max(1, Math.round(clicks / (1 + clicks / (clicks + 400)))));
}

/** The Graph API's string metrics and action lists (AdsInsights fields) for some totals. */
export function graphMetrics(t: Totals): Record<string, unknown> {
  const leads = t.onsiteLeads + t.websiteLeads;
  const actions: { action_type: string; value: string }[] = [];
  if (t.linkClicks > 0) actions.push({ action_type: 'link_click', value: String(t.linkClicks) });
  if (leads > 0) actions.push({ action_type: 'lead', value: String(leads) });
  if (t.onsiteLeads > 0) actions.push({ action_type: 'onsite_conversion.lead_grouped', value: String(t.onsiteLeads) });
  if (t.websiteLeads > 0)
    actions.push({ action_type: 'offsite_conversion.fb_pixel_lead', value: String(t.websiteLeads) });
  const costPer = actions.map((a) => ({ action_type: a.action_type, value: (t.spend / Number(a.value)).toFixed(6) }));
  const reach = reachOf(t.impressions);
  const ratio = (numerator: number, denominator: number, scale = 1) =>
    denominator > 0 ? ((numerator / denominator) * scale).toFixed(6) : undefined;
  const uniqueClicks = uniqueClickersOf(t.clicks, reach);
  const uniqueLinkClicks = uniqueClickersOf(t.linkClicks, reach);
  const outbound = (value: string | undefined) =>
    t.outboundClicks > 0 && value !== undefined ? [{ action_type: 'outbound_click', value }] : undefined;
  return {
    spend: t.spend.toFixed(2),
    impressions: String(t.impressions),
    reach: String(reach),
    frequency: ratio(t.impressions, reach),
    clicks: String(t.clicks),
    inline_link_clicks: String(t.linkClicks),
    ctr: ratio(t.clicks, t.impressions, 100) ?? '0',
    inline_link_click_ctr: ratio(t.linkClicks, t.impressions, 100),
    cpc: ratio(t.spend, t.clicks),
    cost_per_inline_link_click: ratio(t.spend, t.linkClicks),
    cpm: ratio(t.spend, t.impressions, 1000),
    cpp: ratio(t.spend, reach, 1000),
    unique_clicks: String(uniqueClicks),
    unique_ctr: ratio(uniqueClicks, reach, 100) ?? '0',
    cost_per_unique_click: ratio(t.spend, uniqueClicks),
    unique_inline_link_clicks: String(uniqueLinkClicks),
    cost_per_unique_inline_link_click: ratio(t.spend, uniqueLinkClicks),
    outbound_clicks: outbound(String(t.outboundClicks)),
    outbound_clicks_ctr: outbound(ratio(t.outboundClicks, t.impressions, 100)),
    cost_per_outbound_click: outbound(ratio(t.spend, t.outboundClicks)),
    ...(actions.length ? { actions, cost_per_action_type: costPer } : {}),
  };
}
