/**
 * The product's Graph API client: the AdPlatformClient operations (accounts, campaigns, ads,
 * insights, budgets, status and budget writes) over GraphTransport, which makes each call reliably. The base URL and
 * version are settings, so the same code talks to graph.facebook.com or to the local simulator.
 *
 * Writes are never re-sent blindly: a write whose outcome is unknown (timeout, 5xx) is read back
 * first and re-sent only if it did not take effect, so a retry never writes twice. Writes to one ad
 * account are paced to Meta's 100 mutations a second (mutationPacer.ts).
 */
import type {
  Ad,
  AdAccount,
  AccountScope,
  AdPlatformClient,
  BudgetChange,
  Campaign,
  CampaignsWithAds,
  InsightRow,
  InsightsQuery,
  LeadRecord,
  LeadsQuery,
  ObjectStatus,
  StatusChangeResult,
  TokenStatus,
} from './types';
import {
  AdPlatformError,
  GraphAuthError,
  GraphRateLimitError,
  graphError,
  isAmbiguous,
  refusalText,
  type GraphErrorBody,
} from './errors';
import {
  ACCOUNT_FIELDS,
  AD_FIELDS,
  ADSET_BUDGET_FIELDS,
  CAMPAIGN_BUDGET_FIELDS,
  CAMPAIGN_FIELDS,
  DAILY_BUDGET_FIELDS,
  fieldsParam,
  HOURLY_BREAKDOWN,
  INSIGHT_FIELDS,
  STATUS_FIELDS,
} from './graphFields';
import { budgetObject, type BudgetNode } from './budgetRows';
import type { BudgetObject } from '../judgement/budgets/types';
import { MutationPacer } from './mutationPacer';
import { GraphTransport, MAX_BATCH, type BatchAnswer, type Paged, type Params } from './graphTransport';
import { InsightsReader } from './insightsReader';
import { errorMessage } from '../errorMessage';
import { emailHash } from '../webinar/emailHash';

export { MAX_BATCH, type GraphClientEvent, type GraphClientOptions } from './graphTransport';

/**
 * Rows per insights page asked for first (the insights reader halves it whenever Graph says it is
 * too much). The hourly breakdown has 24 rows per ad and day: its larger pages read an account's
 * last days in one call, where pages of 500 took three calls one after another.
 */
export const INSIGHTS_PAGE_SIZE = 500;
export const HOURLY_PAGE_SIZE = 5000;

/** Lead fields read; the person's answers (field_data) are reduced to their e-mail's hash at once. */
const LEAD_FIELDS = 'id,created_time,ad_id,form_id,field_data';

interface LeadOnTheWire {
  id: string;
  created_time: string;
  ad_id?: string;
  form_id?: string;
  field_data?: { name: string; values?: string[] }[];
}

/** 'act_123' or '123' → 'act_123'. */
export function actId(accountId: string): string {
  return accountId.startsWith('act_') ? accountId : `act_${accountId}`;
}

/** What is read back of an object after a write of each field whose outcome is unknown. */
const READ_BACK = { status: STATUS_FIELDS, daily_budget: DAILY_BUDGET_FIELDS } as const;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function parseErrorBody(text: string): GraphErrorBody | undefined {
  try {
    const parsed = JSON.parse(text) as { error?: GraphErrorBody };
    return parsed && typeof parsed === 'object' && parsed.error ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

export class GraphClient extends GraphTransport implements AdPlatformClient {
  /** Insights reads that ask for less (pages, days, an async report) when Graph says it is too much. */
  private readonly insights = new InsightsReader(
    this,
    (ms) => this.options.sleep(ms),
    {},
    (event) => this.options.onEvent?.(event),
  );
  /** Meta's 100 mutations a second per ad account, for every write this client sends. */
  private readonly pacer = new MutationPacer((ms) => this.options.sleep(ms));

  listAdAccounts(): Promise<AdAccount[]> {
    return this.getAll<AdAccount>('me/adaccounts', { fields: fieldsParam(ACCOUNT_FIELDS), limit: 100 });
  }

  listCampaigns(accountId: string): Promise<Campaign[]> {
    return this.getAll<Campaign>(`${actId(accountId)}/campaigns`, {
      fields: fieldsParam(CAMPAIGN_FIELDS),
      limit: this.options.pageSize,
    });
  }

  listAds(accountId: string): Promise<Ad[]> {
    return this.getAll<Ad>(`${actId(accountId)}/ads`, { fields: fieldsParam(AD_FIELDS), limit: this.options.pageSize });
  }

  /**
   * One read for both: each campaign with its ads as a nested edge (`ads.limit(N){…}`). Only a
   * campaign with more ads than fit in its nested page costs more reads (the rest of its ads edge).
   */
  async listCampaignsWithAds(accountId: string): Promise<CampaignsWithAds> {
    const adFields = fieldsParam(AD_FIELDS);
    const campaigns = await this.getAll<Campaign & { ads?: Paged<Ad> }>(`${actId(accountId)}/campaigns`, {
      fields: `${fieldsParam(CAMPAIGN_FIELDS)},ads.limit(${this.options.pageSize}){${adFields}}`,
      limit: this.options.pageSize,
    });
    const adsOf = await Promise.all(
      campaigns.map(async ({ id, ads }) => {
        const after = ads?.paging?.next ? ads.paging.cursors?.after : undefined;
        if (!after) return ads?.data ?? [];
        const rest = await this.getAll<Ad>(`${id}/ads`, { fields: adFields, limit: this.options.pageSize, after });
        return [...ads!.data, ...rest];
      }),
    );
    return { campaigns: campaigns.map(({ ads: _ads, ...campaign }) => campaign), ads: adsOf.flat() };
  }

  /** Lifetime (date_preset=maximum) unless a time range is given; pages as INSIGHTS_PAGE_SIZE says. */
  getInsights(accountId: string, query: InsightsQuery): Promise<InsightRow[]> {
    const limit = query.breakdown === 'hourly' ? HOURLY_PAGE_SIZE : INSIGHTS_PAGE_SIZE;
    const fields = query.fields?.join(',') ?? fieldsParam(INSIGHT_FIELDS);
    const params: Params = { level: query.level, fields, limit };
    if (query.timeRange) params.time_range = JSON.stringify(query.timeRange);
    else params.date_preset = 'maximum';
    if (query.timeIncrement) params.time_increment = query.timeIncrement;
    if (query.breakdown === 'hourly') params.breakdowns = HOURLY_BREAKDOWN;
    if (query.attributionWindows?.length) params.action_attribution_windows = JSON.stringify(query.attributionWindows);
    if (query.campaignIds?.length) {
      params.filtering = JSON.stringify([{ field: 'campaign.id', operator: 'IN', value: query.campaignIds }]);
    }
    return this.insights.read(`${actId(accountId)}/insights`, params);
  }

  /**
   * An ad's form leads, page by page, created at or after `since` (Graph's time_created filter,
   * strictly after the second before). Paced by the ad account's usage when `accountId` is given.
   */
  async listLeads(adId: string, query: LeadsQuery = {}): Promise<LeadRecord[]> {
    const params: Params = { fields: LEAD_FIELDS, limit: this.options.pageSize };
    if (query.since) {
      const after = Math.floor(query.since.getTime() / 1000) - 1;
      params.filtering = JSON.stringify([{ field: 'time_created', operator: 'GREATER_THAN', value: after }]);
    }
    const scope = query.accountId?.replace(/^act_/, '');
    const leads = await this.getAll<LeadOnTheWire>(`${adId}/leads`, params, { scope });
    return leads
      .map((lead) => ({
        id: lead.id,
        created_time: lead.created_time,
        ad_id: lead.ad_id ?? adId,
        ...(lead.form_id ? { form_id: lead.form_id } : {}),
        email_sha256: emailHash(lead.field_data?.find((field) => field.name === 'email')?.values?.[0]),
      }))
      .sort((a, b) => Date.parse(a.created_time) - Date.parse(b.created_time));
  }

  /** The account's ad sets and campaigns with their budget fields, every page of each. */
  async listBudgets(accountId: string): Promise<BudgetObject[]> {
    const [adsets, campaigns] = await Promise.all([
      this.getAll<BudgetNode>(`${actId(accountId)}/adsets`, {
        fields: fieldsParam(ADSET_BUDGET_FIELDS),
        limit: this.options.pageSize,
      }),
      this.getAll<BudgetNode>(`${actId(accountId)}/campaigns`, {
        fields: fieldsParam(CAMPAIGN_BUDGET_FIELDS),
        limit: this.options.pageSize,
      }),
    ]);
    return [
      ...campaigns.map((node) => budgetObject(node, 'campaign')),
      ...adsets.map((node) => budgetObject(node, 'adset')),
    ];
  }

  setStatuses(changes: { id: string; status: ObjectStatus }[], scope?: AccountScope): Promise<StatusChangeResult[]> {
    return this.writeEach(
      changes.map(({ id, status }) => ({ id, value: status })),
      'status',
      scope,
      (error) => error.message,
    );
  }

  /** Daily budgets (cents); a refusal keeps Graph's code, user title and subcode in its text. */
  setBudgets(changes: BudgetChange[], scope?: AccountScope): Promise<StatusChangeResult[]> {
    return this.writeEach(
      changes.map(({ id, dailyBudget }) => ({ id, value: String(Math.round(dailyBudget)) })),
      'daily_budget',
      scope,
      refusalText,
    );
  }

  /**
   * One field written on each object, in batches of 50 paced per ad account. An outcome left unknown
   * (timeout, 5xx) is read back before the write is sent again; a rate-limit refusal is sent again
   * after the back-off; any other refusal is that object's result, as `describe` words it.
   */
  private async writeEach(
    changes: { id: string; value: string }[],
    field: 'status' | 'daily_budget',
    scope: AccountScope | undefined,
    describe: (error: AdPlatformError) => string,
  ): Promise<StatusChangeResult[]> {
    const wanted = new Map(changes.map((c) => [c.id, c.value]));
    const results = new Map<string, StatusChangeResult>();
    const pending = new Set(wanted.keys());
    const unsure = new Set<string>();
    let lastError = 'not attempted';

    for (let round = 1; round <= this.options.maxAttempts && (pending.size || unsure.size); round += 1) {
      if (unsure.size) {
        const current = await this.readField([...unsure], field).catch(() => new Map<string, string>());
        for (const id of unsure) {
          const value = current.get(id);
          if (value === undefined) continue; // still unknown: try the write again
          const applied = value === wanted.get(id);
          this.options.onEvent?.({ type: 'write-verified', id, status: value, applied });
          if (applied) {
            results.set(id, { id, ok: true });
            pending.delete(id);
          }
        }
        unsure.clear();
        if (!pending.size) break;
      }
      if (round > 1) await this.options.sleep(this.backoffDelay(round - 1));

      for (const chunk of chunks([...pending], MAX_BATCH)) {
        let answers: (BatchAnswer | null)[];
        const release = await this.pacer.acquire(scope?.accountId ?? '', chunk.length);
        try {
          answers = await this.batch(
            chunk.map((id) => ({ method: 'POST', relative_url: id, body: `${field}=${wanted.get(id)}` })),
            { idempotent: false },
          );
        } catch (error) {
          lastError = error instanceof AdPlatformError ? describe(error) : errorMessage(error);
          if (isAmbiguous(error)) {
            for (const id of chunk) unsure.add(id);
          } else if (!(error instanceof AdPlatformError && error.transient)) {
            for (const id of chunk) {
              results.set(id, { id, ok: false, error: lastError });
              pending.delete(id);
            }
          }
          continue;
        } finally {
          release();
        }
        chunk.forEach((id, index) => {
          const answer = answers[index];
          if (!answer) {
            unsure.add(id); // the platform gave up on this item: it may or may not have run
            return;
          }
          if (answer.code >= 200 && answer.code < 300) {
            results.set(id, { id, ok: true });
            pending.delete(id);
            return;
          }
          const error = graphError(answer.code, parseErrorBody(answer.body) ?? { message: `HTTP ${answer.code}` });
          lastError = describe(error);
          if (error instanceof GraphRateLimitError) return; // refused, not applied: send again
          if (isAmbiguous(error)) {
            unsure.add(id);
            return;
          }
          results.set(id, { id, ok: false, error: lastError });
          pending.delete(id);
        });
      }
    }
    for (const id of new Set([...pending, ...unsure])) {
      if (!results.has(id)) results.set(id, { id, ok: false, error: lastError });
    }
    return [...wanted.keys()].map((id) => results.get(id)!);
  }

  /**
   * The token's validity (`me`: an invalid token is Graph's auth error) and expiry (`debug_token`,
   * which a platform may refuse: then the expiry is unknown, not a problem).
   */
  async checkToken(): Promise<TokenStatus> {
    await this.request<{ id: string }>('GET', 'me', { fields: 'id' });
    try {
      const answer = await this.request<{ data?: { expires_at?: number } }>('GET', 'debug_token', {
        input_token: this.options.accessToken,
      });
      const expires = answer.data?.expires_at;
      return { expiresAt: expires ? new Date(expires * 1000) : null };
    } catch (error) {
      if (error instanceof GraphAuthError) throw error;
      return { expiresAt: null };
    }
  }

  // ---- further reads the sync uses -----------------------------------------------------------

  getCampaign(campaignId: string): Promise<Campaign> {
    return this.request<Campaign>('GET', campaignId, { fields: fieldsParam(CAMPAIGN_FIELDS) });
  }

  /** Lifetime insights of one campaign; null when it has not delivered. */
  async getCampaignInsights(campaignId: string): Promise<InsightRow | null> {
    const rows = await this.insights.read(`${campaignId}/insights`, {
      level: 'campaign',
      fields: fieldsParam(INSIGHT_FIELDS),
      date_preset: 'maximum',
    });
    return rows[0] ?? null;
  }

  /** Current `status` of each object, read in batches of 50; objects that could not be read are absent. */
  readStatuses(ids: string[]): Promise<Map<string, string>> {
    return this.readField(ids, 'status');
  }

  /** One field of each object, read in batches of 50; objects that could not be read (or lack it) are absent. */
  private async readField(ids: string[], field: 'status' | 'daily_budget'): Promise<Map<string, string>> {
    const values = new Map<string, string>();
    for (const chunk of chunks(ids, MAX_BATCH)) {
      const answers = await this.batch(
        chunk.map((id) => ({ method: 'GET', relative_url: `${id}?fields=${fieldsParam(READ_BACK[field])}` })),
        { idempotent: true },
      );
      chunk.forEach((id, index) => {
        const answer = answers[index];
        if (answer?.code !== 200) return;
        try {
          const value = (JSON.parse(answer.body) as Record<string, unknown>)[field];
          if (typeof value === 'string' && value) values.set(id, value);
        } catch {
          // unreadable answer: leave it unknown
        }
      });
    }
    return values;
  }
}
