/**
 * The insights edge: rows per ad, ad set, campaign or account, per time bucket (`time_increment`)
 * of each period asked for, per hour of the day or audience segment (`breakdowns`), with lead
 * actions per attribution window. Numbers are what Graph reports at the simulated moment
 * (reporting.ts): every bucket, hour and segment is a sum of the same hourly figures, so days add
 * up to the lifetime and hours to their day. Periods are days in the ad account's time zone.
 *
 * `insights(world, now, account, params, …)` answers from parsed parameters, as the insights edge
 * and a field expansion (`insights.date_preset(last_7d){spend}`) ask (edges.ts).
 */
import { DateTime } from 'luxon';
import { page, type GraphAnswer, type GraphContext, type Params } from './answers';
import { addWindowCounts, countLead, emptyWindowCounts, type WindowCounts } from './attribution';
import { add, graphMetrics, ZERO, type Totals } from './delivery';
import { HOURLY, parseInsightQuery, type InsightQuery, type Period } from './insightQuery';
import { refuseFields } from './nodes';
import { actionsByDestination, destinationOf } from './destinations';
import { reportedTotals, reportFrame, type ReportFrame } from './reporting';
import { apportion, segmentsOf, splitTotals, type Segment } from './segments';
import type { SimAccount, SimAd, World } from './world';

export { DATE_PRESETS, presetPeriod } from './insightQuery';

/** The AdsInsights fields the simulator answers. */
export const SIMULATED_INSIGHT_FIELDS = [
  'account_currency',
  'account_id',
  'account_name',
  'campaign_id',
  'campaign_name',
  'adset_id',
  'adset_name',
  'ad_id',
  'ad_name',
  'objective',
  'buying_type',
  'optimization_goal',
  'spend',
  'impressions',
  'reach',
  'frequency',
  'clicks',
  'inline_link_clicks',
  'ctr',
  'inline_link_click_ctr',
  'cpc',
  'cost_per_inline_link_click',
  'cpm',
  'cpp',
  'unique_clicks',
  'unique_ctr',
  'cost_per_unique_click',
  'unique_inline_link_clicks',
  'cost_per_unique_inline_link_click',
  'outbound_clicks',
  'outbound_clicks_ctr',
  'cost_per_outbound_click',
  'actions',
  'cost_per_action_type',
  'date_start',
  'date_stop',
] as const;

/** Without `fields`, Graph answers spend and the dates. */
const DEFAULT_INSIGHT_FIELDS = ['spend'];
/** Unique-people metrics Graph does not give per hour. */
const NOT_HOURLY = [
  'reach',
  'frequency',
  'cpp',
  'unique_clicks',
  'unique_ctr',
  'cost_per_unique_click',
  'unique_inline_link_clicks',
  'cost_per_unique_inline_link_click',
];
const LEAD_ACTIONS: Record<string, (c: WindowCounts, w: keyof WindowCounts['onsite']) => number> = {
  lead: (c, w) => c.onsite[w] + c.website[w],
  'onsite_conversion.lead_grouped': (c, w) => c.onsite[w],
  'offsite_conversion.fb_pixel_lead': (c, w) => c.website[w],
};

interface Bucket extends Period {
  /** The hours (starts) whose figures make up this row's numbers, by hour of day; absent: the whole bucket. */
  hours?: Map<number, number[]>;
}

/** The time buckets of a period: whole, every N days, or calendar months, in the account's zone. */
function bucketsOf(period: Period, query: InsightQuery, zone: string): Period[] {
  if (query.increment === 'all_days') return [period];
  const buckets: Period[] = [];
  let start = DateTime.fromMillis(period.from, { zone });
  while (start.toMillis() < period.to) {
    const next =
      query.increment === 'monthly'
        ? start.startOf('month').plus({ months: 1 })
        : start.plus({ days: query.increment });
    buckets.push({ from: start.toMillis(), to: Math.min(next.toMillis(), period.to) });
    start = next;
  }
  return buckets;
}

/** The hours of a bucket grouped by hour of day in the account's zone. */
function hoursByHourOfDay(bucket: Period, zone: string): Map<number, number[]> {
  const hours = new Map<number, number[]>();
  const first = DateTime.fromMillis(bucket.from, { zone }).startOf('hour').toMillis();
  for (let at = first; at < bucket.to; at += 3_600_000) {
    const hour = DateTime.fromMillis(at, { zone }).hour;
    hours.set(hour, [...(hours.get(hour) ?? []), at]);
  }
  return hours;
}

interface Figures {
  totals: Totals;
  windows: WindowCounts;
}

/** One ad's figures over some [from, to) pieces, with its leads counted per window when asked. */
function adFigures(world: World, ad: SimAd, pieces: Period[], frame: ReportFrame, withWindows: boolean): Figures {
  let totals = ZERO;
  const windows = emptyWindowCounts();
  const onLead = withWindows ? (k: number, website: boolean) => countLead(windows, ad.id, k, website) : undefined;
  for (const piece of pieces) totals = add(totals, reportedTotals(world, ad, piece.from, piece.to, frame, onLead));
  return { totals, windows };
}

interface Group {
  ad: SimAd;
  segment: Segment;
  hour?: number;
  bucket: Period;
  totals: Totals;
  windows: WindowCounts;
}

function splitWindows(windows: WindowCounts, shares: number[]): WindowCounts[] {
  const parts = shares.map(() => emptyWindowCounts());
  for (const kind of ['onsite', 'website'] as const)
    for (const [window, count] of Object.entries(windows[kind]) as [keyof WindowCounts['onsite'], number][])
      apportion(count, shares).forEach((n, i) => {
        parts[i]![kind][window] = n;
      });
  return parts;
}

function groupRows(
  world: World,
  account: SimAccount,
  ads: SimAd[],
  query: InsightQuery,
  buckets: Bucket[],
  now: number,
) {
  const frame = reportFrame(now, account.timezone);
  const groups = new Map<string, Group>();
  const withWindows = query.windows.length > 0;
  // Each ad's segments, once per call: the same for every bucket and hour.
  const known = new Map<string, { segments: ReturnType<typeof segmentsOf>; shares: number[]; keys: string[] }>();
  const segmentsOfAd = (ad: SimAd) => {
    let own = known.get(ad.id);
    if (!own) {
      const segments = segmentsOf(ad.id, query.segments);
      const entity = { ad: ad.id, adset: ad.adsetId, campaign: ad.campaignId, account: account.accountId }[
        query.level
      ]!;
      own = {
        segments,
        shares: segments.map((s) => s.share),
        keys: segments.map(({ segment }) => `${JSON.stringify(segment)}|${entity}`),
      };
      known.set(ad.id, own);
    }
    return own;
  };
  for (const bucket of buckets) {
    const slices: { hour?: number; pieces: Period[] }[] = bucket.hours
      ? [...bucket.hours].map(([hour, starts]) => ({
          hour,
          pieces: starts.map((at) => ({ from: Math.max(at, bucket.from), to: Math.min(at + 3_600_000, bucket.to) })),
        }))
      : [{ pieces: [bucket] }];
    for (const slice of slices) {
      for (const ad of ads) {
        const figures = adFigures(world, ad, slice.pieces, frame, withWindows);
        if (figures.totals.impressions <= 0) continue;
        const { segments, shares, keys } = segmentsOfAd(ad);
        const totals = splitTotals(figures.totals, shares);
        const windows = withWindows ? splitWindows(figures.windows, shares) : shares.map(() => figures.windows);
        segments.forEach(({ segment }, i) => {
          const key = `${bucket.from}|${slice.hour ?? ''}|${keys[i]}`;
          const group = groups.get(key);
          groups.set(key, {
            ad: group?.ad ?? ad,
            segment,
            hour: slice.hour,
            bucket,
            totals: add(group?.totals ?? ZERO, totals[i]!),
            windows: group ? addWindowCounts(group.windows, windows[i]!) : windows[i]!,
          });
        });
      }
    }
  }
  return [...groups.values()].filter((g) => g.totals.impressions > 0);
}

/** Lead actions and their costs with a value per attribution window asked for. */
function withWindowValues(metrics: Record<string, unknown>, group: Group, windows: string[], account: SimAccount) {
  type Entry = Record<string, string> & { action_type: string };
  const perWindow = (entries: Entry[] | undefined, cost: boolean) =>
    entries?.map((entry) => {
      const destination = destinationOf(entry, account);
      // An entry of one destination counts only that kind of lead: form leads on the Page, pixel leads on the website.
      const count =
        destination && LEAD_ACTIONS[entry.action_type]
          ? (c: WindowCounts, w: keyof WindowCounts['onsite']) => c[destination === 'page' ? 'onsite' : 'website'][w]
          : LEAD_ACTIONS[entry.action_type];
      if (!count) return entry;
      const out: Entry = { ...entry };
      for (const window of windows) {
        const n = count(group.windows, window as keyof WindowCounts['onsite']);
        if (!cost) out[window] = String(n);
        else if (n > 0) out[window] = (group.totals.spend / n).toFixed(6);
      }
      return out;
    });
  return {
    ...metrics,
    actions: perWindow(metrics.actions as Entry[] | undefined, false),
    cost_per_action_type: perWindow(metrics.cost_per_action_type as Entry[] | undefined, true),
  };
}

/** Insight rows of the ads in scope; rows with no impressions are left out, as on Graph. */
export function insights(
  world: World,
  now: number,
  account: SimAccount,
  params: Params,
  path: string,
  context: GraphContext,
  scope: (ad: SimAd) => boolean,
  defaultLevel: string,
): GraphAnswer {
  const query = parseInsightQuery(params, account, now, defaultLevel, DEFAULT_INSIGHT_FIELDS);
  if ('status' in query) return query;
  const refusal = refuseFields('AdsInsights', query.fields, SIMULATED_INSIGHT_FIELDS);
  if (refusal) return refusal;
  const rows = pagedRows(world, now, account, params, path, () => insightRows(world, now, account, query, scope));
  return 'status' in rows ? rows : page(rows, (row) => row, params, path, context);
}

/** The rows of the last query whose first page was answered, per world: its next pages reuse them. */
const lastQuery = new WeakMap<World, { key: string; rows: Record<string, unknown>[] }>();

/**
 * A next page (`after`) of the query just answered, at the same moment and with no write since,
 * reuses its rows rather than computing them all again; a first page is always computed afresh.
 */
function pagedRows(
  world: World,
  now: number,
  account: SimAccount,
  params: Params,
  path: string,
  compute: () => Record<string, unknown>[] | GraphAnswer,
): Record<string, unknown>[] | GraphAnswer {
  const { after, before, access_token, ...query } = params;
  const key = JSON.stringify([account.accountId, path, now, world.revision, query]);
  const last = lastQuery.get(world);
  if (after !== undefined && last?.key === key) return last.rows;
  const rows = compute();
  if (!('status' in rows)) lastQuery.set(world, { key, rows });
  return rows;
}

/** The rows of a checked query, rendered with the fields asked for. */
export function insightRows(
  world: World,
  now: number,
  account: SimAccount,
  query: InsightQuery,
  scope: (ad: SimAd) => boolean,
): Record<string, unknown>[] | GraphAnswer {
  const ads = [...world.ads.values()].filter(
    (ad) => ad.accountId === account.accountId && !ad.deleted && scope(ad) && query.filter(ad),
  );
  const firstStart = ads.reduce((first, ad) => Math.min(first, world.campaigns.get(ad.campaignId)!.startTime), now);
  const periods = query.periods(firstStart);
  if ('status' in periods) return periods;
  const zone = account.timezone;
  const buckets: Bucket[] = periods.flatMap((period) =>
    bucketsOf(period, query, zone).map((b) => (query.hourly ? { ...b, hours: hoursByHourOfDay(b, zone) } : b)),
  );
  // Rows share their buckets' bounds: each date is worked out once (time zone maths is slow).
  const dates = new Map<number, string>();
  const dateOf = (ms: number) => {
    let date = dates.get(ms);
    if (date === undefined) {
      date = DateTime.fromMillis(ms, { zone }).toISODate()!;
      dates.set(ms, date);
    }
    return date;
  };
  // An ad set's goal is worked out from its ads, once per call and only when asked for.
  const goals = new Map<string, string>();
  const goalOf = (adsetId: string) => {
    if (!query.fields.includes('optimization_goal')) return undefined;
    let goal = goals.get(adsetId);
    if (goal === undefined) {
      goal = world.optimizationGoalOf(adsetId);
      goals.set(adsetId, goal);
    }
    return goal;
  };
  const wanted = [...query.fields, 'date_start', 'date_stop', ...query.segments, ...(query.hourly ? [HOURLY] : [])];
  const leftOut = new Set(query.hourly ? NOT_HOURLY : []);
  const level = query.level;
  const campaignLevel = level !== 'account';
  const adsetLevel = level === 'adset' || level === 'ad';
  const adLevel = level === 'ad';
  /** A field of a row other than its metrics and segment. */
  function described(field: string, group: Group): unknown {
    const { ad, bucket } = group;
    switch (field) {
      case 'account_currency':
        return account.currency;
      case 'account_id':
        return account.accountId;
      case 'account_name':
        return account.name;
      case 'date_start':
        return dateOf(bucket.from);
      case 'date_stop':
        return dateOf(Math.max(bucket.from, bucket.to - 1));
      case HOURLY: {
        const hh = String(group.hour).padStart(2, '0');
        return group.hour === undefined ? undefined : `${hh}:00:00 - ${hh}:59:59`;
      }
      case 'campaign_id':
        return campaignLevel ? ad.campaignId : undefined;
      case 'campaign_name':
        return campaignLevel ? world.campaigns.get(ad.campaignId)!.name : undefined;
      case 'objective':
        return campaignLevel ? 'OUTCOME_LEADS' : undefined;
      case 'buying_type':
        return campaignLevel ? 'AUCTION' : undefined;
      case 'adset_id':
        return adsetLevel ? ad.adsetId : undefined;
      case 'adset_name':
        return adsetLevel ? world.adsets.get(ad.adsetId)!.name : undefined;
      case 'optimization_goal':
        return adsetLevel ? goalOf(ad.adsetId) : undefined;
      case 'ad_id':
        return adLevel ? ad.id : undefined;
      case 'ad_name':
        return adLevel ? ad.name : undefined;
      default:
        return undefined;
    }
  }
  return groupRows(world, account, ads, query, buckets, now).map((group) => {
    let metrics = graphMetrics(group.totals);
    if (query.actionDestination) {
      const { actions: _actions, cost_per_action_type: _costs, ...rest } = metrics;
      metrics = { ...rest, ...actionsByDestination(group.totals, account) };
    }
    if (query.windows.length) metrics = withWindowValues(metrics, group, query.windows, account);
    const segment: Record<string, string | undefined> = group.segment;
    // Only the fields asked for are worked out (an hourly read has thousands of rows).
    const out: Record<string, unknown> = {};
    for (const field of wanted) {
      if (leftOut.has(field)) continue;
      const value = field in segment ? segment[field] : (described(field, group) ?? metrics[field]);
      if (value !== undefined) out[field] = value;
    }
    return out;
  });
}

/** The object an insights call is about: its account, which ads it covers, and its default level. */
export function insightScope(world: World, id: string) {
  if (id.startsWith('act_')) {
    const account = world.account(id);
    return account && { account, scope: () => true, level: 'account' };
  }
  const campaign = world.campaigns.get(id);
  const adset = world.adsets.get(id);
  const ad = world.ads.get(id);
  const node = campaign ?? adset ?? (ad && !ad.deleted ? ad : undefined);
  if (!node) return undefined;
  const level = campaign ? 'campaign' : adset ? 'adset' : 'ad';
  const scope = (a: SimAd) => a.id === id || a.adsetId === id || a.campaignId === id;
  return { account: world.account(node.accountId)!, scope, level };
}
