/**
 * The arithmetic of delivery (delivery.ts): cumulative totals of a profile over its pieces of
 * delivery — each piece a stretch at one budget ratio and lead factor — at any moment, and the
 * status in force at a moment. Below delivery, learning and schedule, which all build on it.
 */
import type { DeliveryProfile, StatusEvent } from './world';
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
