/**
 * Reading and maintaining the metric history (table ad_metric_history, see its schema): an
 * account's readings over a span as per-ad hourly series, the bulk write of backfilled (settled)
 * days, what an account holds, and pruning.
 */
import { and, eq, gte, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { adHistoryNames, adMetricHistory } from '../db/schema/index';
import { dayOf, dayStartMs, DAY_MS, HOUR_MS, METRICS, type AdNumbers, type MetricName } from './reading';

/** One ad's readings, hour by hour from the timeline's start. */
export interface AdSeries {
  adId: string;
  adName: string;
  campaignId: string;
  campaignName: string;
  /** The campaign's daily budget in cents, when known. */
  budgetCents: number | null;
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

/** The numbers an ad's series holds at an hour that has a reading. */
export function numbersAt(series: AdSeries, hour: number): AdNumbers {
  const out = {} as AdNumbers;
  for (const metric of METRICS) {
    const v = series.values[metric][hour]!;
    out[metric] = Number.isNaN(v) ? null : v;
  }
  return out;
}

const bitSet = (mask: number, hour: number) => (mask & (1 << hour)) !== 0;

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
  const firstDay = dayOf(fromMs - lookBackDays * DAY_MS);
  const lastDay = dayOf(toMs);
  const startMs = dayStartMs(firstDay);
  const hours = Math.round((dayStartMs(lastDay) - startMs) / HOUR_MS) + 24;
  const wanted = METRICS.filter((m) => m === 'spendCents' || m === 'impressions' || metrics.includes(m));
  const line = sql.raw(
    `string_agg(concat_ws(E'\\t', ad_id, campaign_id, day::text, read_mask, settled_mask, on_mask, campaign_on_mask, ${wanted
      .map((m) => `coalesce(array_to_string(${COLUMN[m]}, ',', ''), '')`)
      .join(', ')}), E'\\n')`,
  );
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
  const nameOf = new Map(names.map((n) => [n.adId, n]));
  // An ad known only from a backfill may have no name row yet: its campaign's name is its siblings'.
  const campaignNameOf = new Map(names.map((n) => [n.campaignId, n.campaignName]));
  const byAd = new Map<string, AdSeries>();
  const seriesOf = (adId: string, campaignId: string): AdSeries => {
    let series = byAd.get(adId);
    if (!series) {
      const name = nameOf.get(adId);
      const values = {} as Record<MetricName, Float64Array>;
      for (const metric of METRICS) values[metric] = new Float64Array(hours).fill(Number.NaN);
      series = {
        adId,
        adName: name?.adName ?? adId,
        campaignId: name?.campaignId ?? campaignId,
        campaignName: name?.campaignName ?? campaignNameOf.get(campaignId) ?? campaignId,
        budgetCents: name?.campaignDailyBudget ?? null,
        latest: new Int32Array(hours).fill(-1),
        values,
        read: new Uint8Array(hours),
        settled: new Uint8Array(hours),
        on: new Uint8Array(hours),
        campaignOn: new Uint8Array(hours),
      };
      byAd.set(adId, series);
    }
    return series;
  };
  for (const text of texts.map((r) => r.rows[0]?.t ?? '')) {
    if (!text) continue;
    for (const row of text.split('\n')) {
      const f = row.split('\t');
      const series = seriesOf(f[0]!, f[1]!);
      const base = Math.round((dayStartMs(f[2]!) - startMs) / HOUR_MS);
      const [readMask, settledMask, onMask, campaignOnMask] = [f[3], f[4], f[5], f[6]].map(Number) as number[];
      const cells = wanted.map((_, k) => f[7 + k]!.split(','));
      for (let h = 0; h < 24; h += 1) {
        if (!bitSet(readMask!, h)) continue;
        const at = base + h;
        series.read[at] = 1;
        series.settled[at] = bitSet(settledMask!, h) ? 1 : 0;
        series.on[at] = bitSet(onMask!, h) ? 1 : 0;
        series.campaignOn[at] = bitSet(campaignOnMask!, h) ? 1 : 0;
        for (const [k, metric] of wanted.entries()) {
          const v = cells[k]![h];
          series.values[metric][at] = v === undefined || v === '' ? Number.NaN : Number(v);
        }
      }
    }
  }
  for (const series of byAd.values()) {
    let last = -1;
    for (let h = 0; h < hours; h += 1) {
      if (series.read[h]) last = h;
      series.latest[h] = last;
    }
  }
  return { adAccountId, startMs, hours, ads: [...byAd.values()] };
}

/** One ad's day of backfilled numbers: 24 cumulative values per metric (null: no reading). */
export interface SettledDay {
  day: string;
  adId: string;
  campaignId: string;
  values: Record<MetricName, (number | null)[]>;
  readMask: number;
  onMask: number;
  campaignOnMask: number;
}

const COLUMN: Record<MetricName, string> = {
  spendCents: 'spend_cents',
  impressions: 'impressions',
  clicks: 'clicks',
  linkClicks: 'link_clicks',
  leads: 'leads',
  websiteLeads: 'website_leads',
};

/** Live readings (read, not settled) of the stored row win over the backfilled ones, hour by hour. */
const LIVE = 'h.read_mask & ~h.settled_mask';
const mergedColumn = (column: string) =>
  `${column} = array(select case when (${LIVE}) & (1 << (i - 1)) <> 0 then h.${column}[i] else excluded.${column}[i] end from generate_series(1, 24) as i order by i)`;

const WRITE_CHUNK = 2_000;

/** Writes backfilled days; the hours that already hold a live reading keep it. */
export async function writeSettledDays(db: Database, adAccountId: string, days: SettledDay[]): Promise<void> {
  const columns = Object.values(COLUMN);
  const merge = sql.raw(
    [
      'campaign_id = excluded.campaign_id',
      ...columns.map(mergedColumn),
      `on_mask = (h.on_mask & (${LIVE})) | (excluded.on_mask & ~(${LIVE}))`,
      `campaign_on_mask = (h.campaign_on_mask & (${LIVE})) | (excluded.campaign_on_mask & ~(${LIVE}))`,
      `settled_mask = (h.settled_mask | excluded.read_mask) & ~(${LIVE})`,
      'read_mask = h.read_mask | excluded.read_mask',
    ].join(',\n'),
  );
  const list = sql.raw(columns.join(', '));
  const types = sql.raw(columns.map((c) => `${c} int[]`).join(', '));
  for (let i = 0; i < days.length; i += WRITE_CHUNK) {
    const json = JSON.stringify(
      days.slice(i, i + WRITE_CHUNK).map((d) => ({
        day: d.day,
        ad_id: d.adId,
        campaign_id: d.campaignId,
        read_mask: d.readMask,
        on_mask: d.onMask,
        campaign_on_mask: d.campaignOnMask,
        ...Object.fromEntries(METRICS.map((m) => [COLUMN[m], d.values[m]])),
      })),
    );
    await db.execute(sql`
      insert into ad_metric_history as h (ad_account_id, day, ad_id, campaign_id, ${list}, read_mask,
        settled_mask, on_mask, campaign_on_mask)
      select ${adAccountId}, r.day, r.ad_id, r.campaign_id, ${list}, r.read_mask, r.read_mask, r.on_mask,
        r.campaign_on_mask
      from jsonb_to_recordset(${json}::jsonb) as r(day date, ad_id text, campaign_id text, ${types},
        read_mask int, on_mask int, campaign_on_mask int)
      on conflict (ad_account_id, day, ad_id) do update set ${merge}`);
  }
}

/** Names of ads known only from a backfill (no live reading named them yet). */
export async function writeNames(
  db: Database,
  adAccountId: string,
  names: { adId: string; adName: string; campaignId: string; campaignName: string; budgetCents: number | null }[],
  readAt: Date,
): Promise<void> {
  if (!names.length) return;
  await db
    .insert(adHistoryNames)
    .values(names.map((n) => ({ ...n, adAccountId, campaignDailyBudget: n.budgetCents, readAt })))
    .onConflictDoNothing();
}

export interface HistoryCoverage {
  /** Days holding at least one reading. */
  days: number;
  ads: number;
  first: string | null;
  last: string | null;
  /** Readings kept in total, and how many of them are backfilled (settled) numbers. */
  readings: number;
  settledReadings: number;
}

const bits = (column: string) => sql.raw(`length(replace(((${column})::bit(24))::text, '0', ''))`);

export async function historyCoverage(db: Database, adAccountId: string): Promise<HistoryCoverage> {
  const [row] = await db
    .select({
      days: sql<number>`count(distinct ${adMetricHistory.day})::int`,
      ads: sql<number>`count(distinct ${adMetricHistory.adId})::int`,
      first: sql<string | null>`min(${adMetricHistory.day})::text`,
      last: sql<string | null>`max(${adMetricHistory.day})::text`,
      readings: sql<number>`coalesce(sum(${bits('read_mask')}), 0)::int`,
      settledReadings: sql<number>`coalesce(sum(${bits('settled_mask')}), 0)::int`,
    })
    .from(adMetricHistory)
    .where(eq(adMetricHistory.adAccountId, adAccountId));
  return row!;
}

/** Drops readings of days before `olderThan`'s UTC day, and names no longer read since. */
export async function pruneHistory(db: Database, olderThan: Date): Promise<void> {
  await db.delete(adMetricHistory).where(lt(adMetricHistory.day, dayOf(olderThan.getTime())));
  await db.delete(adHistoryNames).where(lt(adHistoryNames.readAt, olderThan));
}
