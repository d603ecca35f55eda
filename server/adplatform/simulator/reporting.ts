/**
 * What Graph reports about an ad at a moment, as opposed to what happened (delivery.ts).
 *
 * - Settled truth: what its metrics over a period will be once everything has arrived — all of the
 *   delivery, and every lead that happened while the account's tracking worked.
 * - Reported: the settled truth less what has not arrived yet. A lead shows once its lag (lag.ts)
 *   has passed, credited to the hour it happened; delivery metrics of the last days show the share
 *   their day has settled to, hour by hour.
 *
 * Everything that happened before `finalBefore` (72 hours ago, on the hour) is final, so it is the
 * plain difference of cumulative metrics; only the hours after it are looked at one by one. Every
 * period is cut on the same hour grid, so hours add up to their day and days to the lifetime.
 */
import { DateTime } from 'luxon';
import {
  add,
  effectiveHoursBy,
  momentOfEffective,
  subtract,
  totalsAtEffective,
  ZERO,
  type DeliveryPiece,
  type Totals,
} from './delivery';
import { cumulativeTotals } from './cumulativeMemo';
import { adPieces } from './learning';
import { LAG_PROFILES, leadLag, LONGEST_LAG_MS, settledShare, type LagProfile } from './lag';
import { HOUR } from './naming';
import type { SimAccount, SimAd, World } from './world';

/** The moment a report is made, in one account's time zone. */
export interface ReportFrame {
  now: number;
  /** Start of the hour before which everything is final. */
  finalBefore: number;
  /** The settled share of delivery metrics of the account-zone day holding `at`. */
  share(at: number): number;
  /** Each ad's delivery schedule, worked out once per report. */
  schedules: Map<string, Schedule>;
}

/** Called for each lead a report counts: its number among the ad's leads and whether it came from the website. */
export type LeadVisitor = (k: number, website: boolean) => void;

export const floorHour = (ms: number) => Math.floor(ms / HOUR) * HOUR;

export function reportFrame(now: number, timezone: string): ReportFrame {
  const finalBefore = floorHour(now - LONGEST_LAG_MS);
  // Midnights from the day holding finalBefore to the one after now, in the account's zone.
  const midnights: number[] = [];
  let day = DateTime.fromMillis(finalBefore, { zone: timezone }).startOf('day');
  while (day.toMillis() <= now) {
    day = day.plus({ days: 1 });
    midnights.push(day.toMillis());
  }
  return {
    now,
    finalBefore,
    schedules: new Map(),
    share(at) {
      const dayEnd = midnights.find((midnight) => midnight > at) ?? Infinity;
      return settledShare(now - dayEnd);
    },
  };
}

/** An ad's delivery schedule: the pieces in which it delivers, each at its pace (schedule.ts). */
interface Schedule {
  ad: SimAd;
  account: SimAccount;
  pieces: DeliveryPiece[];
}

function scheduleOf(world: World, ad: SimAd, frame?: ReportFrame): Schedule {
  const known = frame?.schedules.get(ad.id);
  if (known) return known;
  const schedule = buildSchedule(world, ad);
  frame?.schedules.set(ad.id, schedule);
  return schedule;
}

function buildSchedule(world: World, ad: SimAd): Schedule {
  const campaign = world.campaigns.get(ad.campaignId)!;
  const adset = world.adsets.get(ad.adsetId)!;
  return { ad, account: world.account(ad.accountId)!, pieces: adPieces(ad, adset, campaign) };
}

/** Effective hours (hours × budget ratio) the ad has delivered before `at`. */
const hoursBy = (s: Schedule, at: number) => effectiveHoursBy(s.pieces, at);
const totalsAt = (s: Schedule, hours: number) => totalsAtEffective(s.ad.profile, s.pieces, hours);
const cumulative = (s: Schedule, at: number) => cumulativeTotals(s.ad, s.pieces, at);
const leadsIn = (t: Totals) => t.onsiteLeads + t.websiteLeads;

/** Cumulative totals with leads counted only up to `leadLimit` (the leads the account recorded). */
function capLeads(t: Totals, s: Schedule, leadLimit: number): Totals {
  if (leadsIn(t) <= leadLimit) return t;
  const websiteLeads = Math.floor(leadLimit * s.ad.profile.websiteShare);
  return { ...t, onsiteLeads: leadLimit - websiteLeads, websiteLeads };
}

/** How many of the ad's leads were recorded: all of them, or those before its account's tracking broke. */
function recordedLeadLimit(s: Schedule): number {
  const brokenAt = s.account.trackingBrokenAt;
  return brokenAt === undefined ? Infinity : leadsIn(cumulative(s, brokenAt));
}

/** The ad's settled truth over [from, to): all delivery, and every lead recorded. */
export function settledTotals(
  world: World,
  ad: SimAd,
  from: number,
  to: number,
  frame?: ReportFrame,
  onLead?: LeadVisitor,
): Totals {
  const s = scheduleOf(world, ad, frame);
  const limit = recordedLeadLimit(s);
  const start = capLeads(cumulative(s, from), s, limit);
  const end = capLeads(cumulative(s, to), s, limit);
  if (onLead)
    for (let k = leadsIn(start) + 1; k <= leadsIn(end); k += 1) onLead(k, isWebsiteLead(k, s.ad.profile.websiteShare));
  return subtract(end, start);
}

/** The first moment the ad has delivered `hours` effective hours (its k-th lead happens at such a moment). */
const momentOfDelivery = (s: Schedule, hours: number) => momentOfEffective(s.pieces, hours);

/** The effective hours at which the ad's k-th lead happens (leads are a step function of delivery). */
function hoursOfLead(s: Schedule, k: number, upTo: number): number {
  let lo = 0;
  let hi = upTo;
  for (let i = 0; i < 48; i += 1) {
    const mid = (lo + hi) / 2;
    if (leadsIn(totalsAt(s, mid)) >= k) hi = mid;
    else lo = mid;
  }
  return hi;
}

const isWebsiteLead = (k: number, share: number) => Math.floor(k * share) > Math.floor((k - 1) * share);

function lagProfiles(ad: SimAd): { website: LagProfile; onsite: LagProfile } {
  const names = ad.profile.lag ?? { website: 'website', onsite: 'instant_form' };
  return { website: LAG_PROFILES[names.website], onsite: LAG_PROFILES[names.onsite] };
}

const scale = (value: number, share: number) => Math.round(value * share);

/** One recent hour window [a, b) as reported at frame.now: its day's settled share, and the leads that have arrived. */
function reportedWindow(
  s: Schedule,
  [a, b]: [number, number],
  [start, end]: [Totals, Totals],
  frame: ReportFrame,
  leadLimit: number,
  onLead?: LeadVisitor,
): Totals {
  const delivered = subtract(end, start);
  const share = frame.share(a);
  const out: Totals = {
    spend: Math.round(delivered.spend * share * 100) / 100,
    impressions: scale(delivered.impressions, share),
    clicks: scale(delivered.clicks, share),
    linkClicks: scale(delivered.linkClicks, share),
    outboundClicks: scale(delivered.outboundClicks, share),
    onsiteLeads: 0,
    websiteLeads: 0,
  };
  const last = Math.min(leadsIn(end), leadLimit);
  if (last <= leadsIn(start)) return out;
  const profiles = lagProfiles(s.ad);
  const upTo = hoursBy(s, b);
  for (let k = leadsIn(start) + 1; k <= last; k += 1) {
    const website = isWebsiteLead(k, s.ad.profile.websiteShare);
    const lag = leadLag(website ? profiles.website : profiles.onsite, `${s.ad.id}:${k}`);
    let arrived = b + lag <= frame.now;
    if (!arrived && a + lag <= frame.now) arrived = momentOfDelivery(s, hoursOfLead(s, k, upTo)) + lag <= frame.now;
    if (!arrived) continue;
    onLead?.(k, website);
    if (website) out.websiteLeads += 1;
    else out.onsiteLeads += 1;
  }
  return out;
}

/** The ad's metrics over [from, to) as Graph reports them at frame.now (`to` at most now). */
export function reportedTotals(
  world: World,
  ad: SimAd,
  from: number,
  to: number,
  frame: ReportFrame,
  onLead?: LeadVisitor,
): Totals {
  const s = scheduleOf(world, ad, frame);
  const limit = recordedLeadLimit(s);
  const end = Math.min(to, frame.now);
  const finalEnd = Math.min(end, frame.finalBefore);
  let total = from < finalEnd ? settledTotals(world, ad, from, finalEnd, frame, onLead) : ZERO;
  const recentFrom = Math.max(from, frame.finalBefore);
  if (recentFrom >= end || hoursBy(s, recentFrom) === hoursBy(s, end)) return total;
  let before = cumulative(s, recentFrom);
  for (let hour = floorHour(recentFrom); hour < end; hour += HOUR) {
    const a = Math.max(hour, recentFrom);
    const b = Math.min(hour + HOUR, end);
    const after = cumulative(s, b);
    if (after.spend !== before.spend || after.impressions !== before.impressions)
      total = add(total, reportedWindow(s, [a, b], [before, after], frame, limit, onLead));
    before = after;
  }
  return total;
}

/** One of an ad's leads: its number, its kind, when it happened and when insights first count it. */
export interface LeadMoment {
  k: number;
  website: boolean;
  happenedAt: number;
  arrivesAt: number;
}

/**
 * The ad's recorded leads that have happened by `now`, in order: the same leads, at the same
 * moments, that its insights count (a lead shows in insights from `arrivesAt`).
 */
export function leadMoments(world: World, ad: SimAd, now: number): LeadMoment[] {
  const s = buildSchedule(world, ad);
  const upTo = hoursBy(s, now);
  const count = Math.min(leadsIn(totalsAt(s, upTo)), recordedLeadLimit(s));
  const profiles = lagProfiles(ad);
  const moments: LeadMoment[] = [];
  for (let k = 1; k <= count; k += 1) {
    const website = isWebsiteLead(k, ad.profile.websiteShare);
    const happenedAt = momentOfDelivery(s, hoursOfLead(s, k, upTo));
    const lag = leadLag(website ? profiles.website : profiles.onsite, `${ad.id}:${k}`);
    moments.push({ k, website, happenedAt, arrivesAt: happenedAt + lag });
  }
  return moments;
}
