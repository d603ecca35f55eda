/**
 * An account's metric history over a span, read as one series per ad, hour by hour: the latest
 * reading at or before each hour, its numbers, and whether it was settled, the ad on and its
 * campaign on. What the backtest replays and the impact report reads.
 */
import { and, eq, gte, inArray, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { adHistoryNames, adMetricHistory } from '../db/schema/index';
import { dayOf, dayStartMs, DAY_MS, HOUR_MS, METRICS, type AdNumbers, type MetricName } from './reading';
import { decodeHistoryTexts, type DecodedAd } from './historyText.mjs';
import { type AdNaming, COLUMN } from './store';

/** One ad's readings, hour by hour from the timeline's start. */
export interface AdSeries extends AdNaming {
  /** Per hour: the hour of the latest reading at or before it; -1 before the first. */
  latest: Int32Array;
  /** Per hour, per metric; NaN where not reported. Meaningful where the hour holds a reading. */
  values: Record<MetricName, Float64Array>;
  read: Uint8Array;
  settled: Uint8Array;
  on: Uint8Array;
  campaignOn: Uint8Array;
}

export interface Timeline {
  adAccountId: string;
  /** UTC midnight of the first day loaded: hour 0 of every series. */
  startMs: number;
  hours: number;
  ads: AdSeries[];
}

export const hourIndex = (timeline: Pick<Timeline, 'startMs'>, at: number) =>
  Math.floor((at - timeline.startMs) / HOUR_MS);

const orNull = (v: number) => (Number.isNaN(v) ? null : v);

/** The numbers an ad's series holds at an hour that has a reading (spelled out: a backtest asks at every hour). */
export function numbersAt(series: AdSeries, hour: number): AdNumbers {
  const v = series.values;
  return {
    spendCents: orNull(v.spendCents[hour]!),
    impressions: orNull(v.impressions[hour]!),
    clicks: orNull(v.clicks[hour]!),
    linkClicks: orNull(v.linkClicks[hour]!),
    leads: orNull(v.leads[hour]!),
    websiteLeads: orNull(v.websiteLeads[hour]!),
  };
}

/** The hours a timeline of [fromMs, toMs) holds: from UTC midnight `lookBackDays` before its start to the end of its last day. */
export function timelineSpan(fromMs: number, toMs: number, lookBackDays: number): Pick<Timeline, 'startMs' | 'hours'> {
  const startMs = dayStartMs(dayOf(fromMs - lookBackDays * DAY_MS));
  return { startMs, hours: Math.round((dayStartMs(dayOf(toMs)) - startMs) / HOUR_MS) + 24 };
}

/** The metrics a read of these returns: spend and impressions always (the evaluator reads them on every ad). */
export const metricsWanted = (metrics: readonly MetricName[]): MetricName[] =>
  METRICS.filter((m) => m === 'spendCents' || m === 'impressions' || metrics.includes(m));

/** A row's line as seriesFromTexts reads it: ids, day, masks, then `wanted`'s cells (kept as text by the database). */
export const historyLine = (wanted: readonly MetricName[]) =>
  sql.raw(
    `concat_ws(E'\\t', ad_id, campaign_id, day::text, read_mask, settled_mask, on_mask, campaign_on_mask, ${wanted
      .map((m) => `${COLUMN[m]}_text`)
      .join(', ')})`,
  );

/** Days read per statement: each answers one text of every reading in its days (set-based, one round trip). */
const LOAD_DAYS = 8;

/**
 * The account's readings from `lookBackDays` days before `fromMs` (so the first hours have the
 * latest earlier reading) up to `toMs`, one series per ad. Spend and impressions are always read;
 * `metrics` adds others (those not read stay unreported). The rows come back as one tab-separated
 * text per few days: decoding a few texts is far cheaper than thousands of rows of integer arrays.
 */
export async function loadTimeline(
  db: Database,
  adAccountId: string,
  fromMs: number,
  toMs: number,
  lookBackDays = 2,
  /** Only these ads, and the ads of these campaigns (default: every ad of the account). */
  only?: { adIds: string[]; campaignIds: string[] },
  metrics: readonly MetricName[] = METRICS,
): Promise<Timeline> {
  const { startMs, hours } = timelineSpan(fromMs, toMs, lookBackDays);
  const lastDay = dayOf(toMs);
  const wanted = metricsWanted(metrics);
  const line = sql`string_agg(${historyLine(wanted)}, E'\\n')`;
  const chunks: Promise<{ rows: { t: string | null }[] }>[] = [];
  for (let day = startMs; day <= dayStartMs(lastDay); day += LOAD_DAYS * DAY_MS) {
    const until = dayOf(Math.min(day + (LOAD_DAYS - 1) * DAY_MS, dayStartMs(lastDay)));
    const where = and(
      eq(adMetricHistory.adAccountId, adAccountId),
      gte(adMetricHistory.day, dayOf(day)),
      lte(adMetricHistory.day, until),
      only
        ? or(inArray(adMetricHistory.adId, only.adIds), inArray(adMetricHistory.campaignId, only.campaignIds))
        : undefined,
    );
    chunks.push(
      db.execute(sql`select ${line} as t from ${adMetricHistory} where ${where}`) as unknown as Promise<{
        rows: { t: string | null }[];
      }>,
    );
  }
  const [texts, names] = await Promise.all([
    Promise.all(chunks),
    db.select().from(adHistoryNames).where(eq(adHistoryNames.adAccountId, adAccountId)),
  ]);
  return {
    adAccountId,
    startMs,
    hours,
    ads: seriesFromTexts(
      texts.map((r) => r.rows[0]?.t ?? ''),
      names,
      { startMs, hours },
      wanted,
    ),
  };
}

/** The name row of an ad (ad_history_names). */
type AdNames = Pick<
  typeof adHistoryNames.$inferSelect,
  'adId' | 'adName' | 'campaignId' | 'campaignName' | 'campaignDailyBudget' | 'optimizationGoal'
>;

/** The series of the ads the texts hold (lines of loadTimeline's statement: ids, day, masks, then `wanted`'s cells). */
export function seriesFromTexts(
  texts: string[],
  names: AdNames[],
  span: Pick<Timeline, 'startMs' | 'hours'>,
  wanted: readonly MetricName[],
): AdSeries[] {
  return seriesFromDecoded(decodeHistoryTexts(texts, wanted.length, span.startMs, span.hours), names, span, wanted);
}

/** The series of decoded ads (decodeHistoryTexts: `wanted`'s values, then the flags), named from their name rows. */
export function seriesFromDecoded(
  decoded: DecodedAd[],
  names: AdNames[],
  { hours }: Pick<Timeline, 'startMs' | 'hours'>,
  wanted: readonly MetricName[],
): AdSeries[] {
  const nameOf = new Map(names.map((n) => [n.adId, n]));
  // An ad known only from a backfill may have no name row yet: its campaign's name is its siblings'.
  const campaignNameOf = new Map(names.map((n) => [n.campaignId, n.campaignName]));
  // The metrics not read are unreported everywhere: every series shares one array of them (never written).
  const nothing = new Float64Array(hours).fill(Number.NaN);
  // By id: the order the database hands rows over in is its own, and a replay judges ads in this order.
  const byId = [...decoded].sort((a, b) => (a.adId < b.adId ? -1 : a.adId > b.adId ? 1 : 0));
  return byId.map(({ adId, campaignId, buffer }) => {
    const name = nameOf.get(adId);
    const values = Object.fromEntries(METRICS.map((m) => [m, nothing])) as Record<MetricName, Float64Array>;
    for (const [k, metric] of wanted.entries()) values[metric] = new Float64Array(buffer, k * hours * 8, hours);
    const flags = wanted.length * hours * 8;
    const read = new Uint8Array(buffer, flags, hours);
    const latest = new Int32Array(hours);
    for (let h = 0, last = -1; h < hours; h += 1) {
      if (read[h]) last = h;
      latest[h] = last;
    }
    return {
      adId,
      adName: name?.adName ?? adId,
      campaignId: name?.campaignId ?? campaignId,
      campaignName: name?.campaignName ?? campaignNameOf.get(campaignId) ?? campaignId,
      budgetCents: name?.campaignDailyBudget ?? null,
      optimizationGoal: name?.optimizationGoal ?? null,
      latest,
      values,
      read,
      settled: new Uint8Array(buffer, flags + hours, hours),
      on: new Uint8Array(buffer, flags + 2 * hours, hours),
      campaignOn: new Uint8Array(buffer, flags + 3 * hours, hours),
    };
  });
}
