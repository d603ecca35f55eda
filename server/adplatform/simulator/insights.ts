/**
 * The insights edge: rows per ad, ad set, campaign or account over a period given by one of the
 * spec's `date_preset` values or a `time_range`, optionally filtered by campaign / ad set / ad id.
 * Periods are days in the ad account's time zone, as on Graph.
 */
import { DateTime } from 'luxon';
import { enumValues } from '../graphSpec';
import { errorAnswer, page, requestedFields, type GraphAnswer, type GraphContext, type Params } from './answers';
import { add, graphMetrics, ZERO, type Totals } from './delivery';
import { reportedTotals, reportFrame } from './reporting';
import { refuseFields } from './nodes';
import type { SimAccount, SimAd, World } from './world';

/** The date presets Graph's insights edges take (adaccountinsights_date_preset_enum_param). */
export const DATE_PRESETS: readonly string[] = enumValues('adaccountinsights_date_preset_enum_param')!;
const LEVELS: readonly string[] = enumValues('adaccountinsights_level_enum_param')!;

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
  'actions',
  'cost_per_action_type',
  'date_start',
  'date_stop',
] as const;

/** Without `fields`, Graph answers spend and the dates. */
const DEFAULT_INSIGHT_FIELDS = ['spend'];

interface Period {
  from: number;
  to: number;
}

/** [from, to) of a date preset: days in the account's zone; "last" periods end at today's midnight. */
export function presetPeriod(preset: string, now: number, timezone: string, firstStart: number): Period | undefined {
  const today = DateTime.fromMillis(now, { zone: timezone }).startOf('day');
  const upToNow = (start: DateTime) => ({ from: start.toMillis(), to: now });
  const between = (start: DateTime, end: DateTime) => ({ from: start.toMillis(), to: end.toMillis() });
  const lastDays = /^last_(\d+)d$/.exec(preset);
  const monday = today.startOf('week'); // luxon weeks start on Monday
  const sunday = today.minus({ days: today.weekday % 7 });
  if (!DATE_PRESETS.includes(preset)) return undefined;
  if (lastDays) return between(today.minus({ days: Number(lastDays[1]) }), today);
  switch (preset) {
    case 'today':
      return upToNow(today);
    case 'yesterday':
      return between(today.minus({ days: 1 }), today);
    case 'this_week_mon_today':
      return upToNow(monday);
    case 'this_week_sun_today':
      return upToNow(sunday);
    case 'last_week_mon_sun':
      return between(monday.minus({ weeks: 1 }), monday);
    case 'last_week_sun_sat':
      return between(sunday.minus({ weeks: 1 }), sunday);
    case 'this_month':
      return upToNow(today.startOf('month'));
    case 'last_month':
      return between(today.startOf('month').minus({ months: 1 }), today.startOf('month'));
    case 'this_quarter':
      return upToNow(today.startOf('quarter'));
    case 'last_quarter':
      return between(today.startOf('quarter').minus({ quarters: 1 }), today.startOf('quarter'));
    case 'this_year':
      return upToNow(today.startOf('year'));
    case 'last_year':
      return between(today.startOf('year').minus({ years: 1 }), today.startOf('year'));
    default: // maximum, data_maximum: everything there is
      return { from: Math.min(firstStart, now), to: now };
  }
}

function period(account: SimAccount, params: Params, now: number, firstStart: number): Period | GraphAnswer {
  if (params.time_range) {
    let range: { since?: string; until?: string };
    try {
      range = JSON.parse(params.time_range) as { since?: string; until?: string };
    } catch {
      return errorAnswer(400, 100, '(#100) time_range must be a JSON object with since and until');
    }
    const since = DateTime.fromISO(range.since ?? '', { zone: account.timezone });
    const until = DateTime.fromISO(range.until ?? '', { zone: account.timezone });
    if (!since.isValid || !until.isValid || until < since)
      return errorAnswer(400, 100, '(#100) Must provide a valid time_range with since <= until');
    return { from: since.toMillis(), to: Math.min(now, until.plus({ days: 1 }).toMillis()) };
  }
  const preset = params.date_preset ?? 'last_30d';
  return (
    presetPeriod(preset, now, account.timezone, firstStart) ??
    errorAnswer(400, 100, `(#100) date_preset must be one of the following values: ${DATE_PRESETS.join(', ')}`)
  );
}

function insightFilter(raw: string | undefined): { test: (ad: SimAd) => boolean } | GraphAnswer {
  if (!raw) return { test: () => true };
  let items: { field?: string; operator?: string; value?: unknown }[];
  try {
    items = JSON.parse(raw) as typeof items;
    if (!Array.isArray(items)) throw new Error('not a list');
  } catch {
    return errorAnswer(400, 100, '(#100) filtering must be an array of {field, operator, value}');
  }
  const tests: ((ad: SimAd) => boolean)[] = [];
  for (const item of items) {
    const key = { 'campaign.id': 'campaignId', 'adset.id': 'adsetId', 'ad.id': 'id' }[item.field ?? ''] as
      | 'campaignId'
      | 'adsetId'
      | 'id'
      | undefined;
    if (!key) return errorAnswer(400, 100, `(#100) Filtering field ${item.field} is invalid`);
    const values = (Array.isArray(item.value) ? item.value : [item.value]).map(String);
    if (item.operator === 'IN' || item.operator === 'EQUAL') tests.push((ad) => values.includes(ad[key]));
    else if (item.operator === 'NOT_IN' || item.operator === 'NOT_EQUAL') tests.push((ad) => !values.includes(ad[key]));
    else return errorAnswer(400, 100, `(#100) Filtering operator ${item.operator} is invalid`);
  }
  return { test: (ad) => tests.every((t) => t(ad)) };
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
  const level = params.level ?? defaultLevel;
  if (!LEVELS.includes(level))
    return errorAnswer(400, 100, `(#100) level must be one of the following values: ${LEVELS.join(', ')}`);
  const fields = requestedFields(params.fields, DEFAULT_INSIGHT_FIELDS);
  const refusal = refuseFields('AdsInsights', fields, SIMULATED_INSIGHT_FIELDS);
  if (refusal) return refusal;
  const filter = insightFilter(params.filtering);
  if ('status' in filter) return filter;

  const ads = [...world.ads.values()].filter(
    (ad) => ad.accountId === account.accountId && !ad.deleted && scope(ad) && filter.test(ad),
  );
  const firstStart = ads.reduce((first, ad) => Math.min(first, world.campaigns.get(ad.campaignId)!.startTime), now);
  const span = period(account, params, now, firstStart);
  if ('status' in span) return span;

  const frame = reportFrame(now, account.timezone);
  const groups = new Map<string, { ad: SimAd; totals: Totals }>();
  for (const ad of ads) {
    const totals = reportedTotals(world, ad, span.from, span.to, frame);
    const key = { ad: ad.id, adset: ad.adsetId, campaign: ad.campaignId, account: account.accountId }[level]!;
    const group = groups.get(key);
    groups.set(key, { ad: group?.ad ?? ad, totals: add(group?.totals ?? ZERO, totals) });
  }

  const dateOf = (ms: number) => DateTime.fromMillis(ms, { zone: account.timezone }).toISODate()!;
  const wanted = [...fields, 'date_start', 'date_stop'];
  const render = ({ ad, totals }: { ad: SimAd; totals: Totals }) => {
    const campaign = world.campaigns.get(ad.campaignId)!;
    const adset = world.adsets.get(ad.adsetId)!;
    const row: Record<string, unknown> = {
      account_currency: account.currency,
      account_id: account.accountId,
      account_name: account.name,
      ...graphMetrics(totals),
      date_start: dateOf(span.from),
      date_stop: dateOf(Math.max(span.from, span.to - 1)),
    };
    if (level !== 'account')
      Object.assign(row, {
        campaign_id: campaign.id,
        campaign_name: campaign.name,
        objective: 'OUTCOME_LEADS',
        buying_type: 'AUCTION',
      });
    if (level === 'adset' || level === 'ad')
      Object.assign(row, { adset_id: adset.id, adset_name: adset.name, optimization_goal: 'LEAD_GENERATION' });
    if (level === 'ad') Object.assign(row, { ad_id: ad.id, ad_name: ad.name });
    const out: Record<string, unknown> = {};
    for (const field of wanted) if (row[field] !== undefined) out[field] = row[field];
    return out;
  };
  const rows = [...groups.values()].filter(({ totals }) => totals.impressions > 0);
  return page(rows, render, params, path, context);
}
