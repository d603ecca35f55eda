/**
 * The lag allowance a person would give each lag-aware rule: its account's suggested L as the
 * health panel measures it (server/health: daily totals read at each age after the day, then
 * `measureLeadLag`), read every two hours from six days before the bench starts to its end, nobody
 * pausing anything. That stands for the weeks of history a real account is measured on: the days
 * before the start alone hold one or two settled days with a handful of website leads, too few to
 * measure, and the agency's ads convert alike throughout, so the whole period says what its past would.
 */
import { DateTime } from 'luxon';
import type { GraphClient } from '../../server/adplatform/graphClient';
import type { Simulator } from '../../server/adplatform/simulator/index';
import { measureLeadLag, type DayReading } from '../../server/health/checks';
import { readingsFrom } from '../../server/health/monitor';

const HOUR_MS = 3_600_000;
const BEFORE_START_HOURS = 144;
const EVERY_HOURS = 2;

export async function measuredLag(
  sim: Simulator,
  client: GraphClient,
  start: number,
  end: number,
  log: (line: string) => void,
): Promise<Map<string, number | null>> {
  const readings = new Map<string, DayReading[]>();
  for (let at = start - BEFORE_START_HOURS * HOUR_MS; at <= end; at += EVERY_HOURS * HOUR_MS) {
    sim.clock.set(at);
    for (const account of sim.world.accounts) {
      const id = `act_${account.accountId}`;
      const today = DateTime.fromMillis(at, { zone: account.timezone });
      const rows = await client.getInsights(id, {
        level: 'account',
        timeRange: { since: today.minus({ days: 5 }).toISODate()!, until: today.toISODate()! },
        timeIncrement: 1,
      });
      readings.set(id, [...(readings.get(id) ?? []), ...readingsFrom(rows, account.timezone, new Date(at))]);
    }
  }
  const suggested = new Map<string, number | null>();
  for (const [id, own] of readings) suggested.set(id, measureLeadLag(own)?.suggested_lag_hours ?? null);
  const values = [...suggested.values()].filter((v): v is number => v !== null).sort((a, b) => a - b);
  log(
    `  lag_aware: measured lead lag of ${suggested.size} accounts: suggested L ${values[0] ?? '—'}–${values.at(-1) ?? '—'} h (median ${values[Math.floor(values.length / 2)] ?? '—'}), none for ${suggested.size - values.length}`,
  );
  return suggested;
}
