/**
 * The health checks' judgements, as pure functions of what was read: an ad account's lead tracking
 * against its own recent rate, its measured lead lag, and what a platform error says about access.
 */
import { GraphApiError, GraphAuthError, GraphNotFoundError } from '../adplatform/errors';
import type { LeadLagDto } from '../../shared/health';

/** One ad account's totals for one day, as read `ageHours` after the day ended (negative: the day runs). */
export interface DayReading {
  day: string;
  ageHours: number;
  spend: number;
  clicks: number;
  leads: number;
  /** Of those, website (pixel) leads. */
  websiteLeads: number;
}

/**
 * A day's leads are final this long after it ended: a website lead can be reported up to three days
 * after it happened (Meta's conversion postbacks lag 24–72 h), so a lead of the day's last minute
 * up to 72 hours after the day.
 */
export const SETTLED_AFTER_HOURS = 72;
/** The suggestion adds half a day: at a day's end its spend was made 12 hours before, on average. */
const HALF_DAY = 12;
const MAX_SUGGESTED_LAG = 84;

function byDay(readings: readonly DayReading[]): Map<string, DayReading[]> {
  const days = new Map<string, DayReading[]>();
  for (const r of readings) days.set(r.day, [...(days.get(r.day) ?? []), r]);
  for (const own of days.values()) own.sort((a, b) => a.ageHours - b.ageHours);
  return days;
}

type LeadsOf = (r: DayReading) => number;

/** The leads of a day as last read at or before `age` hours after its end (0 if not read by then). */
const leadsBy = (own: DayReading[], age: number, leads: LeadsOf) => {
  const last = own.filter((r) => r.ageHours <= age).at(-1);
  return last ? leads(last) : 0;
};

/**
 * How much of a day's leads arrived after the day, from the settled days that were read at their
 * end: the share that came later, the hours until 90 % were in, and the allowance that suggests.
 * Measured on the account's website leads when it has any: the allowance applies to website-lead
 * ads only (server/judgement/lateData.ts, leadsMayArriveLate), and instant-form leads, in within
 * minutes, would hide their lag. Null until at least one settled day with leads was watched from its end.
 */
export function measureLeadLag(readings: readonly DayReading[]): LeadLagDto | null {
  const settled = [...byDay(readings).values()].filter(
    (own) => own.some((r) => r.ageHours >= 0 && r.ageHours <= 2) && own.at(-1)!.ageHours >= SETTLED_AFTER_HOURS,
  );
  const finalOf = (leads: LeadsOf) => settled.reduce((sum, own) => sum + leads(own.at(-1)!), 0);
  const leadKind = finalOf((r) => r.websiteLeads) > 0 ? 'website' : 'all';
  const leads: LeadsOf = leadKind === 'website' ? (r) => r.websiteLeads : (r) => r.leads;
  const final = finalOf(leads);
  if (!settled.length || final <= 0) return null;
  const atEnd = settled.reduce((sum, own) => sum + leadsBy(own, 2, leads), 0);
  let hoursTo90 = SETTLED_AFTER_HOURS;
  for (let age = 0; age <= SETTLED_AFTER_HOURS; age++) {
    if (settled.reduce((sum, own) => sum + leadsBy(own, age, leads), 0) >= 0.9 * final) {
      hoursTo90 = age;
      break;
    }
  }
  return {
    lead_kind: leadKind,
    days: settled.length,
    late_share: Math.max(0, Math.round((1 - atEnd / final) * 1000) / 1000),
    hours_to_90: hoursTo90,
    suggested_lag_hours: Math.min(MAX_SUGGESTED_LAG, hoursTo90 + HALF_DAY),
  };
}

export interface LeadTrackingVerdict {
  broken: boolean;
  detail: string;
}

/** Leads expected before the check may call tracking broken: fewer says nothing. */
const MIN_EXPECTED_LEADS = 5;
/** Broken: fewer than this share of the leads the account's own rate expects. */
const BROKEN_SHARE = 0.1;
const BASELINE_DAYS = 7;

/**
 * Lead tracking is broken when, over the latest readings of today and yesterday, spend and clicks
 * went on while leads fell under a tenth of what the account's own leads per click of the week
 * before expect (and at least 5 were expected). Late leads cannot explain that much: about half of
 * them are in within a day.
 */
export function judgeLeadTracking(readings: readonly DayReading[], today: string): LeadTrackingVerdict {
  const days = byDay(readings);
  const ordered = [...days.keys()].sort();
  const yesterday = ordered.filter((d) => d < today).at(-1);
  const recentDays = [yesterday, today].filter((d): d is string => d !== undefined && days.has(d));
  const baselineDays = ordered.filter((d) => d < (yesterday ?? today)).slice(-BASELINE_DAYS);
  const latest = (day: string) => days.get(day)!.at(-1)!;
  const base = baselineDays.map(latest);
  const baseClicks = base.reduce((s, r) => s + r.clicks, 0);
  const baseLeads = base.reduce((s, r) => s + r.leads, 0);
  const recent = recentDays.map(latest);
  const clicks = recent.reduce((s, r) => s + r.clicks, 0);
  const leads = recent.reduce((s, r) => s + r.leads, 0);
  const spend = recent.reduce((s, r) => s + r.spend, 0);
  if (!baseClicks || !baseLeads || !clicks || spend <= 0)
    return { broken: false, detail: 'not enough history to judge lead tracking' };
  const expected = (baseLeads / baseClicks) * clicks;
  const rate = `${Math.round(expected)} leads expected from ${Math.round(clicks)} clicks at its rate of the past ${base.length} days, ${Math.round(leads)} reported`;
  if (expected < MIN_EXPECTED_LEADS) return { broken: false, detail: rate };
  return { broken: leads < BROKEN_SHARE * expected, detail: rate };
}

/**
 * A read of the account was refused: the token may no longer read it (not a passing failure) —
 * not found to this token, or a permission error (code 10, 200–299).
 */
export const isAccessLost = (error: unknown): boolean =>
  error instanceof GraphNotFoundError ||
  (error instanceof GraphApiError &&
    error.code !== undefined &&
    (error.code === 10 || (error.code >= 200 && error.code < 300)));

/** The token itself no longer works (Graph's OAuth errors, codes 102 and 190). */
export const isTokenInvalid = (error: unknown): boolean => error instanceof GraphAuthError;

/** A token expiring within this many days is shown as a warning (runs go on). */
export const TOKEN_WARNING_DAYS = 7;
