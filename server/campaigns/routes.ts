/**
 * Ad accounts and campaigns (docs/contract.md#calls):
 *   GET  /api/meta_ad_account/refresh/    re-sync the ad accounts, then their list   read_rules | create_update_rules | add_edit_campaigns
 * (the ad accounts' list and records are the resource of shared/resources/adAccounts.ts)
 *   GET  /api/campaigns/                  filtered, ordered, paged      add_edit_campaigns
 *   POST /api/campaigns/{id}/update_campaign/   refresh one campaign    add_edit_campaigns
 *   POST /api/campaigns/sync/             sync every campaign now       add_edit_campaigns
 *   GET  /api/campaigns/{id}/event_dates/ its webinar dates (and the ones to choose from)   add_edit_campaigns
 *   POST /api/campaigns/{id}/event_date/  choose its date when the name has none          create_update_rules
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AD_ACCOUNT_LIST_LIMIT } from '../../shared/constants';
import type { Permission } from '../../shared/permissions';
import { AdPlatformError, GraphNotFoundError, GraphRateLimitError } from '../adplatform/errors';
import { requireAnyPermission, requirePermission } from '../auth/plugin';
import { byUser, limitAttempts } from '../http/attemptLimit';
import { ApiError, notFound } from '../http/errors';
import { paginate, pageRequest } from '../http/pagination';
import { detailSchema, errors, noBody, pageOf } from '../http/schemas';
import {
  adAccountListQuery,
  adAccountSchema,
  campaignIdParams,
  campaignListQuery,
  campaignEventsAnswer,
  campaignSchema,
  chosenEventDateBody,
  syncReportSchema,
  tags,
} from './schemas';
import { createCampaignStore } from './store';
import { campaignEventDates, chooseEventDate, type ChosenDateDeps } from '../outcomes/chosenDates';

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

const accountList = { tags, querystring: adAccountListQuery, response: { 200: pageOf(adAccountSchema) } };

const campaignRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = createCampaignStore(app.db, { countCap: app.config.listCountCap });
  const listAccounts = async (request: FastifyRequest, query: z.output<typeof adAccountListQuery>) => {
    const paging = pageRequest(query, AD_ACCOUNT_LIST_LIMIT, 1000);
    return paginate(request, paging, await store.adAccounts(paging, query.search));
  };

  // Refreshes read the ad platform: a person cannot burn the account's call budget.
  const platformBudget = limitAttempts(app, 'campaign-platform', [{ key: byUser }], 'refreshes');

  app.get(
    '/meta_ad_account/refresh/',
    {
      config: { writes: true },
      preValidation: [mayListAccounts, platformBudget],
      schema: { ...accountList, response: { ...accountList.response, ...errors(403, 429, 502, 503) } },
    },
    async (request) => {
      await onPlatform(() => app.campaignSync.syncAdAccounts());
      return listAccounts(request, request.query);
    },
  );

  app.get(
    '/campaigns/',
    {
      preValidation: requireCampaigns,
      config: { pageCache: { reads: ['campaigns', 'meta_ad_accounts', 'campaign_events', 'rule_activity', 'rules'] } },
      schema: { tags, querystring: campaignListQuery, response: { 200: pageOf(campaignSchema), ...errors(400, 403) } },
    },
    async (request) => {
      const paging = pageRequest(request.query, 10, 1000);
      return paginate(request, paging, await store.list(paging, request.query));
    },
  );

  app.post(
    '/campaigns/:campaign_id/update_campaign/',
    {
      preValidation: [requireCampaigns, platformBudget],
      schema: {
        tags,
        params: campaignIdParams,
        body: noBody,
        response: { 200: detailSchema, ...errors(400, 403, 404, 429, 502, 503) },
      },
    },
    async (request) => {
      const { campaign_id: campaignId } = request.params;
      if (!(await store.exists(campaignId))) throw notFound('Campaign not found.');
      await onPlatform(() => app.campaignSync.refreshCampaign(campaignId));
      return { detail: CAMPAIGN_UPDATED };
    },
  );

  const dateDeps = (): ChosenDateDeps => ({
    db: app.db,
    demioFor: app.webinar ? (credentials) => app.webinar!.clientFor(credentials) : undefined,
    decrypt: (stored) => app.credentials.decrypt(stored),
  });

  app.get(
    '/campaigns/:campaign_id/event_dates/',
    {
      preValidation: requireCampaigns,
      schema: {
        tags,
        params: campaignIdParams,
        response: { 200: campaignEventsAnswer, ...errors(400, 403, 404, 409, 502, 503) },
      },
    },
    async (request) => campaignEventDates(dateDeps(), request.params.campaign_id),
  );

  app.post(
    '/campaigns/:campaign_id/event_date/',
    {
      config: { writes: true },
      preValidation: [requirePermission('create_update_rules'), platformBudget],
      schema: {
        tags,
        params: campaignIdParams,
        body: chosenEventDateBody,
        response: { 200: campaignEventsAnswer, ...errors(400, 403, 404, 409, 429, 502, 503) },
      },
    },
    async (request) => chooseEventDate(dateDeps(), request.params.campaign_id, request.body),
  );

  app.post(
    '/campaigns/sync/',
    {
      preValidation: [requireCampaigns, platformBudget],
      schema: { tags, body: noBody, response: { 200: syncReportSchema, ...errors(400, 403, 429, 502, 503) } },
    },
    async () => {
      const report = await onPlatform(() => app.campaignSync.syncAll());
      const failed = report.failures.length;
      return {
        detail: failed
          ? `Campaigns synced; ${failed} ad account(s) could not be read and kept their last data.`
          : 'Campaigns synced successfully',
        accounts: report.accounts,
        campaigns: report.campaigns,
        failures: report.failures,
      };
    },
  );
};

export default campaignRoutes;
