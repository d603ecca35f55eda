/**
 * The hourly read asks Graph for the days of the account's zone that cover the hours the rules look
 * back (their maturity, their lag allowance), never fewer, at most the last three days before today.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { AdPlatformClient, InsightsQuery } from '../../../server/adplatform/types';
import { fetchHourly, hourlyHoursOf } from '../../../server/run/hourlyRead';

const ZONE = 'America/New_York';

/** A platform that records the hourly query and answers with no rows. */
function recordingClient() {
  const queries: InsightsQuery[] = [];
  const client = {
    async getInsights(_account: string, query: InsightsQuery) {
      queries.push(query);
      return [];
    },
  } as unknown as AdPlatformClient;
  return { client, queries };
}

async function sinceFor(localTime: string, hours: number): Promise<{ since: string; hourlySince: string }> {
  const { client, queries } = recordingClient();
  const at = DateTime.fromISO(localTime, { zone: ZONE }).toJSDate();
  const read = await fetchHourly(client, 'act_1', ZONE, at, hours);
  return { since: queries[0]!.timeRange!.since, hourlySince: read.hourlySince! };
}

describe('the hourly read', () => {
  it('asks for yesterday and today for a 24-hour maturity in the afternoon', async () => {
    expect((await sinceFor('2026-03-10T14:00', hourlyHoursOf({ maturity_hours: 24, lag_hours: null }))).since).toBe(
      '2026-03-09',
    );
  });

  it('asks for today only when a 3-hour lag allowance fits in it', async () => {
    expect((await sinceFor('2026-03-10T14:00', hourlyHoursOf({ maturity_hours: 0, lag_hours: 3 }))).since).toBe(
      '2026-03-10',
    );
  });

  it('reaches into yesterday when the lag allowance starts before midnight', async () => {
    expect((await sinceFor('2026-03-10T01:30', hourlyHoursOf({ maturity_hours: 0, lag_hours: 3 }))).since).toBe(
      '2026-03-09',
    );
  });

  it('never goes further back than three days before today, whatever the maturity', async () => {
    expect((await sinceFor('2026-03-10T14:00', hourlyHoursOf({ maturity_hours: 720, lag_hours: null }))).since).toBe(
      '2026-03-07',
    );
  });

  it('covers at least the hours a rule looks back, up to three days', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2026-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 720 }),
        fc.option(fc.integer({ min: 0, max: 72 })),
        async (at, maturity, lag) => {
          const hours = hourlyHoursOf({ maturity_hours: maturity, lag_hours: lag });
          const { client } = recordingClient();
          const read = await fetchHourly(client, 'act_1', ZONE, at, hours);
          const covered = (at.getTime() - Date.parse(read.hourlySince!)) / 3_600_000;
          expect(covered).toBeGreaterThanOrEqual(Math.min(Math.max(maturity, (lag ?? -1) + 1), 72));
          expect(covered).toBeLessThanOrEqual(97);
        },
      ),
    );
  });

  it('reads the days before the hourly rows daily for a longer maturity, dating each ad by the end of its first delivering day', async () => {
    const queries: InsightsQuery[] = [];
    const client = {
      async getInsights(_account: string, query: InsightsQuery) {
        queries.push(query);
        if (query.breakdown || query.level === 'account') return []; // no ad delivered in the hourly rows' days
        return [
          { ad_id: 'old', date_start: '2026-03-05', impressions: '0' },
          { ad_id: 'old', date_start: '2026-03-06', impressions: '300' },
          { ad_id: 'old', date_start: '2026-03-05', impressions: '0' },
        ];
      },
    } as unknown as AdPlatformClient;
    const at = DateTime.fromISO('2026-03-10T14:00', { zone: ZONE }).toJSDate();
    const read = await fetchHourly(client, 'act_1', ZONE, at, hourlyHoursOf({ maturity_hours: 120, lag_hours: null }));
    expect(queries.map((q) => [q.timeRange!.since, q.timeRange!.until, q.breakdown ?? 'daily'])).toEqual([
      ['2026-03-07', '2026-03-10', 'hourly'],
      ['2026-03-07', '2026-03-10', 'daily'], // an empty breakdown is checked against the days' total
      ['2026-03-05', '2026-03-06', 'daily'],
    ]);
    expect(read.deliveredBy).toEqual({ old: DateTime.fromISO('2026-03-07', { zone: ZONE }).toJSDate().toISOString() });
    expect(read.dailySince).toBe(DateTime.fromISO('2026-03-05', { zone: ZONE }).toJSDate().toISOString());
  });
});
