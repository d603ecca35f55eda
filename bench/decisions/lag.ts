/**
 * The lag allowance a person would give each lag-aware rule: its account's suggested L as the
 * health panel measures it (server/health: daily totals read at each age after the day, then
 * `measureLeadLag`), from the four days before the bench starts, read every two hours.
 */
import { DateTime } from 'luxon';
import type { GraphClient } from '../../server/adplatform/graphClient';
import type { Simulator } from '../../server/adplatform/simulator/index';
import { measureLeadLag, type DayReading } from '../../server/health/checks';
import { readingsFrom } from '../../server/health/monitor';

const HOUR_MS = 3_600_000;
const WATCHED_HOURS = 96;
const EVERY_HOURS = 2;

export async function measuredLag(
  sim: Simulator,
  client: GraphClient,
  start: number,
  log: (line: string) => void,
): Promise<Map<string, number | null>> {
  const readings = new Map<string, DayReading[]>();
  for (let at = start - WATCHED_HOURS * HOUR_MS; at <= start; at += EVERY_HOURS * HOUR_MS) {
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
