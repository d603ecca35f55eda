/**
 * The metric history of many ad accounts at once, for a fleet's preview: one statement answers one
 * text per ad of every account of the batch (the lines timeline.ts reads), each account's rows found
 * through its index; one more their ads' names. Measured against one text per account (a string of
 * 130 KB to 1 MB costs Node many times what a smaller or a larger one does), a row per line (PGlite
 * hands each row over at a cost) and grouping the batch's rows (PostgreSQL sorts them first); the
 * texts are decoded on a worker thread (decodeWorker.ts). Each rule then replays its own view of its
 * account's timeline — the days and metrics a single backtest of it would have loaded (timelineSpan,
 * metricsWanted) — so a replay on the view decides exactly what the backtest decides, and the rules
 * of a folder share one read.
 */
import { and, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { adHistoryNames, adMetricHistory } from '../db/schema/index';
import { dayOf, HOUR_MS, METRICS, type MetricName } from '../history/reading';
import { decodeInWorker } from '../history/decodeWorker';
import { historyLine, seriesFromDecoded, type AdSeries, type Timeline } from '../history/timeline';

type Span = Pick<Timeline, 'startMs' | 'hours'>;

/** A timeline as loaded for many rules: with the metrics it holds (the others unreported). */
export interface LoadedTimeline extends Timeline {
  metrics: readonly MetricName[];
}

/** Each account's timeline over `span` with the `wanted` metrics (an account without readings: no ads). */
export async function loadTimelines(
  db: Database,
  adAccountIds: readonly string[],
  span: Span,
  wanted: readonly MetricName[],
): Promise<Map<string, LoadedTimeline>> {
  const ids = [...new Set(adAccountIds)];
  const timelines = new Map<string, LoadedTimeline>();
  if (!ids.length) return timelines;
  const days = and(
    gte(adMetricHistory.day, dayOf(span.startMs)),
    lte(adMetricHistory.day, dayOf(span.startMs + (span.hours - 1) * HOUR_MS)),
  );
  const accounts = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const [texts, names] = await Promise.all([
    db.execute(
      sql`select a.id as account, ad.t from unnest(array[${accounts}]::text[]) as a(id) cross join lateral (select string_agg(${historyLine(wanted)}, E'\\n') as t from ${adMetricHistory} where ${adMetricHistory.adAccountId} = a.id and ${days} group by ${adMetricHistory.adId}) as ad`,
    ) as unknown as Promise<{ rows: { account: string; t: string }[] }>,
    db.select().from(adHistoryNames).where(inArray(adHistoryNames.adAccountId, ids)),
  ]);
  const textsOf = new Map<string, string[]>();
  for (const { account, t } of texts.rows) {
    const list = textsOf.get(account);
    if (list) list.push(t);
    else textsOf.set(account, [t]);
  }
  const namesOf = new Map<string, (typeof names)[number][]>();
  for (const n of names) {
    const list = namesOf.get(n.adAccountId);
    if (list) list.push(n);
    else namesOf.set(n.adAccountId, [n]);
  }
  // Decoded on the worker thread, while this one replays the batch before.
  const decoded = await Promise.all(
    ids.map((adAccountId) => decodeInWorker(textsOf.get(adAccountId) ?? [], wanted.length, span.startMs, span.hours)),
  );
  for (const [i, adAccountId] of ids.entries())
    timelines.set(adAccountId, {
      adAccountId,
      ...span,
      metrics: wanted,
      ads: seriesFromDecoded(decoded[i]!, namesOf.get(adAccountId) ?? [], span, wanted),
    });
  return timelines;
}

/**
 * The timeline a single backtest would have loaded over `span` (which starts at or after the loaded
 * one's start and ends with it) with only the `wanted` metrics: the hours before it cut off (each
 * hour's latest reading found anew inside it, an ad without one left out), the other metrics unreported.
 */
export function timelineView(loaded: LoadedTimeline, span: Span, wanted: readonly MetricName[]): Timeline {
  const offset = Math.round((span.startMs - loaded.startMs) / HOUR_MS);
  if (offset < 0 || offset + span.hours > loaded.hours)
    throw new Error('A view of a timeline lies within the timeline loaded');
  // The same hours and no metric the rule does not read: the loaded timeline is the view.
  if (offset === 0 && span.hours === loaded.hours && loaded.metrics.every((m) => wanted.includes(m))) return loaded;
  const unreported = new Float64Array(span.hours).fill(Number.NaN);
  const ads: AdSeries[] = [];
  for (const series of loaded.ads) {
    const cut = <A extends Float64Array | Uint8Array>(values: A) => values.subarray(offset, offset + span.hours) as A;
    const read = cut(series.read);
    if (!read.includes(1)) continue;
    const values = Object.fromEntries(
      METRICS.map((m) => [m, wanted.includes(m) ? cut(series.values[m]) : unreported]),
    ) as Record<MetricName, Float64Array>;
    const latest = new Int32Array(span.hours);
    for (let h = 0, last = -1; h < span.hours; h += 1) {
      if (read[h]) last = h;
      latest[h] = last;
    }
    ads.push({
      ...series,
      latest,
      values,
      read,
      settled: cut(series.settled),
      on: cut(series.on),
      campaignOn: cut(series.campaignOn),
    });
  }
  return { adAccountId: loaded.adAccountId, ...span, ads };
}
