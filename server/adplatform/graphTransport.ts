/**
 * One Graph API call, made reliably: the URL, version and token; retries on rate-limit codes, 5xx,
 * timeouts and network errors with exponential back-off and jitter, waiting at least as long as the
 * platform says access takes to return; the usage headers slowing calls down before the platform
 * refuses them (UsageGovernor); cursor paging and batch requests; what the answers say of the API
 * version (versionNotice.ts). Writes are never re-sent after an unknown outcome here: the caller
 * decides (see graphClient.ts).
 */
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
import { countGraphCall, countRateLimitWait } from '../observability/counters';
import { readVersionNotice, type VersionNotice } from './versionNotice';

export interface GraphClientOptions {
  /** e.g. https://graph.facebook.com or the simulator's http://127.0.0.1:PORT */
  baseUrl: string;
  /** e.g. v26.0 (versions.ts) */
  apiVersion: string;
  accessToken: string;
  /** Per HTTP call. */
  timeoutMs?: number;
  /** Tries per call, the first included. */
  maxAttempts?: number;
  backoff?: { baseMs: number; maxMs: number };
  /** Longest single wait the client accepts; beyond it, a rate-limit error is thrown at once. */
  maxWaitMs?: number;
  /**
   * The wait after a refusal that carries no usage header (so no regain time): base·2^(n−1) up to
   * max. Graph's blocks last minutes (its rate-limiting docs), so this starts at a minute.
   */
  unreportedBlock?: { baseMs: number; maxMs: number };
  pageSize?: number;
  usage?: UsageOptions;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** [0, 1) — the jitter source. */
  random?: () => number;
  onEvent?: (event: GraphClientEvent) => void;
}

export interface TimeRange {
  since: string;
  until: string;
}

/** How an insights read asked for less after Graph said "reduce the amount of data" (insightsReader.ts). */
export type InsightsReadEvent =
  | { type: 'smaller-page'; path: string; limit: number }
  | { type: 'fewer-days'; path: string; halves: [TimeRange, TimeRange] }
  | { type: 'async-report'; path: string; reportRunId: string };

export type GraphClientEvent =
  | { type: 'retry'; attempt: number; delayMs: number; error: AdPlatformError; path: string }
  | { type: 'throttle'; delayMs: number; scope: string | undefined; path: string }
  | { type: 'write-verified'; id: string; status: string; applied: boolean }
  | InsightsReadEvent;

export interface Paged<T> {
  data: T[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string };
}

export interface BatchItem {
  method: 'GET' | 'POST' | 'DELETE';
  relative_url: string;
  body?: string;
}

export interface BatchAnswer {
  code: number;
  headers?: { name: string; value: string }[];
  body: string;
}

export type Params = Record<string, string | number | undefined>;

export const MAX_BATCH = 50;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class GraphTransport {
  readonly usage: UsageGovernor;
  /** HTTP calls made (a batch counts once): tests and logs read it. */
  calls = 0;
  /** What the latest answer said of the API version (facebook-api-version, its warning, Sunset). */
  versionNotice?: VersionNotice;
  protected readonly options: Required<Omit<GraphClientOptions, 'onEvent' | 'usage'>> &
    Pick<GraphClientOptions, 'onEvent'>;

  constructor(options: GraphClientOptions) {
    this.options = {
      timeoutMs: 60_000,
      maxAttempts: 5,
      backoff: { baseMs: 1000, maxMs: 60_000 },
      maxWaitMs: 5 * 60_000,
      unreportedBlock: { baseMs: 60_000, maxMs: 15 * 60_000 },
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

  /** The version called, and what Graph's latest answer said of it. */
  apiVersion(): { configured: string; notice?: VersionNotice } {
    return { configured: this.options.apiVersion, notice: this.versionNotice };
  }

  /**
   * Follows cursor paging to the end (from `params.after` when given). `scope` names the ad account
   * whose usage paces the calls when the path does not (`/{ad_id}/leads`).
   */
  async getAll<T>(path: string, params: Params, { scope }: { scope?: string } = {}): Promise<T[]> {
    const rows: T[] = [];
    const seen = new Set<string>();
    let after = params.after === undefined ? undefined : String(params.after);
    for (;;) {
      const page = await this.request<Paged<T>>('GET', path, { ...params, after }, { scope });
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
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    params: Params,
    { idempotent = method === 'GET', scope = accountScopeOf(path) }: { idempotent?: boolean; scope?: string } = {},
  ): Promise<T> {
    await this.waitForUsage(scope, path);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.once<T>(method, path, params, scope);
      } catch (error) {
        if (!(error instanceof AdPlatformError) || !error.transient || attempt >= this.options.maxAttempts) throw error;
        if (!idempotent && isAmbiguous(error)) throw error;
        // After a refusal, the back-off or the platform's own "regain access" time, whichever is longer;
        // a refusal without usage headers says nothing of its length, so it is waited out in minutes.
        const platformWait = error instanceof GraphRateLimitError ? this.refusalWait(error, scope, attempt) : 0;
        if (platformWait > this.options.maxWaitMs) throw error;
        const delayMs = Math.max(this.backoffDelay(attempt), platformWait);
        this.options.onEvent?.({ type: 'retry', attempt, delayMs, error, path });
        if (error instanceof GraphRateLimitError) countRateLimitWait('refused', delayMs);
        await this.options.sleep(delayMs);
      }
    }
  }

  private refusalWait(error: GraphRateLimitError, scope: string | undefined, attempt: number): number {
    const reported = Math.max(error.retryAfterMs ?? 0, this.usage.regainMs(scope));
    if (error.usageReported) return reported;
    const { baseMs, maxMs } = this.options.unreportedBlock;
    const wait = Math.max(reported, Math.min(maxMs, baseMs * 2 ** (attempt - 1)));
    this.usage.block(scope, wait);
    return wait;
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

  private async once<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    params: Params,
    scope: string | undefined,
  ): Promise<T> {
    const url = new URL(`${this.options.baseUrl}/${this.options.apiVersion}/${path}`);
    const form = new URLSearchParams();
    const target = method === 'POST' ? form : url.searchParams;
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
    this.versionNotice = readVersionNotice(headers, new Date()) ?? this.versionNotice;
    const usageReported = this.usage.record(headers, scope);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new GraphProtocolError(status, `The ad platform answered HTTP ${status} with a body that is not JSON`);
    }
    const errorBody = (body as { error?: GraphErrorBody } | null)?.error;
    if (errorBody || status >= 400) {
      const body = errorBody ?? { message: `HTTP ${status}` };
      throw graphError(status, body, this.usage.regainMs(scope) || undefined, usageReported);
    }
    return body as T;
  }
}
