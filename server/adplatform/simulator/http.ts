/**
 * The simulator's HTTP face: Graph-style paths under any version prefix (`/v21.0/...`), GET query
 * or form/JSON POST parameters, batch requests, access-token checks, usage headers, injected
 * faults, and a small admin API under `/__sim/` (clock, faults, state, object inspection).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorAnswer, type GraphAnswer, type GraphContext, type GraphHandler, type Params } from './graph';
import { FaultBoard, RATE_LIMIT_MESSAGES, type FaultSpec } from './faults';
import type { SimClock } from './clock';
import { adTotals, graphMetrics, statusAt } from './delivery';
import { effectiveStatus } from './nodes';
import type { ScenarioName } from './scenarios';
import type { World } from './world';

export interface LoggedRequest {
  method: string;
  path: string;
  /** Items in a batch request. */
  batchSize?: number;
  fault?: string;
  at: string;
}

export interface HttpOptions {
  host: string;
  port: number;
  /** When set, only this token is accepted. */
  accessToken?: string;
  /** Calls per account in 5 minutes that count as 100 % usage (the real quotas are higher). */
  accountQuota: number;
  /** Calls over all accounts in 5 minutes that count as 100 % app usage (x-app-usage); default 10 × accountQuota. */
  appQuota?: number;
}

/** Per ad account since the simulator started: reads (GET, batch items included), writes, and refused calls. */
export interface AccountCallCount {
  reads: number;
  writes: number;
  refused: number;
}

const USAGE_WINDOW_MS = 5 * 60_000;
const MAX_BATCH = 50;
const MAX_LOGGED = 10_000;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseParams(query: URLSearchParams, body: string, contentType: string | undefined): Params {
  const params: Params = Object.fromEntries(query);
  if (!body) return params;
  if (contentType?.includes('application/json')) {
    const json = JSON.parse(body) as Record<string, unknown>;
    for (const [key, value] of Object.entries(json))
      params[key] = typeof value === 'string' ? value : JSON.stringify(value);
  } else {
    Object.assign(params, Object.fromEntries(new URLSearchParams(body)));
  }
  return params;
}

/** `/v21.0/act_1/insights` → `act_1/insights`. */
const graphPath = (pathname: string) =>
  pathname
    .replace(/^\/+/, '')
    .replace(/^v\d+\.\d+\/?/, '')
    .replace(/\/+$/, '');

export class SimulatorServer {
  readonly faults = new FaultBoard();
  readonly requests: LoggedRequest[] = [];
  private readonly server: http.Server;
  private readonly held = new Set<NodeJS.Timeout>();
  private readonly calls = new Map<string, number[]>();
  /** Calls per ad account (digits) since the start; never trimmed, unlike `requests`. */
  readonly accountCalls = new Map<string, AccountCallCount>();

  constructor(
    readonly graph: GraphHandler,
    readonly world: World,
    readonly clock: SimClock,
    private readonly options: HttpOptions,
  ) {
    this.server = http.createServer((request, response) => {
      this.route(request, response).catch((error: unknown) => {
        if (!response.headersSent)
          this.send(response, errorAnswer(500, 1, `An unknown error occurred: ${String(error)}`), {});
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.host, () => resolve());
    });
    return this.url;
  }

  get url(): string {
    const address = this.server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;
  }

  async close(): Promise<void> {
    for (const timer of this.held) clearTimeout(timer);
    this.held.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://simulator');
    const body = await readBody(request);
    if (url.pathname.startsWith('/__sim/'))
      return this.admin(request.method ?? 'GET', url.pathname.slice('/__sim/'.length), body, response);

    const method = (request.method ?? 'GET').toUpperCase();
    let params: Params;
    try {
      params = parseParams(url.searchParams, body, request.headers['content-type']);
    } catch {
      return this.send(response, errorAnswer(400, 100, '(#100) The request body could not be parsed'), {});
    }
    const path = graphPath(url.pathname);
    const version = /^\/(v\d+\.\d+)/.exec(url.pathname)?.[1];
    const linkBase = `http://${request.headers.host ?? 'localhost'}${version ? `/${version}` : ''}`;
    const isBatch = method === 'POST' && path === '' && params.batch !== undefined;
    const log: LoggedRequest = { method, path, at: new Date().toISOString() };
    this.requests.push(log);
    if (this.requests.length > MAX_LOGGED) this.requests.splice(0, this.requests.length - MAX_LOGGED);

    const auth = this.checkToken(params.access_token);
    if (auth) return this.send(response, auth, {});

    const described = { method, path, target: 'request' as const };
    const slow = this.faults.take(described, ['slow']);
    if (slow) await this.hold(slow.ms ?? 2000);
    const fault = this.faults.take(described, ['rate_limit', 'server_error', 'timeout']);
    if (fault) log.fault = fault.kind;
    const pathAccount = /(?:^|\/)act_(\d+)/.exec(path)?.[1];
    if (fault?.kind === 'rate_limit')
      return this.send(response, this.rateLimitAnswer(fault), this.usageHeaders(described, pathAccount, fault));
    if (fault && !fault.applyFirst) {
      if (fault.kind === 'server_error') return this.send(response, this.serverErrorAnswer(fault), {});
      await this.hold(fault.ms ?? 10 * 60_000); // never answered in time: the client times out
      return this.send(response, errorAnswer(504, 2, 'Service temporarily unavailable', { is_transient: true }), {});
    }

    let answer: GraphAnswer;
    if (isBatch) {
      answer = this.batch(params, { linkBase, accessToken: params.access_token });
      log.batchSize = Array.isArray(answer.body) ? answer.body.length : undefined;
    } else if (method === 'POST' && path === '') {
      answer = errorAnswer(400, 100, '(#100) The parameter batch is required');
    } else {
      answer = this.counted(method, path, () =>
        this.graph.handle(method, path, params, { linkBase, accessToken: params.access_token }),
      );
    }

    if (fault?.kind === 'server_error') return this.send(response, this.serverErrorAnswer(fault), {});
    if (fault?.kind === 'timeout') {
      await this.hold(fault.ms ?? 10 * 60_000);
      return this.send(response, errorAnswer(504, 2, 'Service temporarily unavailable', { is_transient: true }), {});
    }
    return this.send(response, answer, this.usageHeaders(described, answer.accountId ?? pathAccount));
  }

  private batch(params: Params, context: GraphContext): GraphAnswer {
    let items: { method?: string; relative_url?: string; body?: string }[];
    try {
      items = JSON.parse(params.batch!) as typeof items;
      if (!Array.isArray(items)) throw new Error('not a list');
    } catch {
      return errorAnswer(400, 100, '(#100) The parameter batch must be a JSON array');
    }
    if (items.length > MAX_BATCH)
      return errorAnswer(400, 1, `(#1) Too many requests in batch message. Maximum batch size is ${MAX_BATCH}`);
    const answers = items.map((item) => {
      const method = (item.method ?? 'GET').toUpperCase();
      const relative = new URL(`http://batch/${(item.relative_url ?? '').replace(/^\/+/, '')}`);
      const path = graphPath(relative.pathname);
      const itemParams: Params = {
        ...Object.fromEntries(relative.searchParams),
        ...Object.fromEntries(new URLSearchParams(item.body ?? '')),
      };
      const fault = this.faults.take({ method, path, target: 'batch_item' }, ['rate_limit', 'server_error']);
      let answer: GraphAnswer;
      if (fault?.kind === 'rate_limit') answer = this.rateLimitAnswer(fault);
      else {
        answer = this.counted(method, path, () => this.graph.handle(method, path, itemParams, context));
        if (fault?.kind === 'server_error') answer = this.serverErrorAnswer(fault);
      }
      return {
        code: answer.status,
        headers: [{ name: 'Content-Type', value: 'text/javascript; charset=UTF-8' }],
        body: JSON.stringify(answer.body),
      };
    });
    return { status: 200, body: answers };
  }

  /** Counts a call against its ad account's usage; at 100 % the platform refuses (80004). */
  private counted(method: string, path: string, run: () => GraphAnswer): GraphAnswer {
    const answer = run();
    if (answer.accountId) {
      const now = Date.now();
      const recent = (this.calls.get(answer.accountId) ?? []).filter((at) => now - at < USAGE_WINDOW_MS);
      recent.push(now);
      this.calls.set(answer.accountId, recent);
      const count = this.accountCalls.get(answer.accountId) ?? { reads: 0, writes: 0, refused: 0 };
      this.accountCalls.set(answer.accountId, count);
      if (method === 'GET') count.reads += 1;
      else count.writes += 1;
      if (recent.length > this.options.accountQuota && !path.startsWith('me/')) {
        count.refused += 1;
        return {
          ...this.rateLimitAnswer({ kind: 'rate_limit', code: 80004, regainMinutes: 5 }),
          accountId: answer.accountId,
        };
      }
    }
    return answer;
  }

  private checkToken(token: string | undefined): GraphAnswer | undefined {
    if (!token)
      return errorAnswer(400, 2500, 'An active access token must be used to query information about the current user.');
    if (this.options.accessToken && token !== this.options.accessToken) {
      return errorAnswer(400, 190, 'Invalid OAuth access token - Cannot parse access token');
    }
    return undefined;
  }

  private rateLimitAnswer(fault: FaultSpec): GraphAnswer {
    const code = fault.code ?? 17;
    const known = RATE_LIMIT_MESSAGES[code] ?? { message: `(#${code}) Rate limit reached` };
    const answer = errorAnswer(code === 4 || code === 17 ? 403 : 400, code, known.message, {
      error_subcode: fault.subcode ?? known.subcode,
      is_transient: true,
      error_user_title: 'Too many calls',
      error_user_msg: 'There have been too many calls. Please wait a bit and try again.',
    });
    return answer;
  }

  private serverErrorAnswer(fault: FaultSpec): GraphAnswer {
    return errorAnswer(
      fault.status ?? 500,
      fault.status === 503 ? 2 : 1,
      fault.status === 503 ? 'Service temporarily unavailable' : 'An unknown error occurred',
      { is_transient: true },
    );
  }

  private usageHeaders(
    request: { method: string; path: string },
    accountId: string | undefined,
    fault?: FaultSpec,
  ): Record<string, string> {
    const usage = this.faults.take({ ...request, target: 'request' }, ['usage']);
    const override = fault
      ? { pct: 100, regainMinutes: fault.regainMinutes ?? 0 }
      : usage
        ? { pct: usage.pct ?? 95, regainMinutes: usage.regainMinutes ?? 0 }
        : undefined;
    const appCalls = [...this.calls.values()].reduce((sum, list) => sum + list.length, 0);
    const appPct =
      override?.pct ??
      Math.min(100, Math.round((appCalls / (this.options.appQuota ?? this.options.accountQuota * 10)) * 100));
    const headers: Record<string, string> = {
      'x-app-usage': JSON.stringify({
        call_count: appPct,
        total_cputime: Math.round(appPct / 2),
        total_time: Math.round(appPct / 2),
      }),
    };
    if (accountId) {
      const pct =
        override?.pct ??
        Math.min(100, Math.round(((this.calls.get(accountId)?.length ?? 0) / this.options.accountQuota) * 100));
      headers['x-business-use-case-usage'] = JSON.stringify({
        [accountId]: [
          {
            type: 'ads_management',
            call_count: pct,
            total_cputime: Math.round(pct / 2),
            total_time: Math.round(pct / 2),
            estimated_time_to_regain_access: override?.regainMinutes ?? 0,
          },
        ],
      });
      if (request.path.includes('insights')) {
        headers['x-fb-ads-insights-throttle'] = JSON.stringify({
          app_id_util_pct: appPct,
          acc_id_util_pct: pct,
          ads_api_access_tier: 'standard_access',
        });
      }
    }
    return headers;
  }

  private hold(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.held.delete(timer);
        resolve();
      }, ms);
      this.held.add(timer);
    });
  }

  private send(response: ServerResponse, answer: GraphAnswer, headers: Record<string, string>): void {
    if (response.destroyed || response.writableEnded) return;
    response.writeHead(answer.status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    response.end(JSON.stringify(answer.body));
  }

  // ---- admin ----------------------------------------------------------------------------------

  private admin(method: string, path: string, body: string, response: ServerResponse): void {
    const answer = this.adminAnswer(method, path, body);
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.body));
  }

  private adminAnswer(method: string, path: string, body: string): GraphAnswer {
    const json = (status: number, value: unknown): GraphAnswer => ({ status, body: value });
    let input: Record<string, unknown> = {};
    try {
      input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    } catch {
      return json(400, { detail: 'The body must be JSON' });
    }
    try {
      if (path === 'state' && method === 'GET') return json(200, this.state());
      if (path === 'clock' && method === 'POST') {
        if (typeof input.set === 'string') this.clock.set(Date.parse(input.set));
        if (typeof input.advance_ms === 'number') this.clock.advance(input.advance_ms);
        if (typeof input.advance_hours === 'number') this.clock.advance(input.advance_hours * 3_600_000);
        if (typeof input.speed === 'number') this.clock.setSpeed(input.speed);
        return json(200, this.clock.state());
      }
      if (path === 'faults' && method === 'POST') {
        for (const spec of Array.isArray(input) ? input : [input]) this.faults.add(spec as unknown as FaultSpec);
        return json(200, this.faults.list());
      }
      if (path === 'faults' && method === 'DELETE') {
        this.faults.clear();
        return json(200, []);
      }
      if (path === 'scenarios' && method === 'GET') return json(200, Object.fromEntries(this.world.scenarios));
      if (path === 'writes' && method === 'GET') return json(200, this.graph.writes);
      const object = /^objects\/(\d+)$/.exec(path);
      if (object && method === 'GET') {
        const found = inspect(this.world, this.clock, object[1]!);
        return found ? json(200, found) : json(404, { detail: 'No such object' });
      }
      return json(404, { detail: 'Unknown simulator admin path' });
    } catch (error) {
      return json(400, { detail: error instanceof Error ? error.message : String(error) });
    }
  }

  state(): Record<string, unknown> {
    return {
      clock: this.clock.state(),
      accounts: this.world.accounts.length,
      campaigns: this.world.campaigns.size,
      ads: this.world.ads.size,
      scenarios: [...this.world.scenarios.keys()] as ScenarioName[],
      requests: this.requests.length,
      writes: this.graph.writes.length,
      faults: this.faults.list(),
    };
  }
}

/** An object's current status and lifetime metrics, for tests and the admin API. */
export function inspect(world: World, clock: SimClock, id: string): Record<string, unknown> | undefined {
  const now = clock.now();
  const ad = world.ads.get(id);
  if (ad) {
    const campaign = world.campaigns.get(ad.campaignId)!;
    const adset = world.adsets.get(ad.adsetId)!;
    return {
      id,
      kind: 'ad',
      name: ad.name,
      deleted: ad.deleted,
      status: statusAt(ad.statusLog, now),
      effective_status: effectiveStatus(world, ad, now),
      lifetime: graphMetrics(adTotals(ad, adset, campaign, -Infinity, now)),
    };
  }
  const campaign = world.campaigns.get(id);
  if (campaign)
    return {
      id,
      kind: 'campaign',
      name: campaign.name,
      status: statusAt(campaign.statusLog, now),
      effective_status: effectiveStatus(world, campaign, now),
    };
  const adset = world.adsets.get(id);
  if (adset)
    return {
      id,
      kind: 'adset',
      name: adset.name,
      status: statusAt(adset.statusLog, now),
      effective_status: effectiveStatus(world, adset, now),
    };
  return undefined;
}
