/**
 * Delivery: an ad's metrics at any simulated moment. An ad delivers while it, its ad set and its
 * campaign are all ACTIVE and the campaign is between its start and stop times; its cumulative
 * metrics are a pure, non-decreasing function of those delivering hours. Metrics over a period are
 * the difference of the cumulative metrics at its ends, so every date range adds up.
 */
import type { DeliveryProfile, SimAd, SimAdSet, SimCampaign, StatusEvent } from './world';
import { HOUR } from './naming';

export interface Totals {
  spend: number;
  impressions: number;
  clicks: number;
  linkClicks: number;
  /** Link clicks that leave Facebook for the advertiser's website (those of form ads open the form). */
  outboundClicks: number;
  onsiteLeads: number;
  websiteLeads: number;
}

export const ZERO: Totals = {
  spend: 0,
  impressions: 0,
  clicks: 0,
  linkClicks: 0,
  outboundClicks: 0,
  onsiteLeads: 0,
  websiteLeads: 0,
};

/** Status at a moment: the last event at or before it (an object not yet created has its first status). */
export function statusAt(log: StatusEvent[], at: number): StatusEvent['status'] {
  let status = log[0]!.status;
  for (const event of log) {
    if (event.at <= at) status = event.status;
    else break;
  }
  return status;
}

/** Milliseconds in [from, to) during which every log says ACTIVE, within [start, stop). */
export function deliveringMs(
  logs: StatusEvent[][],
  start: number,
  stop: number | undefined,
  from: number,
  to: number,
): number {
  const lo = Math.max(from, start);
  const hi = Math.min(to, stop ?? Infinity);
  if (hi <= lo) return 0;
  const cuts = [lo, hi, ...logs.flatMap((log) => log.map((e) => e.at)).filter((at) => at > lo && at < hi)].sort(
    (a, b) => a - b,
  );
  let total = 0;
  for (let i = 0; i + 1 < cuts.length; i += 1) {
    const a = cuts[i]!;
    const b = cuts[i + 1]!;
    if (b > a && logs.every((log) => statusAt(log, a) === 'ACTIVE')) total += b - a;
  }
  return total;
}

const cents = (n: number) => Math.round(n * 100) / 100;

/** Cumulative metrics after `hours` of delivery. */
export function totalsAfter(profile: DeliveryProfile, hours: number): Totals {
  const spend = cents(hours * profile.spendPerHour);
  const impressions = Math.floor((spend / profile.cpm) * 1000);
  const clicks = Math.floor((impressions * profile.ctrPct) / 100);
  const linkClicks = Math.floor(clicks * profile.linkShare);
  const outboundClicks = Math.floor(linkClicks * profile.websiteShare);
  let leads = 0;
  if (profile.leads.kind === 'per_spend') leads = Math.floor(spend / profile.leads.cpl);
  else if (profile.leads.kind === 'diminishing') leads = Math.floor(profile.leads.factor * Math.sqrt(spend));
  const websiteLeads = Math.floor(leads * profile.websiteShare);
  return { spend, impressions, clicks, linkClicks, outboundClicks, onsiteLeads: leads - websiteLeads, websiteLeads };
}

export function subtract(a: Totals, b: Totals): Totals {
  return {
    spend: cents(a.spend - b.spend),
    impressions: a.impressions - b.impressions,
    clicks: a.clicks - b.clicks,
    linkClicks: a.linkClicks - b.linkClicks,
    outboundClicks: a.outboundClicks - b.outboundClicks,
    onsiteLeads: a.onsiteLeads - b.onsiteLeads,
    websiteLeads: a.websiteLeads - b.websiteLeads,
  };
}

export function add(a: Totals, b: Totals): Totals {
  return {
    spend: cents(a.spend + b.spend),
    impressions: a.impressions + b.impressions,
    clicks: a.clicks + b.clicks,
    linkClicks: a.linkClicks + b.linkClicks,
    outboundClicks: a.outboundClicks + b.outboundClicks,
    onsiteLeads: a.onsiteLeads + b.onsiteLeads,
    websiteLeads: a.websiteLeads + b.websiteLeads,
  };
}

/** An ad's metrics over [from, to). */
export function adTotals(ad: SimAd, adset: SimAdSet, campaign: SimCampaign, from: number, to: number): Totals {
  const logs = [ad.statusLog, adset.statusLog, campaign.statusLog];
  const before = deliveringMs(logs, campaign.startTime, campaign.stopTime, -Infinity, from) / HOUR;
  const until = deliveringMs(logs, campaign.startTime, campaign.stopTime, -Infinity, to) / HOUR;
  return subtract(totalsAfter(ad.profile, until), totalsAfter(ad.profile, before));
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
