/**
 * An insights call's parameters, checked and parsed as Graph takes them (AdAccount insights params
 * in the spec): level, fields, filtering, the period (`time_ranges` over `time_range` over
 * `date_preset`, as on Graph), `time_increment`, `breakdowns`, `action_breakdowns` and
 * `action_attribution_windows`. A parameter or value the simulator does not model is refused with
 * Graph's (#100) error naming it; nothing is silently ignored.
 */
import { DateTime } from 'luxon';
import { edgeParamType, enumValues } from '../graphSpec';
import { errorAnswer, requestedFields, type GraphAnswer, type Params } from './answers';
import { RETIRED_WINDOWS } from './attribution';
import { SEGMENT_DIMENSIONS, type SegmentDimension } from './segments';
import type { SimAccount, SimAd } from './world';

export const HOURLY = 'hourly_stats_aggregated_by_advertiser_time_zone';
export const DATE_PRESETS: readonly string[] = enumValues('adaccountinsights_date_preset_enum_param')!;
const LEVELS: readonly string[] = enumValues('adaccountinsights_level_enum_param')!;
const BREAKDOWNS: readonly string[] = enumValues('adaccountinsights_breakdowns_enum_param')!;
const ACTION_BREAKDOWNS: readonly string[] = enumValues('adaccountinsights_action_breakdowns_enum_param')!;
const WINDOWS: readonly string[] = enumValues('adaccountinsights_action_attribution_windows_enum_param')!;

/** Breakdown combinations the simulator answers. */
const SIMULATED_BREAKDOWNS = [[HOURLY], ['age'], ['gender'], ['age', 'gender'], ['publisher_platform']];
const REQUESTABLE_WINDOWS = ['1d_click', '7d_click', '28d_click', '1d_view', ...RETIRED_WINDOWS];
/** Parameters of every Graph call rather than of the insights edge. */
const TRANSPORT = ['access_token', 'appsecret_proof', 'after', 'before', 'pretty', 'format', 'method', 'locale'];
const SIMULATED_PARAMS = [
  'level',
  'fields',
  'filtering',
  'date_preset',
  'time_range',
  'time_ranges',
  'time_increment',
  'breakdowns',
  'action_breakdowns',
  'action_attribution_windows',
  'limit',
  'graph_cache',
];

export interface Period {
  from: number;
  to: number;
}

export type Increment = 'all_days' | 'monthly' | number;

export interface InsightQuery {
  level: string;
  fields: string[];
  filter: (ad: SimAd) => boolean;
  /** The periods asked for, once the first delivery of the ads in scope is known. */
  periods: (firstStart: number) => Period[] | GraphAnswer;
  increment: Increment;
  hourly: boolean;
  segments: SegmentDimension[];
  /** `action_breakdowns` names action_destination: each action is split by where it took people (destinations.ts). */
  actionDestination: boolean;
  /** Attribution windows whose counts each lead action carries. */
  windows: string[];
}

const refuse = (message: string) => errorAnswer(400, 100, `(#100) ${message}`);

/** A list parameter: a JSON array or a comma list. */
function listParam(value: string): string[] {
  try {
    const parsed = JSON.parse(value) as unknown;
    if (Array.isArray(parsed)) return parsed.map(String);
  } catch {
    // a comma list
  }
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Checks each value of a list parameter against its enum, then against what the simulator answers. */
function enumList(name: string, value: string, allowed: readonly string[], simulated: readonly string[]) {
  const values = listParam(value);
  const bad = values.findIndex((v) => !allowed.includes(v));
  if (bad >= 0) return refuse(`${name}[${bad}] must be one of the following values: ${allowed.join(', ')}`);
  const unsimulated = values.find((v) => !simulated.includes(v));
  if (unsimulated)
    return refuse(
      `The simulator does not answer ${name} ${unsimulated}: it is in Graph's spec but not simulated. Simulated: ${simulated.join(', ')}`,
    );
  return values;
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

function rangeOf(raw: unknown, name: string, account: SimAccount, now: number): Period | GraphAnswer {
  const range = (raw ?? {}) as { since?: string; until?: string };
  const since = DateTime.fromISO(String(range.since ?? ''), { zone: account.timezone });
  const until = DateTime.fromISO(String(range.until ?? ''), { zone: account.timezone });
  if (!since.isValid || !until.isValid || until < since)
    return refuse(`Must provide a valid ${name} with since <= until (dates YYYY-MM-DD)`);
  return { from: since.toMillis(), to: Math.min(now, until.plus({ days: 1 }).toMillis()) };
}

function periodsOf(params: Params, account: SimAccount, now: number) {
  const json = (name: string): unknown => {
    try {
      return JSON.parse(params[name]!) as unknown;
    } catch {
      return undefined;
    }
  };
  if (params.time_ranges) {
    const ranges = json('time_ranges');
    if (!Array.isArray(ranges) || !ranges.length)
      return () => refuse('time_ranges must be a JSON array of {since, until} objects');
    const periods = ranges.map((range, i) => rangeOf(range, `time_ranges[${i}]`, account, now));
    const bad = periods.find((p) => 'status' in p);
    return () => bad ?? (periods as Period[]);
  }
  if (params.time_range) {
    const period = rangeOf(json('time_range'), 'time_range', account, now);
    return () => ('status' in period ? period : [period]);
  }
  const preset = params.date_preset ?? 'last_30d';
  return (firstStart: number) => {
    const period = presetPeriod(preset, now, account.timezone, firstStart);
    return period ? [period] : refuse(`date_preset must be one of the following values: ${DATE_PRESETS.join(', ')}`);
  };
}

function incrementOf(raw: string | undefined): Increment | GraphAnswer {
  if (raw === undefined || raw === 'all_days') return 'all_days';
  if (raw === 'monthly') return 'monthly';
  const days = Number(raw);
  if (Number.isInteger(days) && days >= 1 && days <= 90) return days;
  return refuse('time_increment must be all_days, monthly or a whole number of days from 1 to 90');
}

function filterOf(raw: string | undefined): ((ad: SimAd) => boolean) | GraphAnswer {
  if (!raw) return () => true;
  let items: { field?: string; operator?: string; value?: unknown }[];
  try {
    items = JSON.parse(raw) as typeof items;
    if (!Array.isArray(items)) throw new Error('not a list');
  } catch {
    return refuse('filtering must be an array of {field, operator, value}');
  }
  const tests: ((ad: SimAd) => boolean)[] = [];
  for (const item of items) {
    const key = { 'campaign.id': 'campaignId', 'adset.id': 'adsetId', 'ad.id': 'id' }[item.field ?? ''] as
      | 'campaignId'
      | 'adsetId'
      | 'id'
      | undefined;
    if (!key) return refuse(`Filtering field ${item.field} is invalid`);
    const values = (Array.isArray(item.value) ? item.value : [item.value]).map(String);
    if (item.operator === 'IN' || item.operator === 'EQUAL') tests.push((ad) => values.includes(ad[key]));
    else if (item.operator === 'NOT_IN' || item.operator === 'NOT_EQUAL') tests.push((ad) => !values.includes(ad[key]));
    else return refuse(`Filtering operator ${item.operator} is invalid`);
  }
  return (ad) => tests.every((t) => t(ad));
}

/** The parameters of an insights call, checked; `defaultLevel` is the level of the object asked. */
export function parseInsightQuery(
  params: Params,
  account: SimAccount,
  now: number,
  defaultLevel: string,
  defaultFields: readonly string[],
): InsightQuery | GraphAnswer {
  for (const name of Object.keys(params)) {
    if (TRANSPORT.includes(name) || SIMULATED_PARAMS.includes(name)) continue;
    if (edgeParamType('AdAccount', 'GET', 'insights', name))
      return refuse(
        `The simulator does not take parameter ${name} on insights: it is in Graph's spec but not simulated`,
      );
    return refuse(`Unknown parameter ${name} for the insights edge`);
  }
  const level = params.level ?? defaultLevel;
  if (!LEVELS.includes(level)) return refuse(`level must be one of the following values: ${LEVELS.join(', ')}`);
  const filter = filterOf(params.filtering);
  if (typeof filter !== 'function') return filter;
  const increment = incrementOf(params.time_increment);
  if (typeof increment === 'object') return increment;
  if (params.time_ranges && params.time_increment && increment !== 'all_days')
    return refuse('time_increment cannot be combined with time_ranges: each time range is one result set');

  let breakdowns: string[] = [];
  if (params.breakdowns) {
    const parsed = enumList('breakdowns', params.breakdowns, BREAKDOWNS, [HOURLY, ...Object.keys(SEGMENT_DIMENSIONS)]);
    if (!Array.isArray(parsed)) return parsed;
    breakdowns = parsed;
    const sorted = [...new Set(breakdowns)].sort().join(',');
    if (!SIMULATED_BREAKDOWNS.some((combo) => [...combo].sort().join(',') === sorted))
      return refuse(
        `The simulator does not answer the breakdowns combination ${breakdowns.join(', ')}. Simulated: ${SIMULATED_BREAKDOWNS.map((c) => c.join('+')).join(', ')}`,
      );
  }
  let actionBreakdowns: string[] = [];
  if (params.action_breakdowns) {
    const parsed = enumList('action_breakdowns', params.action_breakdowns, ACTION_BREAKDOWNS, [
      'action_type',
      'action_destination',
    ]);
    if (!Array.isArray(parsed)) return parsed;
    actionBreakdowns = parsed;
  }
  let windows: string[] = [];
  if (params.action_attribution_windows) {
    const parsed = enumList(
      'action_attribution_windows',
      params.action_attribution_windows,
      WINDOWS,
      REQUESTABLE_WINDOWS,
    );
    if (!Array.isArray(parsed)) return parsed;
    windows = parsed.filter((w) => !(RETIRED_WINDOWS as readonly string[]).includes(w));
  }
  return {
    level,
    fields: requestedFields(params.fields, defaultFields),
    filter,
    periods: periodsOf(params, account, now),
    increment,
    hourly: breakdowns.includes(HOURLY),
    segments: breakdowns.filter((b): b is SegmentDimension => b in SEGMENT_DIMENSIONS),
    actionDestination: actionBreakdowns.includes('action_destination'),
    windows,
  };
}
