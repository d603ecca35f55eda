/**
 * `GET /api/campaigns/` query parameters (docs/contract.md#calls, checked by campaignListQuery in schemas.ts) →
 * SQL conditions and ordering.
 */
import { and, eq, gte, ilike, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyColumn } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { campaigns, metaAdAccounts } from '../db/schema/index';
import { commaList, orderingKeys } from '../http/pagination';
import { containsPattern } from '../http/search';
import type { CampaignFilters } from './schemas';

const RANGES = {
  spend_range: campaigns.spend,
  cpl_annotation: campaigns.cpl,
  ctr_annotation: campaigns.ctr,
  cpc_annotation: campaigns.cpc,
  show_up_rate: campaigns.showUpRate,
  cost_per_attendee: campaigns.costPerAttendee,
} as const;

const accountColumns = [metaAdAccounts.accountName, metaAdAccounts.adAccountId];

/**
 * Every sortable column, under the names the screen and DRF-style clients use. An ad account name
 * sorts with its id after it: accounts in name order, each with its campaigns (an index walk).
 */
export const ORDERING_COLUMNS: Record<string, AnyPgColumn | AnyPgColumn[]> = {
  campaign_id: campaigns.campaignId,
  campaign_name: campaigns.campaignName,
  meta_ad_account: accountColumns,
  ad_account: accountColumns,
  meta_ad_account__account_name: accountColumns,
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
  registrations: campaigns.registrations,
  attendees: campaigns.attendees,
  show_up_rate: campaigns.showUpRate,
  cost_per_attendee: campaigns.costPerAttendee,
  updated_at: campaigns.updatedAt,
  sync_date: campaigns.updatedAt,
};

/** ad_account_id as the API writes it ('act_123') or its digits. */
const AD_ACCOUNT_ID = /^(?:act_)?(\d+)$/;

/** Ordering keys that sort by the ad account. */
const ACCOUNT_KEYS = new Set(
  Object.entries(ORDERING_COLUMNS)
    .filter(([, columns]) => columns === accountColumns)
    .map(([key]) => key),
);

/** The Ad Account Name filter holds a part of a name, not ad account ids. */
const searchesAccountName = ({ meta_ad_account }: CampaignFilters) =>
  Boolean(meta_ad_account) && !commaList(meta_ad_account).every((p) => AD_ACCOUNT_ID.test(p));

/**
 * Whether the filters or the ordering read the ad account (its name, its time zone): only then is
 * it joined to find the page, so a page sorted by a campaign column walks that column's index alone.
 */
export function readsAccount(filters: CampaignFilters): boolean {
  const sortedByAccount = orderingKeys(filters.ordering).some((key) => ACCOUNT_KEYS.has(key));
  return searchesAccountName(filters) || sortedByAccount || Boolean(filters.end_date_after || filters.end_date_before);
}

/** The filters of `GET /api/campaigns/`, already checked by the route's query schema, as SQL. */
export function campaignConditions(filters: CampaignFilters): SQL | undefined {
  const conditions: SQL[] = [];

  if (filters.campaign_name) conditions.push(ilike(campaigns.campaignName, containsPattern(filters.campaign_name)));

  // The Ad Account Name filter: an ad account id, several comma-joined, or a part of a name.
  const account = filters.meta_ad_account;
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

  const ids = commaList(filters.campaign_id__in);
  if (ids.length) conditions.push(inArray(campaigns.campaignId, ids.map(BigInt)));

  const topics = commaList(filters.event_type__in);
  if (topics.length) conditions.push(inArray(campaigns.topic, topics));

  if (filters.is_webinar === null) conditions.push(sql`${campaigns.isWebinar} is null`);
  else if (filters.is_webinar !== undefined) conditions.push(eq(campaigns.isWebinar, filters.is_webinar));

  const { event_date_after, event_date_before, end_date_after, end_date_before } = filters;
  if (event_date_after) conditions.push(gte(campaigns.eventDate, event_date_after));
  if (event_date_before) conditions.push(lte(campaigns.eventDate, event_date_before));
  // End dates are instants; a day is a day of the campaign's ad account time zone.
  if (end_date_after)
    conditions.push(
      sql`${campaigns.endDate} >= (${end_date_after}::date)::timestamp at time zone ${metaAdAccounts.timezoneName}`,
    );
  if (end_date_before)
    conditions.push(
      sql`${campaigns.endDate} < ((${end_date_before}::date) + 1)::timestamp at time zone ${metaAdAccounts.timezoneName}`,
    );

  for (const [prefix, column] of Object.entries(RANGES)) {
    const min = filters[`${prefix}_min` as keyof CampaignFilters];
    const max = filters[`${prefix}_max` as keyof CampaignFilters];
    if (typeof min === 'string') conditions.push(gte(column, String(Number(min))));
    if (typeof max === 'string') conditions.push(lte(column, String(Number(max))));
  }

  return conditions.length ? and(...conditions) : undefined;
}

/**
 * The end date bounds a day wider in UTC, which no time zone is further from (the widest offsets,
 * local mean times included, are under 16 hours): implied by campaignConditions' bounds in each
 * account's zone, and a test on campaigns alone, so the walk for a page skips the campaigns outside
 * the range before looking up their account. Only for the page: in the count it would lower the
 * planner's estimate and turn an estimated total into a count on every request.
 */
export function campaignPrefilter({ end_date_after, end_date_before }: CampaignFilters): SQL | undefined {
  return and(
    end_date_after
      ? sql`${campaigns.endDate} >= ((${end_date_after}::date) - 1)::timestamp at time zone 'UTC'`
      : undefined,
    end_date_before
      ? sql`${campaigns.endDate} < ((${end_date_before}::date) + 2)::timestamp at time zone 'UTC'`
      : undefined,
  );
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
  campaigns.registrations,
  campaigns.attendees,
  campaigns.showUpRate,
  campaigns.costPerAttendee,
]);

/**
 * `ordering=-spend,campaign_name`; unknown keys are ignored. Missing values (N/A) sort last both
 * ways; campaign_id, in the first key's direction, breaks ties so pages never overlap. Each term is
 * written exactly as its index is declared (schema/adplatform.ts), so a sorted page is an index scan.
 * `byName` writes each column by its bare name, to sort rows read first under those names.
 */
export function campaignOrdering(raw: string | undefined, byName = false): SQL[] {
  const terms: SQL[] = [];
  let hasId = false;
  let first: { descending: boolean; nullable: boolean } | undefined;
  for (const key of commaList(raw || '-campaign_id')) {
    const descending = key.startsWith('-');
    const name = descending ? key.slice(1) : key;
    if (!Object.hasOwn(ORDERING_COLUMNS, name)) continue;
    const found = ORDERING_COLUMNS[name]!;
    for (const sortColumn of Array.isArray(found) ? found : [found]) {
      const nullable = NULLABLE.has(sortColumn);
      const column = byName ? sql.identifier(sortColumn.name) : sortColumn;
      first ??= { descending, nullable };
      if (sortColumn === campaigns.campaignId) hasId = true;
      if (!descending) terms.push(sql`${column} asc`);
      else terms.push(nullable ? sql`${column} desc nulls last` : sql`${column} desc`);
    }
  }
  const id = byName ? sql.identifier(campaigns.campaignId.name) : campaigns.campaignId;
  if (!first) return [sql`${id} desc`];
  if (!hasId) {
    if (!first.descending) terms.push(sql`${id} asc`);
    else terms.push(first.nullable ? sql`${id} desc nulls last` : sql`${id} desc`);
  }
  return terms;
}

/** The columns `ordering` sorts by, the campaign id among them, by name (what campaignOrdering(…, true) reads). */
export function orderingColumns(raw: string | undefined): Record<string, AnyPgColumn> {
  const keys = orderingKeys(raw || '-campaign_id').filter((key) => Object.hasOwn(ORDERING_COLUMNS, key));
  const columns = [...keys.flatMap((key) => [ORDERING_COLUMNS[key]!].flat()), campaigns.campaignId];
  return Object.fromEntries(columns.map((column) => [column.name, column]));
}

/** Whether the filters search a text (a campaign's name, or an ad account's by a part of it). */
export const searchesText = (filters: CampaignFilters) =>
  Boolean(filters.campaign_name) || searchesAccountName(filters);
