/**
 * Ad accounts and campaigns (SPEC §7):
 *   GET  /api/meta_ad_account/            ad accounts (limit 400)       read_rules | create_update_rules | add_edit_campaigns
 *   GET  /api/meta_ad_account/refresh/    re-sync them, then the list   same
 *   GET  /api/campaigns/                  filtered, ordered, paged      add_edit_campaigns
 *   POST /api/campaigns/{id}/update_campaign/   refresh one campaign    add_edit_campaigns
 *   POST /api/campaigns/sync/             sync every campaign now       add_edit_campaigns
 */
import { asc, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Permission } from '../../src/domain/permissions';
import { MESSAGES } from '../../src/domain/validation';
import { AD_ACCOUNT_LIST_LIMIT } from '../../src/domain/constants';
import { requireAnyPermission, requirePermission } from '../auth/plugin';
import { campaigns, metaAdAccounts } from '../db/schema/index';
import { ApiError, notFound, ValidationError } from '../http/errors';
import { paginate, pageRequest } from '../http/pagination';
import { AdPlatformError, GraphNotFoundError, GraphRateLimitError } from '../adplatform/errors';
import type { CampaignSync } from './sync';
import { campaignConditions, campaignOrdering } from './query';
import { adAccountDto, campaignDto } from './dto';
import { searchAny } from '../http/search';

export const CAMPAIGN_UPDATED = 'Campaign updated successfully';
/** Who may list ad accounts: anyone who picks one (folders) or filters by one (campaigns). */
export const AD_ACCOUNT_PERMISSIONS: Permission[] = ['read_rules', 'create_update_rules', 'add_edit_campaigns'];

const requireCampaigns = requirePermission('add_edit_campaigns');
const mayListAccounts = requireAnyPermission(...AD_ACCOUNT_PERMISSIONS);

/** The ad platform's failures, in the contract's `{detail}` shape. */
function platformError(error: unknown): ApiError {
  if (error instanceof GraphNotFoundError) return notFound('Campaign not found on the ad platform.');
  if (error instanceof GraphRateLimitError)
    return new ApiError(503, { detail: 'The ad platform is busy (rate limit). Try again in a few minutes.' });
  if (error instanceof AdPlatformError)
    return new ApiError(502, { detail: `The ad platform did not answer: ${error.message}` });
  throw error;
}

/** A call to the ad platform whose failures answer in the contract's shape. */
async function onPlatform<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw platformError(error);
  }
}

export default async function campaignRoutes(app: FastifyInstance) {
  const sync = () => app.campaignSync;

  const listAccounts = async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    const paging = pageRequest(query, AD_ACCOUNT_LIST_LIMIT, 1000);
    const where = searchAny(query.search, [metaAdAccounts.accountName]);
    const [rows, [total]] = await Promise.all([
      app.db
        .select()
        .from(metaAdAccounts)
        .where(where)
        .orderBy(asc(sql`lower(${metaAdAccounts.accountName})`), asc(metaAdAccounts.adAccountId))
        .limit(paging.limit)
        .offset(paging.offset),
      app.db.select({ n: count() }).from(metaAdAccounts).where(where),
    ]);
    return paginate(request, paging, { count: total?.n ?? 0, results: rows.map(adAccountDto) });
  };

  app.get('/meta_ad_account/', { preHandler: mayListAccounts }, listAccounts);

  app.get('/meta_ad_account/refresh/', { preHandler: mayListAccounts }, async (request) => {
    await onPlatform(() => sync().syncAdAccounts());
    return listAccounts(request);
  });

  // Every campaign has its ad account (foreign key), so an inner join loses nothing and lets the
  // planner walk accounts in name order when sorting by them.
  app.get('/campaigns/', { preHandler: requireCampaigns }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const paging = pageRequest(query, 10, 1000);
    const where = campaignConditions(query);
    const [rows, [total]] = await Promise.all([
      app.db
        .select({ campaign: campaigns, account: metaAdAccounts })
        .from(campaigns)
        .innerJoin(metaAdAccounts, eq(campaigns.adAccountId, metaAdAccounts.adAccountId))
        .where(where)
        .orderBy(...campaignOrdering(query.ordering))
        .limit(paging.limit)
        .offset(paging.offset),
      app.db
        .select({ n: count() })
        .from(campaigns)
        .innerJoin(metaAdAccounts, eq(campaigns.adAccountId, metaAdAccounts.adAccountId))
        .where(where),
    ]);
    return paginate(request, paging, {
      count: total?.n ?? 0,
      results: rows.map((r) => campaignDto(r.campaign, r.account)),
    });
  });

  app.post('/campaigns/:campaign_id/update_campaign/', { preHandler: requireCampaigns }, async (request) => {
    const { campaign_id: campaignId } = request.params as { campaign_id: string };
    if (!/^\d{1,19}$/.test(campaignId)) throw new ValidationError({ campaign_id: [MESSAGES.integer] });
    const [known] = await app.db
      .select({ id: campaigns.campaignId })
      .from(campaigns)
      .where(eq(campaigns.campaignId, BigInt(campaignId)));
    if (!known) throw notFound('Campaign not found.');
    await onPlatform(() => sync().refreshCampaign(campaignId));
    return { detail: CAMPAIGN_UPDATED };
  });

  app.post('/campaigns/sync/', { preHandler: requireCampaigns }, async () => {
    const report = await onPlatform(() => sync().syncAll());
    const failed = report.failures.length;
    return {
      detail: failed
        ? `Campaigns synced; ${failed} ad account(s) could not be read and kept their last data.`
        : 'Campaigns synced successfully',
      accounts: report.accounts,
      campaigns: report.campaigns,
      failures: report.failures,
    };
  });
}
