/**
 * Builds the Fastify application from its plugins, in order (docs/architecture.md#how-a-request-flows):
 * the configuration and database, tokens, the areas' services, validation and the error handler,
 * security headers and rate limits, observability, the OpenAPI document, authentication, the page
 * cache, then the API under /api, the document's reference, and the built SPA.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { DbHandle } from './db/client';
import authPlugin from './auth/plugin';
import cachedPages from './http/cachedPages';
import { answerFrameworkError } from './http/errors';
import observability, { requestLogController } from './observability/index';
import database from './plugins/database';
import openApi, { openApiReference } from './plugins/openApi';
import security from './plugins/security';
import { spa } from './plugins/spa';
import tokens from './plugins/tokens';
import validation from './plugins/validation';
import { apiRoutes } from './routes';
import services, { type AppServices } from './services';

export interface BuildOptions {
  config: Config;
  dbh: DbHandle;
  jwtSecret: string;
  services?: Partial<AppServices>;
  /** Directory of the built SPA; not served when absent. */
  staticDir?: string;
  logger?: boolean | object;
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, dbh } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    logController: requestLogController(), // one line per request, secrets redacted
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: answerFrameworkError,
    // X-Forwarded-For is believed only through the configured number of proxy hops (none by default):
    // otherwise any client could name its own address and step around the per-address limits.
    // (proxy-addr's rule for a hop count: the socket's peer is hop 0, then XFF from the right.)
    trustProxy: (_address: string, hop: number) => hop < config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Start-up work shares the machine with the first sync: on a busy machine 10 s (the default) was seen to pass.
    pluginTimeout: 60_000,
  });
  await app.register(database, { config, dbh });
  await app.register(tokens, { jwtSecret: options.jwtSecret });
  await app.register(services, { services: options.services ?? {} });
  await app.register(validation);
  await app.register(security);
  await app.register(observability); // request log, /healthz, /readyz, /metrics
  await app.register(openApi);
  await app.register(authPlugin);
  await app.register(cachedPages); // list pages kept in memory until what they show changes

  await app.register(
    async (api) => {
      for (const routes of apiRoutes) await api.register(routes);
    },
    { prefix: '/api' },
  );
  await openApiReference(app);
  await spa(app, { staticDir: options.staticDir });
  return app;
}
