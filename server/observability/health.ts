/**
 * Probes for whoever runs the process (load balancer, orchestrator): GET /healthz answers while
 * the process is up; GET /readyz answers 200 when it can do its work and 503, naming the failed
 * checks, when it cannot (see readiness.ts). Both are public and outside /api.
 */
import type { FastifyInstance } from 'fastify';
import { readiness } from './readiness';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const probe = { config: { public: true }, schema: { hide: true } };

  app.get('/healthz', probe, async () => ({ status: 'ok' }));

  app.get('/readyz', probe, async (request, reply) => {
    const result = await readiness({ config: app.config, dbh: app.dbh, jobQueue: app.jobQueue });
    if (result.ready) return { status: 'ok', checks: result.checks };
    request.log.warn({ checks: result.checks }, `not ready: ${result.failed.join(', ')}`);
    return reply.status(503).send({ status: 'unavailable', failed: result.failed, checks: result.checks });
  });
}
