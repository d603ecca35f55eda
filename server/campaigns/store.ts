/** Reading ad accounts and campaigns for the API: the pages of both lists, and whether a campaign is known. */
import { and, asc, count, eq, getTableName, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import { campaigns, metaAdAccounts } from '../db/schema/index';
import {
  countMatching,
  DEFAULT_COUNT_CAP,
  estimatedSlice,
  plannerEstimate,
  resultRows,
  slice,
  type PageRequest,
  type Slice,
} from '../http/pagination';
import { searchAny } from '../http/search';
import { adAccountDto, campaignDto, type CampaignDto } from './dto';
import {
  campaignConditions,
  campaignOrdering,
  campaignPrefilter,
  orderingColumns,
  readsAccount,
  searchesText,
} from './query';
import { readAndSort } from '../http/readOrWalk';
import { chosenDateStarts } from '../outcomes/chosenDates';
import { campaignStatesOf } from '../ads/states';
import type { CampaignFilters } from './schemas';

/**
 * The campaigns (22 MB at 100,000) stay in the database's memory: a row a walk of the sort's index
 * tests is a buffer hit, while each match read is kept and sorted, a third as costly again
 * (EXPLAIN on the full-size database: `is_webinar=true` sorted by name at offset 12,250 — a walk
 * of 28,645 rows 95 ms, 60,000 matches read and sorted 550 ms, loaded). Only a narrow filter,
 * whose walk would test over three rows for each match, is read and sorted.
 */
const CAMPAIGN_WALK_ROW_COST = 1 / 3;

/**
 * A text's matches read whole cost a recheck each (40,000 for `EDM`, 60 ms) or, for a text too
 * short for the trigram index (`SS`), a test of every campaign (80–130 ms). When they are many,
 * the page is most likely among the first few thousand campaigns of the sort: those are read along
 * the sort's index first, up to this many times as many as an even spread of the matches would
 * need, and the matches are read whole only when they hold fewer than the page
 * (docs/decisions.md, "Lists").
 */
const HEAD_MARGIN = 4;
/** No head longer than this is read first: past it, reading the matches whole costs about as much. */
const HEAD_MAX = 10_000;

/** Ad accounts by name (case-insensitive), then id. */
async function listAdAccounts(
  db: Database,
  { limit, offset }: PageRequest,
  search: string | undefined,
): Promise<Slice<ReturnType<typeof adAccountDto>>> {
  const where = searchAny(search, [metaAdAccounts.accountName]);
  const { count: total, results } = await slice(
    db
      .select()
      .from(metaAdAccounts)
      .where(where)
      .orderBy(asc(sql`lower(${metaAdAccounts.accountName})`), asc(metaAdAccounts.adAccountId))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(metaAdAccounts).where(where),
  );
  return { count: total, results: results.map(adAccountDto) };
}

/**
 * Campaigns matching the filters: the page's campaign ids first, then those campaigns with their
 * ad accounts. The ids are found in campaigns alone unless the filters or ordering read the
 * account (a deep page is then an index-only walk); every campaign has its ad account (foreign
 * key), so the inner join loses nothing and lets the planner walk accounts in name order.
 *
 * A text search's matches may sit together anywhere along the sort (a firm's campaigns share
 * their dates and names): walking the sort's index to them can read most of the table. They are
 * read whole through the name indexes and sorted instead when few enough (readOrWalk.ts), as
 * are narrow filters where a walk would read more rows than there are matches.
 */
export async function listCampaigns(
  db: Database,
  { limit, offset }: PageRequest,
  filters: CampaignFilters,
  countCap = DEFAULT_COUNT_CAP,
): Promise<Slice<CampaignDto>> {
  const where = campaignConditions(filters);
  const ordering = campaignOrdering(filters.ordering);
  const matching = (columns: Record<string, AnyPgColumn>, condition = where) => {
    const ids = db.select(columns).from(campaigns);
    return readsAccount(filters)
      ? ids.innerJoin(metaAdAccounts, eq(campaigns.adAccountId, metaAdAccounts.adAccountId)).where(condition)
      : ids.where(condition);
  };
  const matchingIds = () => matching({ id: campaigns.campaignId });
  const pageCondition = and(where, campaignPrefilter(filters));
  const rowsWanted = offset + limit + 1;
  const matches = where === undefined ? 0 : await plannerEstimate(db, matchingIds());
  const tableRows =
    where === undefined ? 0 : await plannerEstimate(db, db.select({ id: campaigns.campaignId }).from(campaigns));
  const read =
    where !== undefined &&
    readAndSort({
      matches,
      tableRows,
      rowsWanted,
      spread: !searchesText(filters),
      walkRowCost: CAMPAIGN_WALK_ROW_COST,
    });
  const head = Math.ceil((HEAD_MARGIN * rowsWanted * tableRows) / Math.max(matches, 1));
  const inHead =
    read && searchesText(filters) && !readsAccount(filters) && head <= HEAD_MAX && head < matches
      ? await pageInHead(db, head, pageCondition!, ordering, limit, offset)
      : undefined;
  // A materialized CTE: the planner cannot turn the read back into a walk of the sort's index.
  const pageIds =
    inHead ??
    (read
      ? sql`(with matched as materialized (${matching(orderingColumns(filters.ordering), pageCondition)})
        select ${sql.identifier(campaigns.campaignId.name)} from matched
        order by ${sql.join(campaignOrdering(filters.ordering, true), sql`, `)} limit ${limit + 1} offset ${offset})`
      : matching({ id: campaigns.campaignId }, pageCondition)
          .orderBy(...ordering)
          .limit(limit + 1)
          .offset(offset));
  const { results, ...page } = await estimatedSlice(
    { limit, offset },
    db
      .select({ campaign: campaigns, account: metaAdAccounts })
      .from(campaigns)
      .innerJoin(metaAdAccounts, eq(campaigns.adAccountId, metaAdAccounts.adAccountId))
      .where(inArray(campaigns.campaignId, pageIds))
      .orderBy(...ordering),
    () => countMatching(db, matchingIds(), countCap),
  );
  const ids = results.map((r) => r.campaign.campaignId.toString());
  const [chosen, states] = await Promise.all([chosenDateStarts(db, ids), campaignStatesOf(db, ids)]);
  return {
    ...page,
    results: results.map((r) => {
      const id = r.campaign.campaignId.toString();
      return campaignDto(r.campaign, r.account, states.get(id)!, chosen.get(id));
    }),
  };
}

/**
 * The page's ids among the first `head` campaigns of the sort (read along its index), if they hold
 * the whole page and the row after it: those are then the page's ids in the whole list too.
 */
async function pageInHead(
  db: Database,
  head: number,
  condition: SQL,
  ordering: SQL[],
  limit: number,
  offset: number,
): Promise<bigint[] | undefined> {
  const terms = sql.join(ordering, sql`, `);
  const rows = resultRows<{ campaign_id: string }>(
    await db.execute(sql`select ${campaigns.campaignId} from (
        select * from ${campaigns} order by ${terms} limit ${head}
      ) as ${sql.identifier(getTableName(campaigns))}
      where ${condition} order by ${terms} limit ${limit + 1} offset ${offset}`),
  );
  return rows.length > limit ? rows.map((row) => BigInt(row.campaign_id)) : undefined;
}

async function campaignExists(db: Database, campaignId: string): Promise<boolean> {
  const [known] = await db
    .select({ id: campaigns.campaignId })
    .from(campaigns)
    .where(eq(campaigns.campaignId, BigInt(campaignId)));
  return known !== undefined;
}

/** The ad accounts and campaigns over one database, as the campaigns' routes read them. */
export function createCampaignStore(db: Database, { countCap }: { countCap: number }) {
  return {
    adAccounts: (paging: PageRequest, search: string | undefined) => listAdAccounts(db, paging, search),
    list: (paging: PageRequest, filters: CampaignFilters) => listCampaigns(db, paging, filters, countCap),
    exists: (campaignId: string) => campaignExists(db, campaignId),
  };
}

export type CampaignStore = ReturnType<typeof createCampaignStore>;
