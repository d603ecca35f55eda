/**
 * The Demio simulator's HTTP face: Demio's paths under `/api/v1/`, the key and secret in the
 * `Api-Key` / `Api-Secret` headers (or `api_key` / `api_secret` on `/ping/query`), the per-account
 * limits (limits.ts), injected faults, and the admin API under `/__sim/` (admin.ts).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenOn, urlOf } from '../../adplatform/simulator/listening';
import type { SimClock } from '../../adplatform/simulator/clock';
import { adminAnswer, type DemioFault } from './admin';
import { demioAnswer, type DemioAnswer } from './api';
import type { LimitMeter } from './limits';
import type { DemioWorld } from './world';

export const API_PREFIX = '/api/v1';

export class DemioSimulatorServer {
  readonly faults: DemioFault[] = [];
  /** Calls answered per Demio account (its ad account's digits), refused ones included. */
  readonly calls = new Map<string, number>();
  private readonly server: http.Server;

  constructor(
    readonly world: DemioWorld,
    readonly clock: SimClock,
    readonly limits: LimitMeter,
    private readonly options: { host: string; port: number },
  ) {
    this.server = http.createServer((request, response) => {
      this.route(request, response).catch((error: unknown) => {
        if (!response.headersSent) send(response, { status: 500, body: { messages: [String(error)] } });
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
    await closeServer(this.server);
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://simulator');
    const body = await readBody(request);
    const method = (request.method ?? 'GET').toUpperCase();
    if (url.pathname.startsWith('/__sim/'))
      return send(response, adminAnswer(this, method, url.pathname.slice('/__sim/'.length), body));
    if (!url.pathname.startsWith(`${API_PREFIX}/`))
      return send(response, { status: 404, body: { messages: ['Not found'] } });
    const path = url.pathname.slice(API_PREFIX.length + 1);
    const ping = path.startsWith('ping');
    const queryKeys = path === 'ping/query';
    const key = queryKeys ? url.searchParams.get('api_key') : header(request, 'api-key');
    const secret = queryKeys ? url.searchParams.get('api_secret') : header(request, 'api-secret');
    const account = key && secret ? this.world.accountByKey(key, secret) : undefined;
    if (!account)
      return send(response, {
        status: 401,
        body: { ...(ping ? { pong: false } : {}), messages: ['Authorization failed'] },
      });

    this.calls.set(account.adAccountId, (this.calls.get(account.adAccountId) ?? 0) + 1);
    if (!this.limits.allow(account.adAccountId))
      return send(response, { status: 429, body: { messages: ['Too Many Requests'] } });
    const fault = this.takeFault(path);
    if (fault) return send(response, { status: fault.status, body: { messages: [fault.message] } });

    const origin = `http://${request.headers.host ?? 'localhost'}`;
    send(
      response,
      demioAnswer(this.world, this.clock.now(), { method, path, query: url.searchParams, account, origin }),
    );
  }

  private takeFault(path: string): DemioFault | undefined {
    const fault = this.faults.find((f) => path.includes(f.path ?? ''));
    if (!fault) return undefined;
    fault.count -= 1;
    if (fault.count <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
    return fault;
  }
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, answer: DemioAnswer): void {
  if (response.destroyed || response.writableEnded) return;
  response.writeHead(answer.status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(answer.body));
}
