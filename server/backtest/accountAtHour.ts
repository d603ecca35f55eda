/**
 * The ad account as a live read at one hour of the history would have seen it: statuses, the
 * lifetime insight rows of what was delivering, and — when the rule reads them — the hourly
 * delivery rows the judging settings use (server/judgement/lateData.ts), all in the shapes the engine's
 * evaluator takes, with the replay's own turn-offs applied.
 *
 * The hourly rows come from the differences of successive readings. They are handed over merged
 * into at most two rows per ad — the hours before the lag window and the hours inside it — each
 * dated at its first hour with impressions: the judging reads only the first delivering hour, the
 * impressions of the rows and the spend of the rows inside the lag window, which merging keeps.
 */
import { DateTime } from 'luxon';
import type { Ad, Campaign, InsightRow } from '../adplatform/types';
import type { AccountSnapshot } from '../judgement/evaluate';
import { HOURLY_DAYS } from '../run/hourlyRead';
import type { HourlyRow } from '../judgement/lateData';
import { validZone } from '../judgement/scheduleSlots';
import { HOUR_MS, insightRowOf } from '../history/reading';
import { hourIndex, numbersAt, type AdSeries, type Timeline } from '../history/timeline';

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
  /** Per ad: its campaign's index; per campaign: one of its ads, and whether the replay turned it off. */
  private readonly campaignOf: Int32Array;
  private readonly campaignSeries: AdSeries[] = [];
  private readonly campaignOff: Uint8Array;
  /** Per ad: the replay turned it off. */
  private readonly adOff: Uint8Array;
  private readonly adIndex = new Map<string, number>();
  private readonly campaignIndex = new Map<string, number>();
  /** Per campaign at the hour being built: -1 nothing read yet, 0 off, 1 on. */
  private readonly campaignState: Int8Array;

  constructor(
    private readonly timeline: Timeline,
    /** Campaigns whose ads the rule may judge (its name filters): only their rows are built. */
    matches: (campaignName: string) => boolean,
  ) {
    const { ads } = timeline;
    this.inScope = Uint8Array.from(ads, (s) => (matches(s.campaignName) ? 1 : 0));
    this.rowRead = new Int32Array(ads.length).fill(-1);
    this.adOff = new Uint8Array(ads.length);
    this.campaignOf = new Int32Array(ads.length);
    for (const [i, series] of ads.entries()) {
      let c = this.campaignIndex.get(series.campaignId);
      if (c === undefined) {
        c = this.campaignSeries.length;
        this.campaignSeries.push(series);
        this.campaignIndex.set(series.campaignId, c);
      }
      this.campaignOf[i] = c;
      this.adIndex.set(series.adId, i);
    }
    this.campaignOff = new Uint8Array(this.campaignSeries.length);
    this.campaignState = new Int8Array(this.campaignSeries.length);
  }

  /** The replay turned an ad or a campaign off (or back on): its snapshots show it so. */
  setTurnedOff(objectId: string, off: boolean) {
    const ad = this.adIndex.get(objectId);
    const campaign = this.campaignIndex.get(objectId);
    if (ad !== undefined) this.adOff[ad] = off ? 1 : 0;
    if (campaign !== undefined) this.campaignOff[campaign] = off ? 1 : 0;
  }

  /**
   * The account at this hour, with the replay's own turn-offs applied. Unless `keep.allAds`, the
   * ads that are off are left out — a run judges them "already off", and they do not deliver — but
   * for the replay's own turn-offs when `keep.paused` (revive reads them); and with `keep.judged`,
   * the delivering ads it does not name (crossing.ts). `delivering` counts every delivering ad,
   * listed or not: the blast-radius limit's base, as the evaluator counts it on a whole account.
   */
  snapshot(
    hour: number,
    currency: string,
    hourly: HourlyNeed | null,
    keep: { allAds: boolean; paused: boolean; judged?: (index: number, series: AdSeries, read: number) => boolean },
  ): { snapshot: AccountSnapshot; delivering: number } {
    const { ads: all } = this.timeline;
    const state = this.campaignStates(hour);
    const campaigns: Campaign[] = [];
    for (const [c, series] of this.campaignSeries.entries())
      if (state[c]! >= 0) campaigns.push(this.campaign(series, state[c] === 1));
    const atMs = this.timeline.startMs + hour * HOUR_MS;
    const hourlySince = hourly ? hourlySinceOf(atMs, hourly.zone) : null;
    const ads: Ad[] = [];
    const insights: InsightRow[] = [];
    const hourlyRows: HourlyRow[] = [];
    let delivering = 0;
    for (let i = 0; i < all.length; i += 1) {
      const series = all[i]!;
      const read = series.latest[hour]!;
      if (read < 0) continue;
      const campaignOn = state[this.campaignOf[i]!] === 1;
      // The replay's own turn-off holds the ad off whether or not it was on in reality (where the rule
      // itself, run live, may have turned it off): revive reads it either way.
      const pausedHere = this.adOff[i] === 1;
      const adOn = series.on[read] === 1 && !pausedHere;
      if (adOn && campaignOn) {
        delivering += 1;
        if (keep.judged && !(this.inScope[i] && keep.judged(i, series, read))) continue;
      } else if (!keep.allAds && !(keep.paused && pausedHere)) continue;
      ads.push(this.ad(series, adOn ? (campaignOn ? 'ACTIVE' : 'CAMPAIGN_PAUSED') : 'PAUSED'));
      // A live read keeps the rows of what is delivering (server/run/accountSnapshots.ts).
      if (!(campaignOn || adOn) || !this.inScope[i]) continue;
      insights.push(this.rowOf(i, series, read));
      if (hourly && campaignOn) this.hourlyRows(i, series, hour, hourlySince!, hourly.lagHours, hourlyRows);
    }
    const snapshot: AccountSnapshot = {
      currency,
      campaigns,
      ads,
      insights,
      readAt: new Date(atMs).toISOString(),
      ...(hourly ? { hourly: hourlyRows, hourlySince: new Date(hourlySince!).toISOString() } : {}),
    };
    return { snapshot, delivering };
  }

  /**
   * Whether a snapshot at this hour would hand the evaluator a delivering ad (in the rule's scope,
   * named by `judged`): without one, and without turn-offs of its own to revive, an hour judges nothing.
   */
  judgesAny(hour: number, judged: (index: number, series: AdSeries, read: number) => boolean): boolean {
    const { ads: all } = this.timeline;
    const state = this.campaignStates(hour);
    for (let i = 0; i < all.length; i += 1) {
      const series = all[i]!;
      const read = series.latest[hour]!;
      if (read < 0 || state[this.campaignOf[i]!] !== 1 || series.on[read] !== 1 || this.adOff[i] === 1) continue;
      if (this.inScope[i] && judged(i, series, read)) return true;
    }
    return false;
  }

  /** Per campaign at the hour: -1 nothing read yet, 0 off, 1 on (the replay's turn-offs applied). */
  private campaignStates(hour: number): Int8Array {
    const { ads: all } = this.timeline;
    const state = this.campaignState.fill(-1);
    for (let i = 0; i < all.length; i += 1) {
      const series = all[i]!;
      const read = series.latest[hour]!;
      const c = this.campaignOf[i]!;
      if (read < 0 || state[c] === 1) continue;
      state[c] = series.campaignOn[read] === 1 && !this.campaignOff[c] ? 1 : 0;
    }
    return state;
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
      this.rowCache[index] = insightRowOf(series, numbersAt(series, read));
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

/** Where the engine's hourly read begins (server/run/hourlyRead.ts): days back in the account's zone. */
export const hourlySinceOf = (atMs: number, zone: string) =>
  DateTime.fromMillis(atMs, { zone: validZone(zone) })
    .minus({ days: HOURLY_DAYS })
    .startOf('day')
    .toMillis();
