/**
 * A thin fetch client for the subset of Meta's Marketing (Graph) API the product uses. The base URL
 * and version are settings, so the same code talks to graph.facebook.com or to the local simulator.
 *
 * Reliability, in one place:
 * - reads are retried on rate-limit codes, 5xx, timeouts and network errors, with exponential
 *   back-off and jitter, waiting at least as long as the platform says access takes to return;
 * - the usage headers slow calls down before the platform refuses them (UsageGovernor);
 * - writes are never re-sent blindly: a write whose outcome is unknown (timeout, 5xx) is read back
 *   first and re-sent only if it did not take effect, so a retry never writes twice.
 */
import type {
  ActionValue,
  Ad,
  AdAccount,
  AdPlatformClient,
  Campaign,
  InsightRow,
  InsightsQuery,
  ObjectStatus,
  StatusChangeResult,
} from './types';
import {
  AdPlatformError,
  GraphNetworkError,
  GraphProtocolError,
  GraphRateLimitError,
  GraphTimeoutError,
  graphError,
  isAmbiguous,
  type GraphErrorBody,
} from './errors';
import { accountScopeOf, UsageGovernor, type UsageOptions } from './usage';
import { errorMessage } from '../errorMessage';
import { countGraphCall, countRateLimitWait } from '../observability/metrics';

export interface GraphClientOptions {
  /** e.g. https://graph.facebook.com or the simulator's http://127.0.0.1:PORT */
  baseUrl: string;
  /** e.g. v21.0 */
  apiVersion: string;
  accessToken: string;
  /** Per HTTP call. */
  timeoutMs?: number;
  /** Tries per call, the first included. */
  maxAttempts?: number;
  backoff?: { baseMs: number; maxMs: number };
  /** Longest single wait the client accepts; beyond it, a rate-limit error is thrown at once. */
  maxWaitMs?: number;
  pageSize?: number;
  usage?: UsageOptions;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** [0, 1) — the jitter source. */
  random?: () => number;
  onEvent?: (event: GraphClientEvent) => void;
}

export type GraphClientEvent =
  | { type: 'retry'; attempt: number; delayMs: number; error: AdPlatformError; path: string }
  | { type: 'throttle'; delayMs: number; scope: string | undefined; path: string }
  | { type: 'write-verified'; id: string; status: string; applied: boolean };

interface Paged<T> {
  data: T[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string };
}

interface BatchItem {
  method: 'GET' | 'POST' | 'DELETE';
  relative_url: string;
  body?: string;
}

interface BatchAnswer {
  code: number;
  headers?: { name: string; value: string }[];
  body: string;
}

type Params = Record<string, string | number | undefined>;

export const MAX_BATCH = 50;

/**
 * How the client reads a field off the wire. Each field list below names the fields the client asks
 * Graph for and the kind it expects; the compiler holds the kinds to types.ts and the spec test
 * holds them to Meta's published spec of the node, so neither can drift silently.
 */
export type WireKind = 'id' | 'string' | 'numeric string' | 'enum' | 'datetime' | 'integer' | 'action list';
type KindOf<T> = T extends ActionValue[]
  ? 'action list'
  : T extends number
    ? 'integer'
    : T extends string
      ? Exclude<WireKind, 'integer' | 'action list'>
      : never;
export type FieldKinds<T> = { readonly [K in keyof T]?: KindOf<NonNullable<T[K]>> };

/** Fields read from AdAccount nodes. */
export const ACCOUNT_FIELDS = {
  id: 'id',
  account_id: 'id',
  name: 'string',
  timezone_name: 'string',
  currency: 'string',
  account_status: 'integer',
} as const satisfies FieldKinds<AdAccount>;

/** Fields read from Campaign nodes. */
export const CAMPAIGN_FIELDS = {
  id: 'id',
  name: 'string',
  status: 'enum',
  effective_status: 'enum',
  start_time: 'datetime',
  stop_time: 'datetime',
  daily_budget: 'numeric string',
  account_id: 'id',
} as const satisfies FieldKinds<Campaign>;

/** Fields read from Ad nodes. */
export const AD_FIELDS = {
  id: 'id',
  name: 'string',
  status: 'enum',
  effective_status: 'enum',
  campaign_id: 'id',
  adset_id: 'id',
} as const satisfies FieldKinds<Ad>;

/** Fields read back from a Campaign, AdSet or Ad after a write whose outcome is unknown. */
export const STATUS_FIELDS = { id: 'id', status: 'enum' } as const satisfies FieldKinds<{ id: string; status: string }>;

/** Fields read from AdsInsights rows (Graph adds date_start and date_stop itself). */
export const INSIGHT_FIELDS = {
  account_id: 'id',
  campaign_id: 'id',
  campaign_name: 'string',
  adset_id: 'id',
  ad_id: 'id',
  ad_name: 'string',
  spend: 'numeric string',
  impressions: 'numeric string',
  clicks: 'numeric string',
  inline_link_clicks: 'numeric string',
  ctr: 'numeric string',
  cpc: 'numeric string',
  actions: 'action list',
  cost_per_action_type: 'action list',
} as const satisfies FieldKinds<InsightRow>;

/** The hourly breakdown in the advertiser's time zone (rows name their hour in this field). */
export const HOURLY_BREAKDOWN = 'hourly_stats_aggregated_by_advertiser_time_zone';

/** `{id: …, name: …}` → 'id,name', the `fields` parameter. */
export const fieldsParam = (fields: Readonly<Record<string, WireKind>>): string => Object.keys(fields).join(',');

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** 'act_123' or '123' → 'act_123'. */
export function actId(accountId: string): string {
  return accountId.startsWith('act_') ? accountId : `act_${accountId}`;
}

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

export class GraphClient implements AdPlatformClient {
  readonly usage: UsageGovernor;
  /** HTTP calls made (a batch counts once): tests and logs read it. */
  calls = 0;
  private readonly options: Required<Omit<GraphClientOptions, 'onEvent' | 'usage'>> &
    Pick<GraphClientOptions, 'onEvent'>;

  constructor(options: GraphClientOptions) {
    this.options = {
      timeoutMs: 60_000,
      maxAttempts: 5,
      backoff: { baseMs: 1000, maxMs: 60_000 },
      maxWaitMs: 5 * 60_000,
      pageSize: 200,
      fetch: globalThis.fetch.bind(globalThis),
      sleep: defaultSleep,
      random: Math.random,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
    this.usage = new UsageGovernor(options.usage);
  }

  // ---- the AdPlatformClient interface -------------------------------------------------------

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

  /** Lifetime (date_preset=maximum) unless a time range is given; one call per 500 rows. */
  getInsights(accountId: string, query: InsightsQuery): Promise<InsightRow[]> {
    const params: Params = { level: query.level, fields: fieldsParam(INSIGHT_FIELDS), limit: 500 };
    if (query.timeRange) params.time_range = JSON.stringify(query.timeRange);
    else params.date_preset = 'maximum';
    if (query.timeIncrement) params.time_increment = query.timeIncrement;
    if (query.breakdown === 'hourly') params.breakdowns = HOURLY_BREAKDOWN;
    if (query.campaignIds?.length) {
      params.filtering = JSON.stringify([{ field: 'campaign.id', operator: 'IN', value: query.campaignIds }]);
    }
    return this.getAll<InsightRow>(`${actId(accountId)}/insights`, params);
  }

  async setStatuses(changes: { id: string; status: ObjectStatus }[]): Promise<StatusChangeResult[]> {
    const wanted = new Map(changes.map((c) => [c.id, c.status]));
    const results = new Map<string, StatusChangeResult>();
    const pending = new Set(wanted.keys());
    const unsure = new Set<string>();
    let lastError = 'not attempted';

    for (let round = 1; round <= this.options.maxAttempts && (pending.size || unsure.size); round += 1) {
      if (unsure.size) {
        const current = await this.readStatuses([...unsure]).catch(() => new Map<string, string>());
        for (const id of unsure) {
          const status = current.get(id);
          if (status === undefined) continue; // still unknown: try the write again
          const applied = status === wanted.get(id);
          this.options.onEvent?.({ type: 'write-verified', id, status, applied });
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
        try {
          answers = await this.batch(
            chunk.map((id) => ({ method: 'POST', relative_url: id, body: `status=${wanted.get(id)}` })),
            { idempotent: false },
          );
        } catch (error) {
          lastError = errorMessage(error);
          if (isAmbiguous(error)) {
            for (const id of chunk) unsure.add(id);
          } else if (!(error instanceof AdPlatformError && error.transient)) {
            for (const id of chunk) {
              results.set(id, { id, ok: false, error: lastError });
              pending.delete(id);
            }
          }
          continue;
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
          lastError = error.message;
          if (error instanceof GraphRateLimitError) return; // refused, not applied: send again
          if (isAmbiguous(error)) {
            unsure.add(id);
            return;
          }
          results.set(id, { id, ok: false, error: error.message });
          pending.delete(id);
        });
      }
    }
    for (const id of new Set([...pending, ...unsure])) {
      if (!results.has(id)) results.set(id, { id, ok: false, error: lastError });
    }
    return [...wanted.keys()].map((id) => results.get(id)!);
  }

  // ---- further reads the sync uses -----------------------------------------------------------

  getCampaign(campaignId: string): Promise<Campaign> {
    return this.request<Campaign>('GET', campaignId, { fields: fieldsParam(CAMPAIGN_FIELDS) });
  }

  /** Lifetime insights of one campaign; null when it has not delivered. */
  async getCampaignInsights(campaignId: string): Promise<InsightRow | null> {
    const rows = await this.getAll<InsightRow>(`${campaignId}/insights`, {
      level: 'campaign',
      fields: fieldsParam(INSIGHT_FIELDS),
      date_preset: 'maximum',
    });
    return rows[0] ?? null;
  }

  /** Current `status` of each object, read in batches of 50; objects that could not be read are absent. */
  async readStatuses(ids: string[]): Promise<Map<string, string>> {
    const statuses = new Map<string, string>();
    for (const chunk of chunks(ids, MAX_BATCH)) {
      const answers = await this.batch(
        chunk.map((id) => ({ method: 'GET', relative_url: `${id}?fields=${fieldsParam(STATUS_FIELDS)}` })),
        { idempotent: true },
      );
      chunk.forEach((id, index) => {
        const answer = answers[index];
        if (answer?.code !== 200) return;
        try {
          const status = (JSON.parse(answer.body) as { status?: string }).status;
          if (status) statuses.set(id, status);
        } catch {
          // unreadable answer: leave it unknown
        }
      });
    }
    return statuses;
  }

  // ---- transport ------------------------------------------------------------------------------

  /** Follows cursor paging to the end. */
  async getAll<T>(path: string, params: Params): Promise<T[]> {
    const rows: T[] = [];
    const seen = new Set<string>();
    let after: string | undefined;
    for (;;) {
      const page = await this.request<Paged<T>>('GET', path, { ...params, after });
      rows.push(...(page.data ?? []));
      const next = page.paging?.next ? page.paging.cursors?.after : undefined;
      if (!next || seen.has(next)) return rows;
      seen.add(next);
      after = next;
    }
  }

  /** Graph batch request (≤ 50 items, each counted separately by the platform's limits). */
  async batch(items: BatchItem[], { idempotent }: { idempotent: boolean }): Promise<(BatchAnswer | null)[]> {
    if (items.length > MAX_BATCH) throw new Error(`A batch holds at most ${MAX_BATCH} requests`);
    const answers = await this.request<(BatchAnswer | null)[]>(
      'POST',
      '',
      { batch: JSON.stringify(items), include_headers: 'false' },
      { idempotent },
    );
    if (!Array.isArray(answers))
      throw new GraphProtocolError(200, 'A batch request answered something other than a list');
    return answers;
  }

  /**
   * One Graph call with retries. Non-idempotent calls (writes) are retried only after errors that
   * prove nothing was done (rate-limit refusals); an unknown outcome is thrown to the caller.
   */
  async request<T>(
    method: 'GET' | 'POST',
    path: string,
    params: Params,
    { idempotent = method === 'GET' } = {},
  ): Promise<T> {
    const scope = accountScopeOf(path);
    await this.waitForUsage(scope, path);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.once<T>(method, path, params, scope);
      } catch (error) {
        if (!(error instanceof AdPlatformError) || !error.transient || attempt >= this.options.maxAttempts) throw error;
        if (!idempotent && isAmbiguous(error)) throw error;
        // After a refusal, the back-off or the platform's own "regain access" time, whichever is longer.
        const platformWait =
          error instanceof GraphRateLimitError ? Math.max(error.retryAfterMs ?? 0, this.usage.regainMs(scope)) : 0;
        if (platformWait > this.options.maxWaitMs) throw error;
        const delayMs = Math.max(this.backoffDelay(attempt), platformWait);
        this.options.onEvent?.({ type: 'retry', attempt, delayMs, error, path });
        if (error instanceof GraphRateLimitError) countRateLimitWait('refused', delayMs);
        await this.options.sleep(delayMs);
      }
    }
  }

  /** Exponential back-off with "equal jitter": a random wait in [c/2, c] where c = min(max, base·2^(n−1)). */
  backoffDelay(attempt: number): number {
    const { baseMs, maxMs } = this.options.backoff;
    const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (ceiling / 2) * this.options.random());
  }

  private async waitForUsage(scope: string | undefined, path: string): Promise<void> {
    const delayMs = this.usage.delayFor(scope);
    if (delayMs <= 0) return;
    if (delayMs > this.options.maxWaitMs) {
      throw new GraphRateLimitError(
        429,
        { message: `The ad platform asked to wait ${Math.ceil(delayMs / 1000)} s before calling again`, code: 80004 },
        delayMs,
      );
    }
    this.options.onEvent?.({ type: 'throttle', delayMs, scope, path });
    countRateLimitWait('usage', delayMs);
    await this.options.sleep(delayMs);
  }

  private async once<T>(method: 'GET' | 'POST', path: string, params: Params, scope: string | undefined): Promise<T> {
    const url = new URL(`${this.options.baseUrl}/${this.options.apiVersion}/${path}`);
    const form = new URLSearchParams();
    const target = method === 'GET' ? url.searchParams : form;
    for (const [key, value] of Object.entries(params)) if (value !== undefined) target.set(key, String(value));
    target.set('access_token', this.options.accessToken);

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    this.calls += 1;
    let status: number;
    let text: string;
    let headers: Headers;
    try {
      const response = await this.options.fetch(url, {
        method,
        signal: controller.signal,
        ...(method === 'POST' ? { body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}),
      });
      status = response.status;
      headers = response.headers;
      text = await response.text();
    } catch (error) {
      countGraphCall(controller.signal.aborted ? 'timeout' : 'network');
      if (controller.signal.aborted) throw new GraphTimeoutError(this.options.timeoutMs);
      throw new GraphNetworkError(error);
    } finally {
      clearTimeout(timer);
    }

    countGraphCall(status);
    this.usage.record(headers, scope);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new GraphProtocolError(status, `The ad platform answered HTTP ${status} with a body that is not JSON`);
    }
    const errorBody = (body as { error?: GraphErrorBody } | null)?.error;
    if (errorBody || status >= 400) {
      throw graphError(status, errorBody ?? { message: `HTTP ${status}` }, this.usage.regainMs(scope) || undefined);
    }
    return body as T;
  }
}
