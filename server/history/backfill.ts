/**
 * Filling an account's metric history from the platform's breakdowns, for the days before the
 * product read it (an account's first sync) or on demand. These are settled numbers — what the
 * platform says now about each past hour, late leads included — not what was known then, and are
 * marked so (settled_mask); an hour that already holds a live reading keeps it.
 *
 * Four calls: the campaigns (their budgets), the lifetime up to the window (a time range ending the day before it), the daily
 * rows of the window (time_increment=1), and its hourly rows (hourly_stats_aggregated_by_advertiser
 * _time_zone). An ad's value at the end of local hour h of day D is the lifetime before the window
 * + the daily totals of the days before D + D's hourly rows up to h; at the end of D it is the
 * daily total's, so each day closes on the platform's daily number.
 */
import { DateTime } from 'luxon';
import type { AdPlatformClient, InsightRow } from '../adplatform/types';
import type { Database } from '../db/client';
import { validZone } from '../judgement/scheduleSlots';
import { bucketOf, METRICS, numbersOf, type AdNumbers, type MetricName } from './reading';
import { writeNames, writeSettledDays, type SettledDay } from './store';

export interface BackfillRequest {
  adAccountId: string;
  timezone: string;
  /** Days back from today (account's zone), today included. */
  days: number;
  now: Date;
}

export interface BackfillReport {
  ads: number;
  days: number;
  readings: number;
}

/** Meta keeps insights for 37 months: the lifetime before the window starts there. */
const OLDEST_MONTHS = 37;

const zeros = (): AdNumbers => ({
  spendCents: 0,
  impressions: 0,
  clicks: 0,
  linkClicks: 0,
  leads: 0,
  websiteLeads: 0,
});

function addTo(total: AdNumbers, row: InsightRow): void {
  const n = numbersOf(row);
  for (const metric of METRICS) total[metric] = (total[metric] ?? 0) + (n[metric] ?? 0);
}

const hourOfRow = (row: InsightRow) =>
  Number(/^(\d{2})/.exec(row.hourly_stats_aggregated_by_advertiser_time_zone ?? '')?.[1] ?? Number.NaN);

interface AdWork {
  adId: string;
  adName: string;
  campaignId: string;
  campaignName: string;
  optimizationGoal: string | null;
  base: AdNumbers;
  daily: Map<string, AdNumbers>;
  hourly: Map<string, AdNumbers>;
}

interface CalendarDay {
  date: string;
  /** The instant each local hour of the day ends (the hour after it starts, across a DST change too). */
  hourEndsMs: number[];
  endMs: number;
}

/** The window's days in the account's zone, worked out once for all its ads (time zones are slow to compute). */
function calendarOf(first: DateTime, last: DateTime): CalendarDay[] {
  const days: CalendarDay[] = [];
  for (let d = first; d <= last; d = d.plus({ days: 1 })) {
    const hourEndsMs = Array.from({ length: 24 }, (_, h) => d.set({ hour: h }).plus({ hours: 1 }).toMillis());
    days.push({ date: d.toISODate()!, hourEndsMs, endMs: d.plus({ days: 1 }).toMillis() });
  }
  return days;
}

export async function backfillHistory(
  db: Database,
  client: AdPlatformClient,
  request: BackfillRequest,
): Promise<BackfillReport> {
  const zone = validZone(request.timezone);
  const today = DateTime.fromJSDate(request.now, { zone }).startOf('day');
  const first = today.minus({ days: request.days - 1 });
  const range = { since: first.toISODate()!, until: today.toISODate()! };
  const before = {
    since: first.minus({ months: OLDEST_MONTHS }).toISODate()!,
    until: first.minus({ days: 1 }).toISODate()!,
  };
  const [campaigns, lifetime, daily, hourly] = await Promise.all([
    client.listCampaigns(request.adAccountId),
    client.getInsights(request.adAccountId, { level: 'ad', timeRange: before }),
    client.getInsights(request.adAccountId, { level: 'ad', timeRange: range, timeIncrement: 1 }),
    client.getInsights(request.adAccountId, { level: 'ad', timeRange: range, timeIncrement: 1, breakdown: 'hourly' }),
  ]);

  const work = new Map<string, AdWork>();
  const workOf = (row: InsightRow): AdWork | null => {
    if (!row.ad_id) return null;
    let w = work.get(row.ad_id);
    if (!w) {
      w = {
        adId: row.ad_id,
        adName: row.ad_name ?? row.ad_id,
        campaignId: row.campaign_id,
        campaignName: row.campaign_name,
        optimizationGoal: null,
        base: zeros(),
        daily: new Map(),
        hourly: new Map(),
      };
      work.set(row.ad_id, w);
    }
    w.optimizationGoal ??= row.optimization_goal ?? null;
    return w;
  };
  const into = (map: Map<string, AdNumbers>, key: string, row: InsightRow) => {
    const total = map.get(key) ?? zeros();
    addTo(total, row);
    map.set(key, total);
  };
  for (const row of lifetime) if (workOf(row)) addTo(work.get(row.ad_id!)!.base, row);
  for (const row of daily) if (workOf(row)) into(work.get(row.ad_id!)!.daily, row.date_start ?? '', row);
  for (const row of hourly) {
    const hour = hourOfRow(row);
    if (workOf(row) && Number.isInteger(hour)) into(work.get(row.ad_id!)!.hourly, `${row.date_start}|${hour}`, row);
  }

  const nowMs = request.now.getTime();
  const days = new Map<string, SettledDay>();
  let readings = 0;
  /** Keeps a value in the UTC day row of the instant it was true at. */
  const keep = (w: AdWork, atMs: number, value: AdNumbers, delivering: boolean) => {
    if (atMs > nowMs) return;
    const { day, hour } = bucketOf(new Date(atMs));
    const key = `${w.adId}|${day}`;
    let row = days.get(key);
    if (!row) {
      const values = {} as Record<MetricName, (number | null)[]>;
      for (const metric of METRICS) values[metric] = new Array<number | null>(24).fill(null);
      row = { day, adId: w.adId, campaignId: w.campaignId, values, readMask: 0, onMask: 0, campaignOnMask: 0 };
      days.set(key, row);
    }
    if (!(row.readMask & (1 << hour))) readings += 1;
    for (const metric of METRICS) row.values[metric][hour] = value[metric];
    row.readMask |= 1 << hour;
    if (delivering) row.onMask |= 1 << hour;
  };

  const calendar = calendarOf(first, today);
  for (const w of work.values()) {
    const running = { ...w.base };
    keep(w, first.toMillis(), running, false);
    for (const { date, hourEndsMs, endMs } of calendar) {
      const dayStart = { ...running };
      for (let h = 0; h < 24; h += 1) {
        const hourRow = w.hourly.get(`${date}|${h}`);
        if (hourRow) for (const metric of METRICS) running[metric] = (running[metric] ?? 0) + (hourRow[metric] ?? 0);
        keep(w, hourEndsMs[h]!, running, Boolean(hourRow?.impressions));
      }
      const dayTotal = w.daily.get(date);
      if (dayTotal) {
        for (const metric of METRICS) running[metric] = (dayStart[metric] ?? 0) + (dayTotal[metric] ?? 0);
        keep(w, endMs, running, Boolean(w.hourly.get(`${date}|23`)?.impressions));
      }
    }
  }
  // A campaign delivered in an hour when any of its ads did.
  const campaignOn = new Map<string, number>();
  for (const row of days.values())
    campaignOn.set(`${row.campaignId}|${row.day}`, (campaignOn.get(`${row.campaignId}|${row.day}`) ?? 0) | row.onMask);
  for (const row of days.values()) row.campaignOnMask = campaignOn.get(`${row.campaignId}|${row.day}`) ?? 0;

  const budgets = new Map(campaigns.map((c) => [c.id, Number(c.daily_budget) || null]));
  await writeSettledDays(db, request.adAccountId, [...days.values()]);
  await writeNames(
    db,
    request.adAccountId,
    [...work.values()].map((w) => ({
      adId: w.adId,
      adName: w.adName,
      campaignId: w.campaignId,
      campaignName: w.campaignName,
      budgetCents: budgets.get(w.campaignId) ?? null,
      optimizationGoal: w.optimizationGoal,
    })),
    request.now,
  );
  return { ads: work.size, days: request.days, readings };
}
