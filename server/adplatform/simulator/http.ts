/**
 * The simulator's HTTP face: Graph-style paths under a version live on the simulator's clock
 * (`/v25.0/...`, versions.ts) with the features that version still has (retiredFeatures.ts; a GET's
 * `method=` overrides its method where it may), GET query or form/JSON POST parameters, batch
 * requests (batch.ts), breakdowns an account must opt into (breakdownOptIn.ts), access-token
 * checks, usage headers, injected faults, latency (latency.ts); the admin API under `/__sim/` is admin.ts, usage
 * metering quota.ts.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenOn, urlOf } from './listening';
import { errorAnswer, type GraphAnswer, type GraphContext, type GraphHandler, type Params } from './graph';
import { FaultBoard, rateLimitAnswer, serverErrorAnswer, type FaultSpec } from './faults';
import { adminAnswer } from './admin';
import type { SimClock } from './clock';
import { LatencySwitch, type CallShape } from './latency';
import { CallMeter, forcedReading, type QuotaOptions } from './quota';
import { answerBatch } from './batch';
import { answerVersion, graphPath, versionOf } from './versions';
import { retiredFeatureRefusal } from './retiredFeatures';
import { noRowsWithoutOptIn } from './breakdownOptIn';
import { TokenRegistry } from './tokens';
import type { World } from './world';

export type { AccountCallCount } from './quota';

export interface LoggedRequest {
  method: string;
  path: string;
  /** Items in a batch request. */
  batchSize?: number;
  fault?: string;
  at: string;
}

export interface HttpOptions extends QuotaOptions {
  host: string;
  port: number;
  /** When set, only this token is accepted. */
  accessToken?: string;
  /** How long answers take (latency.ts); switchable later through /__sim/latency. */
  latency?: LatencySwitch;
  /** Answer an expired API version as the oldest live one, with Graph's warning, instead of refusing it (#2635). */
  autoUpgrade?: boolean;
  /** The app is new (default): v27.0 already refuses it the features retired then (retiredFeatures.ts). */
  newApp?: boolean;
}

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

export class SimulatorServer {
  readonly faults = new FaultBoard();
  readonly requests: LoggedRequest[] = [];
  private readonly server: http.Server;
  private readonly held = new Set<NodeJS.Timeout>();
  readonly meter: CallMeter;
  readonly latency: LatencySwitch;
  /** The system-user tokens issued through the admin API (tokens.ts). */
  readonly tokens: TokenRegistry;

  constructor(
    readonly graph: GraphHandler,
    readonly world: World,
    readonly clock: SimClock,
    private readonly options: HttpOptions,
  ) {
    this.meter = new CallMeter(options);
    this.latency = options.latency ?? new LatencySwitch();
    this.tokens = new TokenRegistry(world, graph.user.id);
    this.server = http.createServer((request, response) => {
      this.route(request, response).catch((error: unknown) => {
        if (!response.headersSent)
          this.send(response, errorAnswer(500, 1, `An unknown error occurred: ${String(error)}`), {});
      });
    });
  }

  listen(): Promise<string> {
    return listenOn(this.server, this.options);
  }

  get url(): string {
    return urlOf(this.server);
  }

  async close(): Promise<void> {
    for (const timer of this.held) clearTimeout(timer);
    this.held.clear();
    await closeServer(this.server);
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://simulator');
    const body = await readBody(request);
    if (url.pathname.startsWith('/__sim/'))
      return this.send(
        response,
        adminAnswer(
          {
            world: this.world,
            clock: this.clock,
            faults: this.faults,
            writes: this.graph.writes,
            requests: this.requests,
            latency: this.latency,
            webhooks: this.graph.webhooks,
            subscriptions: this.graph.subscriptions,
            tokens: this.tokens,
          },
          request.method ?? 'GET',
          url.pathname.slice('/__sim/'.length),
          url.searchParams,
          body,
        ),
        {},
      );

    let method = (request.method ?? 'GET').toUpperCase();
    let params: Params;
    try {
      params = parseParams(url.searchParams, body, request.headers['content-type']);
    } catch {
      return this.send(response, errorAnswer(400, 100, '(#100) The request body could not be parsed'), {});
    }
    const path = graphPath(url.pathname);
    const version = versionOf(url.pathname);
    const linkBase = `http://${request.headers.host ?? 'localhost'}${version ? `/${version}` : ''}`;
    const isBatch = method === 'POST' && path === '' && params.batch !== undefined;
    const log: LoggedRequest = { method, path, at: new Date().toISOString() };
    this.requests.push(log);
    if (this.requests.length > MAX_LOGGED) this.requests.splice(0, this.requests.length - MAX_LOGGED);

    const auth = this.checkToken(params.access_token) ?? this.tokens.refusal(params.access_token!, this.clock.now());
    if (auth) return this.send(response, auth, {});
    const versioned = answerVersion(version, path, this.clock.now(), this.options);
    if ('refusal' in versioned) return this.send(response, versioned.refusal, {});
    const retired = this.retiredRefusal(versioned.answeredAs, method, path, params);
    if (retired) return this.send(response, retired, versioned.headers);
    if (method === 'GET' && params.method !== undefined) {
      const { method: override, ...rest } = params;
      method = override!.toUpperCase();
      params = rest;
    }

    const described = { method, path, target: 'request' as const };
    const slow = this.faults.take(described, ['slow']);
    if (slow) await this.hold(slow.ms ?? 2000);
    const fault = this.faults.take(described, ['rate_limit', 'server_error', 'timeout']);
    if (fault) log.fault = fault.kind;
    const pathAccount = /(?:^|\/)act_(\d+)/.exec(path)?.[1];
    if (fault?.kind === 'rate_limit')
      return this.send(
        response,
        rateLimitAnswer(fault),
        fault.usageHeaders === false ? {} : this.usageHeaders(described, pathAccount, fault),
      );
    if (fault && !fault.applyFirst) {
      if (fault.kind === 'server_error') return this.send(response, serverErrorAnswer(fault), {});
      await this.hold(fault.ms ?? 10 * 60_000); // never answered in time: the client times out
      return this.send(response, errorAnswer(504, 2, 'Service temporarily unavailable', { is_transient: true }), {});
    }

    let answer: GraphAnswer;
    const shapes: CallShape[] = [];
    const context = this.contextOf(linkBase, params.access_token);
    if (isBatch) {
      answer = this.batch(params, versioned.answeredAs, context, shapes);
      log.batchSize = Array.isArray(answer.body) ? answer.body.length : undefined;
    } else if (method === 'POST' && path === '') {
      answer = errorAnswer(400, 100, '(#100) The parameter batch is required');
    } else {
      answer = this.meter.counted(method, path, () => this.handle(method, path, params, context));
      shapes.push(this.shapeOf(method, path, params, answer));
    }
    const delay = this.latency.drawBatch(shapes);
    if (delay > 0) await this.hold(delay);

    if (fault?.kind === 'server_error') return this.send(response, serverErrorAnswer(fault), {});
    if (fault?.kind === 'timeout') {
      await this.hold(fault.ms ?? 10 * 60_000);
      return this.send(response, errorAnswer(504, 2, 'Service temporarily unavailable', { is_transient: true }), {});
    }
    return this.send(response, answer, {
      ...versioned.headers,
      ...this.usageHeaders(described, answer.accountId ?? pathAccount),
    });
  }

  /** A feature the answering version retired for this app (#12). */
  private retiredRefusal(version: string, method: string, path: string, params: Params): GraphAnswer | undefined {
    return retiredFeatureRefusal(version, this.options.newApp ?? true, { method, path, params });
  }

  /** What kind of call this was, for its latency draw. */
  private shapeOf(method: string, path: string, params: Params, answer: GraphAnswer): CallShape {
    if (method !== 'GET') return { kind: 'write' };
    const [head, edge] = path.split('/');
    const adLevel = params.level === 'ad' || (params.level === undefined && this.world.ads.has(head ?? ''));
    if (edge !== 'insights' || !adLevel) return { kind: 'read' };
    const data = (answer.body as { data?: unknown }).data;
    return { kind: 'insights', rows: Array.isArray(data) ? data.length : 0 };
  }

  /** A batch under `version`; an item naming its own version is answered as that one. */
  private batch(params: Params, version: string, context: GraphContext, shapes: CallShape[]): GraphAnswer {
    const { batch, include_headers: _headers, access_token: _token, ...rest } = params;
    const extra = Object.keys(rest)[0];
    if (extra) return errorAnswer(400, 100, `(#100) Unknown param ${extra} on a batch request`);
    const check = (own: string | undefined, method: string, path: string, itemParams: Params) => {
      const versioned =
        own === undefined ? { answeredAs: version } : answerVersion(own, path, this.clock.now(), this.options);
      return 'refusal' in versioned
        ? versioned.refusal
        : this.retiredRefusal(versioned.answeredAs, method, path, itemParams);
    };
    return answerBatch(batch!, check, (method, path, itemParams) => {
      const fault = this.faults.take({ method, path, target: 'batch_item' }, ['rate_limit', 'server_error']);
      if (fault?.kind === 'rate_limit') return rateLimitAnswer(fault);
      const answer = this.meter.counted(method, path, () => this.handle(method, path, itemParams, context));
      shapes.push(this.shapeOf(method, path, itemParams, answer));
      return fault?.kind === 'server_error' ? serverErrorAnswer(fault) : answer;
    });
  }

  /** What an answer may depend on besides the world: the token, and what it reaches. */
  private contextOf(linkBase: string, accessToken: string | undefined): GraphContext {
    return { linkBase, accessToken, reaches: (accountId) => this.tokens.reaches(accessToken, accountId) };
  }

  /** One call (or batch item): the token's own answers and refusals first, then the world's. */
  private handle(method: string, path: string, params: Params, context: GraphContext): GraphAnswer {
    const token = context.accessToken;
    return (
      this.tokens.accessRefusal(token, method, path, params) ??
      this.tokens.answer(token, method, path, params, this.clock.now()) ??
      noRowsWithoutOptIn(this.world, this.clock.now(), { method, path, params }) ??
      this.graph.handle(method, path, params, context)
    );
  }

  private checkToken(token: string | undefined): GraphAnswer | undefined {
    if (!token)
      return errorAnswer(400, 2500, 'An active access token must be used to query information about the current user.');
    if (this.options.accessToken && token !== this.options.accessToken && !this.tokens.find(token)) {
      return errorAnswer(400, 190, 'Invalid OAuth access token - Cannot parse access token');
    }
    return undefined;
  }

  private usageHeaders(
    request: { method: string; path: string },
    accountId: string | undefined,
    refusal?: FaultSpec,
  ): Record<string, string> {
    const usage = this.faults.take({ ...request, target: 'request' }, ['usage']);
    return this.meter.headers(request.path, accountId, forcedReading(refusal, usage));
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
}
