/**
 * GET /metrics in Prometheus's text format, through fastify-metrics: the latency histogram of every
 * route (labelled with the route pattern, so ids in URLs do not multiply the series), the process's
 * own metrics (CPU, memory, event loop), the product metrics of counters.ts, and the age of the last
 * successful campaign sync, read from the database at each scrape. The endpoint asks for
 * `Authorization: Bearer $METRICS_TOKEN`; without METRICS_TOKEN it does not exist (404).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fastifyMetrics from 'fastify-metrics';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { lastSuccessfulSync } from '../campaigns/job';
import { productRegistry } from './counters';

let processMetricsCollected = false;

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison of the bearer token with METRICS_TOKEN. */
function tokenGuard(token: string) {
  const expected = digest(token);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const given = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (given && timingSafeEqual(digest(given), expected)) return;
    return reply
      .status(401)
      .header('www-authenticate', 'Bearer realm="metrics"')
      .send({ detail: 'A valid metrics token is required.' });
  };
}

/** Seconds since the campaign sync last succeeded; +Inf when it never has. */
function syncAgeGauge(app: FastifyInstance, registry: Registry) {
  return new Gauge({
    name: 'adrules_campaign_sync_age_seconds',
    help: 'Seconds since the last successful campaign sync (+Inf: never)',
    registers: [registry],
    async collect() {
      const lastSuccess = await lastSuccessfulSync(app.db);
      this.set(lastSuccess ? Math.max(0, (Date.now() - lastSuccess.getTime()) / 1000) : Infinity);
    },
  });
}

export async function metricsEndpoint(app: FastifyInstance): Promise<void> {
  const token = app.config.metricsToken;
  if (!token) {
    // Off: answered here so the browser app's catch-all route does not answer it instead.
    app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
      reply.status(404).send({ detail: 'Not found.' }),
    );
    return;
  }
  if (!processMetricsCollected) {
    collectDefaultMetrics({ register: productRegistry });
    processMetricsCollected = true;
  }
  // This server's own series (HTTP latency, sync age); the scrape merges them with the process's.
  const serverRegistry = new Registry();
  syncAgeGauge(app, serverRegistry);
  await app.register(fastifyMetrics, {
    endpoint: {
      url: '/metrics',
      method: 'GET',
      onRequest: tokenGuard(token),
      config: { public: true },
      schema: { hide: true },
      handler: () => undefined, // replaced by fastify-metrics
    } as RouteOptions,
    defaultMetrics: { enabled: false },
    routeMetrics: {
      enabled: { histogram: true, summary: false },
      routeBlacklist: ['/metrics'],
      overrides: {
        histogram: { name: 'http_request_duration_seconds', registers: [serverRegistry] },
        summary: { registers: [serverRegistry] },
      },
    },
  });
}
