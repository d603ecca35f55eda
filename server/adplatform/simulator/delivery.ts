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
import type { DeliveryProfile, SimAd, SimAdSet, SimCampaign, StatusEvent } from './world';
import { HOUR } from './naming';
import { adPieces } from './learning';

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

const cents = (n: number) => Math.round(n * 100) / 100;

/** Cumulative metrics after `hours` of delivery at the profile's own rate and cost per lead. */
export function totalsAfter(profile: DeliveryProfile, hours: number): Totals {
  const spend = cents(hours * profile.spendPerHour);
  const impressions = Math.floor((spend / profile.cpm) * 1000);
  const clicks = Math.floor((impressions * profile.ctrPct) / 100);
  const linkClicks = Math.floor(clicks * profile.linkShare);
  const outboundClicks = Math.floor(linkClicks * profile.websiteShare);
  return withLeads(
    { spend, impressions, clicks, linkClicks, outboundClicks },
    profile,
    Math.floor(leadMass(profile, spend)),
  );
}

function withLeads(t: Omit<Totals, 'onsiteLeads' | 'websiteLeads'>, profile: DeliveryProfile, leads: number): Totals {
  const websiteLeads = Math.floor(leads * profile.websiteShare);
  return { ...t, onsiteLeads: leads - websiteLeads, websiteLeads };
}

/** The leads (not yet floored) a cumulative spend buys at the profile's own cost per lead. */
function leadMass(profile: DeliveryProfile, spend: number): number {
  if (profile.leads.kind === 'per_spend') return spend / profile.leads.cpl;
  if (profile.leads.kind === 'diminishing') return profile.leads.factor * Math.sqrt(spend);
  return 0;
}

/**
 * A stretch [from, to) in which an ad delivers at one pace: `rate` × its profile's spend per hour,
 * each lead costing 1 / `leadFactor` times what the profile says.
 */
export interface DeliveryPiece {
  from: number;
  to: number;
  rate: number;
  leadFactor: number;
}

/** Effective hours (hours × rate) delivered before `at`. */
export function effectiveHoursBy(pieces: readonly DeliveryPiece[], at: number): number {
  let ms = 0;
  for (const { from, to, rate } of pieces) {
    if (from >= at) break;
    ms += (Math.min(to, at) - from) * rate;
  }
  return ms / HOUR;
}

/** The first moment `hours` effective hours have been delivered (the end of the last piece if never). */
export function momentOfEffective(pieces: readonly DeliveryPiece[], hours: number): number {
  let left = hours * HOUR;
  for (const { from, to, rate } of pieces) {
    if ((to - from) * rate >= left) return from + left / rate;
    left -= (to - from) * rate;
  }
  return pieces.at(-1)?.to ?? Infinity;
}

/**
 * Cumulative metrics once `hours` effective hours are delivered: spend and what it buys as
 * totalsAfter says, leads the floor of the lead mass each piece added at its lead factor.
 */
export function totalsAtEffective(profile: DeliveryProfile, pieces: readonly DeliveryPiece[], hours: number): Totals {
  const plain = totalsAfter(profile, hours);
  if (pieces.every((piece) => piece.leadFactor === 1)) return plain;
  const spendAt = (h: number) => cents(h * profile.spendPerHour);
  let mass = leadMass(profile, plain.spend);
  let ms = 0;
  for (const { from, to, rate, leadFactor } of pieces) {
    const a = ms / HOUR;
    if (a >= hours) break;
    ms += (to - from) * rate;
    if (leadFactor === 1) continue;
    const b = Math.min(ms / HOUR, hours);
    mass += (leadFactor - 1) * (leadMass(profile, spendAt(b)) - leadMass(profile, spendAt(a)));
  }
  return withLeads(plain, profile, Math.max(0, Math.floor(mass)));
}

/** Cumulative metrics by moment `at` of an ad delivering in these pieces. */
export function totalsBy(profile: DeliveryProfile, pieces: readonly DeliveryPiece[], at: number): Totals {
  return totalsAtEffective(profile, pieces, effectiveHoursBy(pieces, at));
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
