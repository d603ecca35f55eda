/**
 * The HTTP server of a worker process (ROLE=worker): no API and no browser app, only the request
 * log, /healthz, /readyz and /metrics, so a worker is probed and scraped like an API process.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { DbHandle } from '../db/client';
import type { AppServices } from '../services';
import observability, { requestLogController } from './index';

export async function buildProbeServer(options: {
  config: Config;
  dbh: DbHandle;
  services: Partial<AppServices>;
  logger?: boolean | object;
}): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false, logController: requestLogController() });
  app.decorate('config', options.config);
  app.decorate('dbh', options.dbh);
  app.decorate('db', options.dbh.db);
  app.decorate('services', { ...options.services } as AppServices);
  // /readyz asks the job queue this worker runs (services.ts decorates it the same way for the API).
  app.decorate('jobQueue', options.services.jobQueue);
  await app.register(observability);
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ detail: 'Not found.' }));
  return app;
}
