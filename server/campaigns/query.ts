/**
 * `GET /api/campaigns/` query parameters (SPEC §7) → SQL conditions and ordering. Bad values answer
 * 400 `{param: ["message"]}`; an absent or empty parameter is no filter.
 */
import { and, eq, gte, ilike, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyColumn } from 'drizzle-orm';
import { MESSAGES, type FieldErrors } from '../../src/domain/validation';
import { campaigns, metaAdAccounts } from '../db/schema/index';
import { ValidationError } from '../http/errors';
import { commaList } from '../http/pagination';
import { containsPattern } from '../http/search';

const RANGES = {
  spend_range: campaigns.spend,
  cpl_annotation: campaigns.cpl,
  ctr_annotation: campaigns.ctr,
  cpc_annotation: campaigns.cpc,
} as const;

const account = [metaAdAccounts.accountName, metaAdAccounts.adAccountId];

/**
 * Every sortable column, under the names the screen and DRF-style clients use. An ad account name
 * sorts with its id after it: accounts in name order, each with its campaigns (an index walk).
 */
export const ORDERING_COLUMNS: Record<string, AnyColumn | AnyColumn[]> = {
  campaign_id: campaigns.campaignId,
  campaign_name: campaigns.campaignName,
  meta_ad_account: account,
  ad_account: account,
  meta_ad_account__account_name: account,
  topic: campaigns.topic,
  campaignextension__topic: campaigns.topic,
  is_webinar: campaigns.isWebinar,
  event_type: campaigns.isWebinar,
  campaignextension__is_webinar: campaigns.isWebinar,
  event_date: campaigns.eventDate,
  campaignextension__event_date: campaigns.eventDate,
  event_time: campaigns.eventTime,
  campaignextension__event_time: campaigns.eventTime,
  spend: campaigns.spend,
  result: campaigns.leads,
  leads: campaigns.leads,
  actions: campaigns.leads,
  cpl: campaigns.cpl,
  ctr: campaigns.ctr,
  cpc: campaigns.cpc,
  end_date: campaigns.endDate,
  updated_at: campaigns.updatedAt,
  sync_date: campaigns.updatedAt,
};

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_MESSAGE = 'Enter a valid date.';

function text(value: unknown): string | undefined {
  if (Array.isArray(value)) value = value[value.length - 1];
  if (value === undefined || value === null) return undefined;
  const s = String(value).trim();
  return s === '' ? undefined : s;
}

function isRealDay(value: string): boolean {
  if (!ISO_DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** ad_account_id as the API writes it ('act_123') or its digits. */
const AD_ACCOUNT_ID = /^(?:act_)?(\d+)$/;

export function campaignConditions(query: Record<string, unknown>): SQL | undefined {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const conditions: SQL[] = [];

  const name = text(query.campaign_name);
  if (name) conditions.push(ilike(campaigns.campaignName, containsPattern(name)));

  // The Ad Account Name filter: an ad account id, several comma-joined, or a part of a name.
  const account = text(query.meta_ad_account);
  if (account) {
    const parts = commaList(account);
    if (parts.every((p) => AD_ACCOUNT_ID.test(p))) {
      conditions.push(
        inArray(
          campaigns.adAccountId,
          parts.map((p) => `act_${AD_ACCOUNT_ID.exec(p)![1]}`),
        ),
      );
    } else {
      conditions.push(ilike(metaAdAccounts.accountName, containsPattern(account)));
    }
  }

  const ids = text(query.campaign_id__in);
  if (ids) {
    const parts = commaList(ids);
    if (parts.some((p) => !/^\d{1,19}$/.test(p))) fail('campaign_id__in', MESSAGES.integer);
    else if (parts.length)
      conditions.push(
        inArray(
          campaigns.campaignId,
          parts.map((p) => BigInt(p)),
        ),
      );
  }

  const topics = text(query.event_type__in);
  if (topics) {
    const parts = commaList(topics);
    if (parts.length) conditions.push(inArray(campaigns.topic, parts));
  }

  const webinar = text(query.is_webinar)?.toLowerCase();
  if (webinar) {
    if (['true', '1', 'yes'].includes(webinar)) conditions.push(eq(campaigns.isWebinar, true));
    else if (['false', '0', 'no'].includes(webinar)) conditions.push(eq(campaigns.isWebinar, false));
    else if (['null', 'none', 'unknown'].includes(webinar)) conditions.push(sql`${campaigns.isWebinar} is null`);
    else fail('is_webinar', 'Must be true or false.');
  }

  for (const [param, apply] of [
    ['event_date_after', (d: string) => gte(campaigns.eventDate, d)],
    ['event_date_before', (d: string) => lte(campaigns.eventDate, d)],
    // End dates are instants; a day is a day of the campaign's ad account time zone.
    [
      'end_date_after',
      (d: string) => sql`${campaigns.endDate} >= (${d}::date)::timestamp at time zone ${metaAdAccounts.timezoneName}`,
    ],
    [
      'end_date_before',
      (d: string) =>
        sql`${campaigns.endDate} < ((${d}::date) + 1)::timestamp at time zone ${metaAdAccounts.timezoneName}`,
    ],
  ] as const) {
    const value = text(query[param]);
    if (!value) continue;
    if (!isRealDay(value)) fail(param, DATE_MESSAGE);
    else conditions.push(apply(value));
  }

  for (const [prefix, column] of Object.entries(RANGES)) {
    for (const [suffix, compare] of [
      ['min', gte],
      ['max', lte],
    ] as const) {
      const param = `${prefix}_${suffix}`;
      const value = text(query[param]);
      if (!value) continue;
      const n = Number(value);
      if (!Number.isFinite(n)) fail(param, MESSAGES.numeric);
      else conditions.push(compare(column, String(n)));
    }
  }

  if (Object.keys(errors).length) throw new ValidationError(errors);
  return conditions.length ? and(...conditions) : undefined;
}

/** Columns that may be null; the others sort the same with or without NULLS LAST, and are written without it so their indexes match. */
const NULLABLE: ReadonlySet<AnyColumn> = new Set<AnyColumn>([
  campaigns.topic,
  campaigns.isWebinar,
  campaigns.eventDate,
  campaigns.eventTime,
  campaigns.endDate,
  campaigns.cpl,
  campaigns.ctr,
  campaigns.cpc,
]);

/**
 * `ordering=-spend,campaign_name`; unknown keys are ignored. Missing values (N/A) sort last both
 * ways; campaign_id, in the first key's direction, breaks ties so pages never overlap. Each term is
 * written exactly as its index is declared (schema/adplatform.ts), so a sorted page is an index scan.
 */
export function campaignOrdering(raw: unknown): SQL[] {
  const terms: SQL[] = [];
  let hasId = false;
  let first: { descending: boolean; nullable: boolean } | undefined;
  for (const key of commaList(text(raw) ?? '-campaign_id')) {
    const descending = key.startsWith('-');
    const name = descending ? key.slice(1) : key;
    if (!Object.hasOwn(ORDERING_COLUMNS, name)) continue;
    const found = ORDERING_COLUMNS[name]!;
    for (const column of Array.isArray(found) ? found : [found]) {
      const nullable = NULLABLE.has(column);
      first ??= { descending, nullable };
      if (column === campaigns.campaignId) hasId = true;
      if (!descending) terms.push(sql`${column} asc`);
      else terms.push(nullable ? sql`${column} desc nulls last` : sql`${column} desc`);
    }
  }
  if (!first) return [sql`${campaigns.campaignId} desc`];
  if (!hasId) {
    if (!first.descending) terms.push(sql`${campaigns.campaignId} asc`);
    else terms.push(first.nullable ? sql`${campaigns.campaignId} desc nulls last` : sql`${campaigns.campaignId} desc`);
  }
  return terms;
}
