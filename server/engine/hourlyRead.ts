/**
 * The hourly part of an account's snapshot: each ad's spend and impressions per hour of the days of
 * the account's zone that cover the hours the rules look back (at most the last three days before
 * today; Graph's hourly breakdown), from which the judging settings read how long an ad has
 * delivered and what it spent in the last L hours (judging.ts). A platform that refuses the
 * breakdown leaves the snapshot without it: ages are then unknown (only impressions decide
 * maturity) and no lag allowance applies.
 */
import { DateTime } from 'luxon';
import type { RuleJudging } from '../../src/domain/judging';
import type { AdPlatformClient } from '../adplatform/types';
import { hourlyRowsFrom, type HourlyRow } from './judging';
import { validZone } from './schedule';

export const HOURLY_DAYS = 3;

/**
 * The hours of hourly delivery a rule's judging looks back: its maturity and its lag allowance
 * (an hour more for the hour the window starts in). Graph's answer, and the time it takes, grow with
 * its rows, so a snapshot asks only for the days that cover them (fetchHourly, at most HOURLY_DAYS
 * before today); an ad that delivered before the first of those days is then at least that old,
 * which is as old as the maturity asks.
 */
export const hourlyHoursOf = (judging: Pick<RuleJudging, 'maturity_hours' | 'lag_hours'> | undefined) =>
  Math.max(judging?.maturity_hours ?? 0, (judging?.lag_hours ?? 0) + 1);

export async function fetchHourly(
  client: AdPlatformClient,
  adAccountId: string,
  zone: string,
  at: Date,
  hours = HOURLY_DAYS * 24,
): Promise<{ hourly?: HourlyRow[]; hourlySince?: string }> {
  const local = DateTime.fromJSDate(at, { zone: validZone(zone) });
  const since = local.minus({ hours: Math.min(hours, HOURLY_DAYS * 24) }).startOf('day');
  try {
    const rows = await client.getInsights(adAccountId, {
      level: 'ad',
      timeRange: { since: since.toISODate()!, until: local.toISODate()! },
      // One row per day and hour: without daily buckets Graph sums each hour of the day over the range.
      timeIncrement: 1,
      breakdown: 'hourly',
      fields: ['ad_id', 'spend', 'impressions'],
    });
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
    return {
      hourly: hourlyRowsFrom(rows as unknown as Record<string, unknown>[], toInstant),
      hourlySince: since.toJSDate().toISOString(),
    };
  } catch {
    return {};
  }
}
