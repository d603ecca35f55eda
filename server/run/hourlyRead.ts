/**
 * The hourly part of an account's snapshot: each ad's spend and impressions per hour of the days of
 * the account's zone that cover the hours the rules look back (at most the last three days before
 * today; Graph's hourly breakdown), from which the judging settings read how long an ad has
 * delivered and what it spent in the last L hours (judging.ts). A maturity longer than those days
 * adds a daily read of the days before them (one row per ad and day, not per hour): an ad older
 * than the hourly rows is as old as its first delivering day there says. A platform that refuses
 * the breakdown leaves the snapshot without it: ages are then unknown (only impressions decide
 * maturity) and no lag allowance applies. A breakdown answered with no rows is not read as no
 * delivery: when the same days without the breakdown show impressions, Graph left them out without
 * saying why (as it does for a breakdown the account has not opted into), and the snapshot says so
 * (hourlyNoRows), which holds the runs that read it (pipeline/noRowsHold.ts).
 */
import { DateTime } from 'luxon';
import type { RuleJudging } from '../../shared/judging';
import type { AdPlatformClient } from '../adplatform/types';
import { hourlyRowsFrom, type HourlyRow } from '../judgement/lateData';
import { validZone } from '../judgement/scheduleSlots';

export const HOURLY_DAYS = 3;

/**
 * The hours of hourly delivery a rule's judging looks back: its maturity and its lag allowance
 * (an hour more for the hour the window starts in). Graph's answer, and the time it takes, grow with
 * its rows, so a snapshot asks only for the days that cover them (fetchHourly, at most HOURLY_DAYS
 * before today); an ad that delivered before the first of those days is judged by the daily read
 * of the days before them (fetchDeliveredBy).
 */
export const hourlyHoursOf = (judging: Pick<RuleJudging, 'maturity_hours' | 'lag_hours'> | undefined) =>
  Math.max(judging?.maturity_hours ?? 0, (judging?.lag_hours ?? 0) + 1);

/** What the hourly read adds to a snapshot (AccountSnapshot's fields of the same names). */
export interface HourlyRead {
  hourly?: HourlyRow[];
  hourlySince?: string;
  /** Ads older than the hourly rows: the end of their first delivering day in the daily read (ISO). */
  deliveredBy?: Record<string, string>;
  /** Where the daily read begins (ISO): an ad older than the hourly rows and not in it delivered before. */
  dailySince?: string;
  /** Why the hourly rows cannot be trusted: Graph answered none for days the account delivered. */
  hourlyNoRows?: string;
}

export async function fetchHourly(
  client: AdPlatformClient,
  adAccountId: string,
  zone: string,
  at: Date,
  hours = HOURLY_DAYS * 24,
): Promise<HourlyRead> {
  const local = DateTime.fromJSDate(at, { zone: validZone(zone) });
  const since = local.minus({ hours: Math.min(hours, HOURLY_DAYS * 24) }).startOf('day');
  const timeRange = { since: since.toISODate()!, until: local.toISODate()! };
  try {
    const rows = await client.getInsights(adAccountId, {
      level: 'ad',
      timeRange,
      // One row per day and hour: without daily buckets Graph sums each hour of the day over the range.
      timeIncrement: 1,
      breakdown: 'hourly',
      fields: ['ad_id', 'spend', 'impressions'],
    });
    if (!rows.length) {
      const noRows = await unexplainedEmptiness(client, adAccountId, timeRange);
      if (noRows) return { hourlyNoRows: noRows };
    }
    // One instant per (day, hour), whatever the number of ads: time zone maths is slow.
    const valid = validZone(zone);
    const instants = new Map<string, Date>();
    const toInstant = (date: string, hour: number) => {
      const key = `${date}T${hour}`;
      let instant = instants.get(key);
      if (!instant) {
        instant = DateTime.fromISO(date, { zone: valid }).set({ hour }).toJSDate();
        instants.set(key, instant);
      }
      return instant;
    };
    const older = hours > HOURLY_DAYS * 24 ? await fetchDeliveredBy(client, adAccountId, local, hours, since) : {};
    return {
      hourly: hourlyRowsFrom(rows as unknown as Record<string, unknown>[], toInstant),
      hourlySince: since.toJSDate().toISOString(),
      ...older,
    };
  } catch {
    return {};
  }
}

/**
 * Why an empty hourly answer is not "no delivery", or undefined when it is: the same days read
 * without the breakdown (one account-level row) show impressions, or cannot be read to tell.
 */
async function unexplainedEmptiness(
  client: AdPlatformClient,
  adAccountId: string,
  timeRange: { since: string; until: string },
): Promise<string | undefined> {
  const days = `${timeRange.since} to ${timeRange.until}`;
  try {
    const [total] = await client.getInsights(adAccountId, { level: 'account', timeRange, fields: ['impressions'] });
    const impressions = Number(total?.impressions ?? 0);
    if (!(impressions > 0)) return undefined;
    return `Meta returned no rows for the hourly breakdown of ${days}, though the account had ${impressions.toLocaleString('en-US')} impressions then`;
  } catch {
    return `Meta returned no rows for the hourly breakdown of ${days}, and the account's delivery then could not be read to tell why`;
  }
}

/**
 * The daily delivery of the days from `hours` back to the hourly rows' first day: each ad's first
 * day with impressions, given as that day's end — the ad had delivered by then, so its age is at
 * least the time since (an age a day short at most: the rule judges it late, never early). A refused
 * read answers nothing: an ad older than the hourly rows is then as old as they reach.
 */
export async function fetchDeliveredBy(
  client: AdPlatformClient,
  adAccountId: string,
  local: DateTime,
  hours: number,
  hourlySince: DateTime,
): Promise<Pick<HourlyRead, 'deliveredBy' | 'dailySince'>> {
  const since = local.minus({ hours }).startOf('day');
  const until = hourlySince.minus({ days: 1 });
  if (until < since) return {};
  try {
    const rows = await client.getInsights(adAccountId, {
      level: 'ad',
      timeRange: { since: since.toISODate()!, until: until.toISODate()! },
      timeIncrement: 1,
      fields: ['ad_id', 'impressions'],
    });
    const firstDay = new Map<string, string>();
    for (const row of rows) {
      const day = row.date_start;
      if (!row.ad_id || !day || !(Number(row.impressions) > 0)) continue;
      const known = firstDay.get(row.ad_id);
      if (!known || day < known) firstDay.set(row.ad_id, day);
    }
    const deliveredBy: Record<string, string> = {};
    for (const [adId, day] of firstDay)
      deliveredBy[adId] = DateTime.fromISO(day, { zone: local.zone }).plus({ days: 1 }).toJSDate().toISOString();
    return { deliveredBy, dailySince: since.toJSDate().toISOString() };
  } catch {
    return {};
  }
}
