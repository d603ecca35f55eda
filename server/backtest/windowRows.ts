/**
 * The insight rows a rule's conditions read at one hour of a backtest (a live run reads them from
 * Graph: server/judgement/conditions/inputs.ts), worked out from the metric history: the history
 * keeps each ad's lifetime numbers hour by hour, so a window's numbers are the latest reading at the
 * hour less the latest reading at the window's start (midnight in the account's zone, N − 1 days
 * back for last_N_days; nothing for lifetime). Ad sets, campaigns and the account add their ads up.
 *
 * What the history cannot give is no data, never zero: a window starting before the history's
 * first hour, a metric the history does not keep (reach, frequency), an ad with no reading yet. An
 * ad with no reading at the window's start while the account was already recorded had not
 * delivered yet: its window starts from nothing.
 */
import { DateTime } from 'luxon';
import type { InsightRow } from '../adplatform/types';
import { windowKey, type InsightLevel } from '../judgement/conditions/inputs';
import { validZone } from '../judgement/scheduleSlots';
import { lastDaysOf, type ConditionWindow } from '../../shared/ruleConditions';
import { insightRowOf, METRICS, type AdNumbers } from '../history/reading';
import { hourIndex, numbersAt, type AdSeries, type Timeline } from '../history/timeline';

export interface WindowRead {
  level: InsightLevel;
  window: ConditionWindow;
}

const ZERO: AdNumbers = Object.freeze(Object.fromEntries(METRICS.map((m) => [m, 0])) as AdNumbers);

/** The instant a window starts at, for a run at `atMs`; null for lifetime (from the start). */
export function windowStartMs(window: ConditionWindow, atMs: number, zone: string): number | null {
  if (window === 'lifetime') return null;
  const today = DateTime.fromMillis(atMs, { zone: validZone(zone) }).startOf('day');
  if (window === 'today') return today.toMillis();
  if (window === 'yesterday') return today.minus({ days: 1 }).toMillis();
  return today.minus({ days: lastDaysOf(window)! - 1 }).toMillis();
}

/** Where a window ends: now, but yesterday ends at today's midnight. */
const windowEndMs = (window: ConditionWindow, atMs: number, zone: string) =>
  window === 'yesterday'
    ? DateTime.fromMillis(atMs, { zone: validZone(zone) })
        .startOf('day')
        .toMillis()
    : atMs;

/** Each metric's growth from `base` to `end`; a metric either does not know is unknown. */
function delta(end: AdNumbers, base: AdNumbers): AdNumbers {
  const out = {} as AdNumbers;
  for (const m of METRICS) {
    const e = end[m];
    const b = base[m];
    out[m] = e === null || b === null ? null : Math.max(0, e - b);
  }
  return out;
}

/** Several ads' numbers added up; null when none has spend and impressions (no data). */
export function sumNumbers(items: readonly AdNumbers[]): AdNumbers | null {
  const known = items.filter((n) => n.spendCents !== null && n.impressions !== null);
  if (!known.length) return null;
  const out = {} as AdNumbers;
  for (const m of METRICS) {
    const values = known.map((n) => n[m]).filter((v): v is number => v !== null);
    out[m] = values.length ? values.reduce((a, b) => a + b, 0) : null;
  }
  return out;
}

export class WindowRows {
  /** The first hour any ad of the account has a reading: the history starts there. */
  private readonly firstRead: number;

  constructor(
    private readonly timeline: Timeline,
    private readonly reads: readonly WindowRead[],
    private readonly zone: string,
    /** Ads whose campaign the rule's name filters match (the account's row adds every ad). */
    private readonly inScope: (series: AdSeries) => boolean,
    /** Each ad's ad set, as the platform lists it now (the history does not keep ad sets). */
    private readonly adsetOfAd: ReadonlyMap<string, string>,
  ) {
    this.firstRead = timeline.ads.reduce((first, s) => {
      const at = s.latest.findIndex((h) => h >= 0);
      return at >= 0 ? Math.min(first, at) : first;
    }, timeline.hours);
  }

  /** One ad's numbers over a window at `hour`; null: no data. */
  numbersOver(series: AdSeries, window: ConditionWindow, atMs: number): AdNumbers | null {
    const endHour = Math.min(hourIndex(this.timeline, windowEndMs(window, atMs, this.zone)), this.timeline.hours - 1);
    if (endHour < 0) return null;
    const endRead = series.latest[endHour]!;
    const startMs = windowStartMs(window, atMs, this.zone);
    if (startMs === null) return endRead < 0 ? null : numbersAt(series, endRead);
    const startHour = hourIndex(this.timeline, startMs);
    if (startHour < this.firstRead) return null;
    const baseRead = series.latest[startHour]!;
    if (endRead < 0) return baseRead < 0 ? null : ZERO;
    return delta(numbersAt(series, endRead), baseRead < 0 ? ZERO : numbersAt(series, baseRead));
  }

  /** The rows of every read at the hour, by windowKey, as a live run's reads answer them. */
  at(atMs: number): Record<string, InsightRow[]> {
    const out: Record<string, InsightRow[]> = {};
    for (const { level, window } of this.reads) out[windowKey(level, window)] = this.rowsOf(level, window, atMs);
    return out;
  }

  private rowsOf(level: InsightLevel, window: ConditionWindow, atMs: number): InsightRow[] {
    const groups = new Map<string, { first: AdSeries; numbers: AdNumbers[] }>();
    for (const series of this.timeline.ads) {
      if (level !== 'account' && !this.inScope(series)) continue;
      const key =
        level === 'ad'
          ? series.adId
          : level === 'adset'
            ? this.adsetOfAd.get(series.adId)
            : level === 'campaign'
              ? series.campaignId
              : '';
      if (key === undefined) continue;
      const numbers = this.numbersOver(series, window, atMs);
      if (!numbers) continue;
      const group = groups.get(key) ?? { first: series, numbers: [] };
      group.numbers.push(numbers);
      groups.set(key, group);
    }
    const rows: InsightRow[] = [];
    for (const [key, { first, numbers }] of groups) {
      const sum = level === 'ad' ? numbers[0]! : sumNumbers(numbers);
      if (!sum) continue;
      const { ad_id: _adId, ...row } = insightRowOf(first, sum);
      if (level === 'adset') rows.push({ ...row, adset_id: key });
      else if (level !== 'ad') rows.push(row);
      else {
        const adset = this.adsetOfAd.get(key);
        rows.push({ ...row, ad_id: key, ...(adset ? { adset_id: adset } : {}) });
      }
    }
    return rows;
  }
}
