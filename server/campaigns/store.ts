/** Reading ad accounts and campaigns for the API: the pages of both lists, and whether a campaign is known. */
import { asc, count, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { campaigns, metaAdAccounts } from '../db/schema/index';
import { cappedSlice, DEFAULT_COUNT_CAP, slice, type PageRequest, type Slice } from '../http/pagination';
import { searchAny } from '../http/search';
import { adAccountDto, campaignDto, type CampaignDto } from './dto';
import { campaignConditions, campaignOrdering } from './query';
import type { CampaignFilters } from './schemas';

/** Ad accounts by name (case-insensitive), then id. */
export async function listAdAccounts(
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
 * Campaigns matching the filters. Every campaign has its ad account (foreign key), so an inner
 * join loses nothing and lets the planner walk accounts in name order when sorting by them.
 */
export async function listCampaigns(
  db: Database,
  { limit, offset }: PageRequest,
  filters: CampaignFilters,
  countCap = DEFAULT_COUNT_CAP,
): Promise<Slice<CampaignDto>> {
  const where = campaignConditions(filters);
  const { results, ...page } = await cappedSlice(
    { limit, offset },
    countCap,
    db
      .select({ campaign: campaigns, account: metaAdAccounts })
      .from(campaigns)
      .innerJoin(metaAdAccounts, eq(campaigns.adAccountId, metaAdAccounts.adAccountId))
      .where(where)
      .orderBy(...campaignOrdering(filters.ordering))
      .limit(limit + 1)
      .offset(offset),
    db.select({ n: count() }).from(
      db
        .select({ id: campaigns.campaignId })
        .from(campaigns)
        .innerJoin(metaAdAccounts, eq(campaigns.adAccountId, metaAdAccounts.adAccountId))
        .where(where)
        .limit(countCap + 1)
        .as('capped'),
    ),
  );
  return { ...page, results: results.map((r) => campaignDto(r.campaign, r.account)) };
}

export async function campaignExists(db: Database, campaignId: string): Promise<boolean> {
  const [known] = await db
    .select({ id: campaigns.campaignId })
    .from(campaigns)
    .where(eq(campaigns.campaignId, BigInt(campaignId)));
  return known !== undefined;
}
