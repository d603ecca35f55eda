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
import { HOUR_MS, insightRowOf, type AdNumbers } from '../history/reading';
import { hourIndex, type AdSeries, type Timeline } from '../history/store';

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

/** A cumulative value at hour h as known at `hour` (0 before the timeline). */
const valueAt = (values: Float64Array, h: number, hour: number) => (h < 0 ? 0 : values[Math.min(h, hour)]!);

const orNull = (v: number) => (Number.isNaN(v) ? null : v);

/** The numbers of a reading (store.ts's numbersAt, spelled out: this runs for every ad at every hour). */
function numbersOf(series: AdSeries, read: number): AdNumbers {
  const v = series.values;
  return {
    spendCents: orNull(v.spendCents[read]!),
    impressions: orNull(v.impressions[read]!),
    clicks: orNull(v.clicks[read]!),
    linkClicks: orNull(v.linkClicks[read]!),
    leads: orNull(v.leads[read]!),
    websiteLeads: orNull(v.websiteLeads[read]!),
  };
}

type AdState = 'ACTIVE' | 'PAUSED' | 'CAMPAIGN_PAUSED';

export class AccountAtHour {
  /** Per ad (the timeline's order): its campaign passes the rule's name filters. */
  private readonly inScope: Uint8Array;
  /** Per ad: the reading its cached insight row was made from (-1: none yet), and the row. */
  private readonly rowRead: Int32Array;
  private readonly rowCache: InsightRow[] = [];
  private readonly cumulative: (Cumulative | undefined)[] = [];
  /** The status objects, made once per object and state: a snapshot only points at them. */
  private readonly adObjects = new Map<string, Ad>();
  private readonly campaignObjects = new Map<string, Campaign>();
  private readonly isoHours: string[] = [];

  constructor(
    private readonly timeline: Timeline,
    /** Campaigns whose ads the rule may judge (its name filters): only their rows are built. */
    matches: (campaignName: string) => boolean,
  ) {
    this.inScope = Uint8Array.from(timeline.ads, (s) => (matches(s.campaignName) ? 1 : 0));
    this.rowRead = new Int32Array(timeline.ads.length).fill(-1);
  }

  /**
   * The account at this hour, with the replay's own pauses applied. Unless `keep.allAds`, the ads
   * that are off are left out — a run judges them "already off", and they do not deliver — but for
   * the replay's own turn-offs when `keep.paused` (revive reads them).
   */
  snapshot(
    hour: number,
    currency: string,
    paused: ReadonlySet<string>,
    hourly: HourlyNeed | null,
    keep: { allAds: boolean; paused: boolean },
  ): AccountSnapshot {
    const { ads: all } = this.timeline;
    const campaigns = new Map<string, Campaign>();
    for (const series of all) {
      const read = series.latest[hour]!;
      if (read < 0) continue;
      const campaignOn = series.campaignOn[read] === 1 && !paused.has(series.campaignId);
      const known = campaigns.get(series.campaignId);
      if (!known || (campaignOn && known.status !== 'ACTIVE'))
        campaigns.set(series.campaignId, this.campaign(series, campaignOn));
    }
    const atMs = this.timeline.startMs + hour * HOUR_MS;
    const hourlySince = hourly ? hourlySinceOf(atMs, hourly.zone) : null;
    const ads: Ad[] = [];
    const insights: InsightRow[] = [];
    const hourlyRows: HourlyRow[] = [];
    for (let i = 0; i < all.length; i += 1) {
      const series = all[i]!;
      const read = series.latest[hour]!;
      if (read < 0) continue;
      const campaignOn = campaigns.get(series.campaignId)!.status === 'ACTIVE';
      const ownOn = series.on[read] === 1;
      const pausedHere = ownOn && paused.size > 0 && paused.has(series.adId);
      const adOn = ownOn && !pausedHere;
      if (!keep.allAds && !(adOn && campaignOn) && !(keep.paused && pausedHere)) continue;
      ads.push(this.ad(series, adOn ? (campaignOn ? 'ACTIVE' : 'CAMPAIGN_PAUSED') : 'PAUSED'));
      // A live read keeps the rows of what is delivering (server/engine/snapshots.ts).
      if (!(campaignOn || adOn) || !this.inScope[i]) continue;
      insights.push(this.rowOf(i, series, read));
      if (hourly && campaignOn) this.hourlyRows(i, series, hour, hourlySince!, hourly.lagHours, hourlyRows);
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

  private ad(series: AdSeries, state: AdState): Ad {
    const key = `${series.adId}\u0000${state}`;
    let ad = this.adObjects.get(key);
    if (!ad) {
      ad = {
        id: series.adId,
        name: series.adName,
        status: state === 'PAUSED' ? 'PAUSED' : 'ACTIVE',
        effective_status: state,
        campaign_id: series.campaignId,
        adset_id: '',
      };
      this.adObjects.set(key, ad);
    }
    return ad;
  }

  private campaign(series: AdSeries, on: boolean): Campaign {
    const key = `${series.campaignId}\u0000${on}`;
    let campaign = this.campaignObjects.get(key);
    if (!campaign) {
      const status = on ? 'ACTIVE' : 'PAUSED';
      campaign = { id: series.campaignId, name: series.campaignName, status, effective_status: status };
      this.campaignObjects.set(key, campaign);
    }
    return campaign;
  }

  private rowOf(index: number, series: AdSeries, read: number): InsightRow {
    if (this.rowRead[index] !== read) {
      this.rowCache[index] = insightRowOf(series, numbersOf(series, read));
      this.rowRead[index] = read;
    }
    return this.rowCache[index]!;
  }

  private isoHour(hour: number): string {
    const known = this.isoHours[hour + 1_000];
    if (known) return known;
    const iso = new Date(this.timeline.startMs + hour * HOUR_MS).toISOString();
    this.isoHours[hour + 1_000] = iso;
    return iso;
  }

  /** The ad's hourly rows from `sinceMs` to `hour`, merged before and inside the lag window. */
  private hourlyRows(
    index: number,
    series: AdSeries,
    hour: number,
    sinceMs: number,
    lagHours: number | null,
    out: HourlyRow[],
  ) {
    let c = this.cumulative[index];
    if (!c) {
      c = cumulativeOf(series, this.timeline.hours);
      this.cumulative[index] = c;
    }
    const since = hourIndex(this.timeline, sinceMs);
    // An hour that began inside the lag window counts whole (judging.ts): the window starts L hours back.
    const lagFrom = lagHours === null ? hour + 1 : Math.max(since, hour - lagHours);
    this.merged(series.adId, c, since, lagFrom, hour, out);
    this.merged(series.adId, c, lagFrom, hour + 1, hour, out);
  }

  /** Hours [from, to) as one row dated at its first hour with impressions (as known at `hour`). */
  private merged(adId: string, c: Cumulative, from: number, to: number, hour: number, out: HourlyRow[]) {
    if (to <= from) return;
    const start = Math.max(from, 0);
    const rise = start < this.timeline.hours ? c.firstRise[start]! : this.timeline.hours;
    out.push({
      ad_id: adId,
      hour: this.isoHour(rise < Math.min(to, hour) ? rise : from),
      spend: (valueAt(c.spend, to, hour) - valueAt(c.spend, from, hour)) / 100,
      impressions: valueAt(c.impressions, to, hour) - valueAt(c.impressions, from, hour),
    });
  }
}

/** Where the engine's hourly read begins (server/engine/hourlyRead.ts): days back in the account's zone. */
export const hourlySinceOf = (atMs: number, zone: string) =>
  DateTime.fromMillis(atMs, { zone: validZone(zone) })
    .minus({ days: HOURLY_DAYS })
    .startOf('day')
    .toMillis();
