/**
 * The ad account as a live read at one hour of the history would have seen it: statuses, the
 * lifetime insight rows of what was delivering, and — when the rule reads them — the hourly
 * delivery rows the judging settings use (server/engine/judging.ts), all in the shapes the engine's
 * evaluator takes, with the replay's own turn-offs applied.
 *
 * The hourly rows come from the differences of successive readings. They are handed over merged
 * into at most two rows per ad — the hours before the lag window and the hours inside it — each
 * dated at its first hour with impressions: the judging reads only the first delivering hour, the
 * impressions of the rows and the spend of the rows inside the lag window, which merging keeps.
 */
import { DateTime } from 'luxon';
import type { Ad, Campaign, InsightRow } from '../adplatform/types';
import type { AccountSnapshot } from '../engine/evaluate';
import { HOURLY_DAYS } from '../engine/hourlyRead';
import type { HourlyRow } from '../engine/judging';
import { validZone } from '../engine/schedule';
import { HOUR_MS, insightRowOf } from '../history/reading';
import { hourIndex, numbersAt, type AdSeries, type Timeline } from '../history/store';

/** What the hourly rows are built for: whether at all, the lag window and the account's zone. */
export interface HourlyNeed {
  lagHours: number | null;
  zone: string;
}

/** One ad's lifetime spend (cents) and impressions at every hour (its latest reading then), and where delivery rises. */
interface Cumulative {
  spend: Float64Array;
  impressions: Float64Array;
  /** The first hour at or after h whose impressions grew by the next hour; `hours` when none. */
  firstRise: Int32Array;
}

function cumulativeOf(series: AdSeries, hours: number): Cumulative {
  const spend = new Float64Array(hours);
  const impressions = new Float64Array(hours);
  for (let h = 0; h < hours; h += 1) {
    const read = series.latest[h]!;
    const s = read < 0 ? 0 : series.values.spendCents[read]!;
    const i = read < 0 ? 0 : series.values.impressions[read]!;
    spend[h] = Number.isNaN(s) ? 0 : s;
    impressions[h] = Number.isNaN(i) ? 0 : i;
  }
  const firstRise = new Int32Array(hours).fill(hours);
  for (let h = hours - 2; h >= 0; h -= 1) firstRise[h] = impressions[h + 1]! > impressions[h]! ? h : firstRise[h + 1]!;
  return { spend, impressions, firstRise };
}

export class AccountAtHour {
  private readonly rows = new Map<string, { hour: number; row: InsightRow }>();
  private readonly cumulative = new Map<string, Cumulative>();

  constructor(
    private readonly timeline: Timeline,
    /** Campaigns whose ads the rule may judge (its name filters): only their rows are built. */
    private readonly inScope: (campaignName: string) => boolean,
  ) {}

  /** The account at this hour, with the replay's own pauses applied. */
  snapshot(hour: number, currency: string, paused: ReadonlySet<string>, hourly: HourlyNeed | null): AccountSnapshot {
    const campaigns = new Map<string, Campaign>();
    const ads: Ad[] = [];
    const insights: InsightRow[] = [];
    const live: { series: AdSeries; read: number }[] = [];
    for (const series of this.timeline.ads) {
      const read = series.latest[hour]!;
      if (read < 0) continue;
      live.push({ series, read });
      const campaignOn = series.campaignOn[read] === 1 && !paused.has(series.campaignId);
      const known = campaigns.get(series.campaignId);
      if (!known || (campaignOn && known.status !== 'ACTIVE')) {
        const status = campaignOn ? 'ACTIVE' : 'PAUSED';
        campaigns.set(series.campaignId, {
          id: series.campaignId,
          name: series.campaignName,
          status,
          effective_status: status,
        });
      }
    }
    const atMs = this.timeline.startMs + hour * HOUR_MS;
    const hourlySince = hourly ? hourlySinceOf(atMs, hourly.zone) : null;
    const hourlyRows: HourlyRow[] = [];
    for (const { series, read } of live) {
      const campaignOn = campaigns.get(series.campaignId)!.status === 'ACTIVE';
      const adOn = series.on[read] === 1 && !paused.has(series.adId);
      ads.push({
        id: series.adId,
        name: series.adName,
        status: adOn ? 'ACTIVE' : 'PAUSED',
        effective_status: adOn ? (campaignOn ? 'ACTIVE' : 'CAMPAIGN_PAUSED') : 'PAUSED',
        campaign_id: series.campaignId,
        adset_id: '',
      });
      // A live read keeps the rows of what is delivering (server/engine/snapshots.ts).
      if (!(campaignOn || adOn) || !this.inScope(series.campaignName)) continue;
      insights.push(this.rowOf(series, read));
      if (hourly && campaignOn) this.hourlyRows(series, hour, hourlySince!, hourly.lagHours, hourlyRows);
    }
    return {
      currency,
      campaigns: [...campaigns.values()],
      ads,
      insights,
      readAt: new Date(atMs).toISOString(),
      ...(hourly ? { hourly: hourlyRows, hourlySince: new Date(hourlySince!).toISOString() } : {}),
    };
  }

  private rowOf(series: AdSeries, read: number): InsightRow {
    const cached = this.rows.get(series.adId);
    if (cached?.hour === read) return cached.row;
    const row = insightRowOf(series, numbersAt(series, read));
    this.rows.set(series.adId, { hour: read, row });
    return row;
  }

  /** The ad's hourly rows from `sinceMs` to `hour`, merged before and inside the lag window. */
  private hourlyRows(series: AdSeries, hour: number, sinceMs: number, lagHours: number | null, out: HourlyRow[]) {
    let c = this.cumulative.get(series.adId);
    if (!c) {
      c = cumulativeOf(series, this.timeline.hours);
      this.cumulative.set(series.adId, c);
    }
    const at = (h: number, values: Float64Array) => (h < 0 ? 0 : values[Math.min(h, hour)]!);
    const since = hourIndex(this.timeline, sinceMs);
    // An hour that began inside the lag window counts whole (judging.ts): the window starts L hours back.
    const lagFrom = lagHours === null ? hour + 1 : Math.max(since, hour - lagHours);
    for (const [from, to] of [
      [since, lagFrom],
      [lagFrom, hour + 1],
    ] as const) {
      if (to <= from) continue;
      const start = Math.max(from, 0);
      const rise = start < this.timeline.hours ? c.firstRise[start]! : this.timeline.hours;
      const first = rise < Math.min(to, hour) ? rise : from;
      out.push({
        ad_id: series.adId,
        hour: new Date(this.timeline.startMs + first * HOUR_MS).toISOString(),
        spend: (at(to, c.spend) - at(from, c.spend)) / 100,
        impressions: at(to, c.impressions) - at(from, c.impressions),
      });
    }
  }
}

/** Where the engine's hourly read begins (server/engine/hourlyRead.ts): days back in the account's zone. */
export const hourlySinceOf = (atMs: number, zone: string) =>
  DateTime.fromMillis(atMs, { zone: validZone(zone) })
    .minus({ days: HOURLY_DAYS })
    .startOf('day')
    .toMillis();
