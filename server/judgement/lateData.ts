/**
 * What a rule needs to judge late data fairly, as pure functions of the snapshot (hourly insights),
 * the object's on/off history and the time: how long an ad has delivered, the spend of its last L
 * hours, and when it was last turned back on. The evaluator turns them into the verdicts "too early",
 * "lag allowance" and "cooling down" (shared/judging.ts says what each setting means).
 */
import type { RuleJudging } from '../../shared/judging';
import { numberOrNull } from './objectMetrics';

/** One ad's delivery in one hour of the account's day, from the hourly insights breakdown. */
export interface HourlyRow {
  ad_id: string;
  /** The hour's start (ISO instant). */
  hour: string;
  spend: number;
  impressions: number;
}

/** What the engine knows of an object's past, beside its lifetime metrics. */
export interface ObjectHistory {
  /** The last time the object was turned back on (undo, revive, approval's opposite, or by hand). */
  lastTurnedOnAt: Date | null;
}

export interface ObjectFacts {
  /**
   * Hours since the ad's first delivering hour; for an ad older than the hourly rows, at least this
   * many (the daily read's first delivering day, else where the rows begin); null when unknown.
   */
  hoursDelivered: number | null;
  /** True when the ad delivered before the hourly rows begin: it is older than they reach. */
  olderThanHourly: boolean;
  /**
   * Spend of the last `lag_hours` hours (0 when none); null when the lag allowance is off, the hourly
   * rows are unknown, or the ad's leads cannot arrive late (leadsMayArriveLate).
   */
  recentSpend: number | null;
  lastTurnedOnAt: Date | null;
}

const HOUR_MS = 3_600_000;

/** Optimisation goals of instant-form lead ads (Meta's lead forms): their leads are reported within minutes. */
const INSTANT_FORM_GOALS = new Set(['LEAD_GENERATION', 'QUALITY_LEAD']);

/**
 * Whether an ad's leads can arrive hours after the spend that bought them, so the lag allowance
 * applies to it: website (pixel) and offline leads do, instant-form leads do not. An ad optimised
 * for instant-form leads that has had no website lead is judged on all its spend; an ad whose goal
 * is not known gets the allowance.
 */
export const leadsMayArriveLate = (optimizationGoal: string | undefined, websiteLeads: number): boolean =>
  websiteLeads > 0 || optimizationGoal === undefined || !INSTANT_FORM_GOALS.has(optimizationGoal);

/** Hourly rows grouped by ad, oldest first. */
export function hourlyByAd(rows: readonly HourlyRow[] | undefined): Map<string, HourlyRow[]> {
  const byAd = new Map<string, HourlyRow[]>();
  for (const row of rows ?? []) {
    const own = byAd.get(row.ad_id);
    if (own) own.push(row);
    else byAd.set(row.ad_id, [row]);
  }
  for (const own of byAd.values()) own.sort((a, b) => a.hour.localeCompare(b.hour));
  return byAd;
}

/**
 * The facts of one ad at `now`. `hourlySince` is where the hourly rows begin: an ad whose lifetime
 * impressions exceed those of its hourly rows delivered before it, so it is at least that old.
 */
export function objectFacts(input: {
  judging: RuleJudging;
  now: Date;
  hourly: readonly HourlyRow[] | undefined;
  hourlyKnown: boolean;
  hourlySince: Date | null;
  /**
   * For an ad older than the hourly rows, a time it had delivered by (the end of its first day in the
   * daily read, else where that read begins); null when no daily read was made.
   */
  deliveredBy?: Date | null;
  lifetimeImpressions: number | null;
  history: ObjectHistory | undefined;
  /** False for an instant-form ad (leadsMayArriveLate): no allowance. */
  leadsMayArriveLate: boolean;
}): ObjectFacts {
  const { judging, now, hourly = [], hourlyKnown, hourlySince, lifetimeImpressions } = input;
  const delivering = hourly.filter((row) => row.impressions > 0);
  const hourlyImpressions = hourly.reduce((sum, row) => sum + row.impressions, 0);
  const olderThanHourly = hourlyKnown && lifetimeImpressions !== null && lifetimeImpressions - hourlyImpressions > 0.5;
  let hoursDelivered: number | null = null;
  const olderSince = input.deliveredBy ?? hourlySince;
  if (olderThanHourly && olderSince) hoursDelivered = (now.getTime() - olderSince.getTime()) / HOUR_MS;
  else if (hourlyKnown && delivering.length)
    hoursDelivered = (now.getTime() - Date.parse(delivering[0]!.hour)) / HOUR_MS;
  else if (hourlyKnown) hoursDelivered = 0;
  let recentSpend: number | null = null;
  if (judging.lag_hours !== null && hourlyKnown && input.leadsMayArriveLate) {
    const from = now.getTime() - judging.lag_hours * HOUR_MS;
    // An hour that began inside the window counts whole: its spend is at most L hours old.
    recentSpend = hourly.filter((row) => Date.parse(row.hour) + HOUR_MS > from).reduce((s, r) => s + r.spend, 0);
  }
  return { hoursDelivered, olderThanHourly, recentSpend, lastTurnedOnAt: input.history?.lastTurnedOnAt ?? null };
}

/** The object was turned back on less than `cooldown_hours` ago. */
export function coolingDown(judging: RuleJudging, facts: ObjectFacts, now: Date): boolean {
  if (judging.cooldown_hours <= 0 || !facts.lastTurnedOnAt) return false;
  return now.getTime() - facts.lastTurnedOnAt.getTime() < judging.cooldown_hours * HOUR_MS;
}

/**
 * The object has not delivered long enough, or not reached enough impressions, to be judged. An
 * age the hourly rows cannot tell (none fetched) counts as old enough: only impressions decide. An
 * ad older than the hourly rows is judged by the least age known of it (hourlyRead.ts reads back
 * as far as the maturity asks), so a maturity longer than the hourly rows is honoured.
 */
export function tooEarly(judging: RuleJudging, facts: ObjectFacts, impressions: number | null): boolean {
  if (judging.maturity_impressions > 0 && (impressions ?? 0) < judging.maturity_impressions) return true;
  if (judging.maturity_hours > 0 && facts.hoursDelivered !== null) return facts.hoursDelivered < judging.maturity_hours;
  return false;
}

/** The lead tasks: those the lag allowance applies to (their leads lag the spend that bought them). */
export const LEAD_TASKS = new Set([
  'trigger_cpl',
  'website_cpl',
  'spend_cpl_no_leads',
  'spend_ctr_no_leads',
  'spend_cpc_no_leads',
]);

/** Spend that has had L hours to convert: the lifetime spend less the last L hours'. */
export const settledSpend = (spend: number, facts: ObjectFacts): number =>
  facts.recentSpend === null ? spend : Math.max(0, spend - facts.recentSpend);

/** Hourly rows from Graph's hourly breakdown rows (date_start + "HH:00:00 - HH:59:59" in the account's zone). */
export function hourlyRowsFrom(
  rows: readonly Record<string, unknown>[],
  toInstant: (date: string, hour: number) => Date,
): HourlyRow[] {
  const result: HourlyRow[] = [];
  for (const row of rows) {
    const range = row.hourly_stats_aggregated_by_advertiser_time_zone;
    const date = row.date_start;
    if (typeof row.ad_id !== 'string' || typeof range !== 'string' || typeof date !== 'string') continue;
    const hour = Number(range.slice(0, 2));
    if (!Number.isInteger(hour)) continue;
    result.push({
      ad_id: row.ad_id,
      hour: toInstant(date, hour).toISOString(),
      spend: numberOrNull(row.spend) ?? 0,
      impressions: numberOrNull(row.impressions) ?? 0,
    });
  }
  return result;
}
