/**
 * Builds the Fastify application: plugins, the typed services, the API under /api (every route
 * validated and serialised by its zod schema), its OpenAPI document and reference, and the built SPA.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database, DbHandle } from './db/client';
import authPlugin from './auth/plugin';
import cachedPages from './http/cachedPages';
import { createTokenService, type TokenService } from './auth/tokens';
import { answerFrameworkError, installErrorHandlers } from './http/errors';
import observability, { requestLogController } from './observability/index';
import { rateLimitStorage } from './http/rateLimitStore';
import { apiRoutes } from './routes';
import services, { type AppServices } from './services';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    dbh: DbHandle;
    db: Database;
    tokens: TokenService;
  }
}

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
  app.decorate('config', config);
  app.decorate('dbh', dbh);
  app.decorate('db', dbh.db);
  app.decorate(
    'tokens',
    createTokenService(dbh.db, {
      secret: options.jwtSecret,
      accessTokenSeconds: config.accessTokenSeconds,
      refreshTokenSeconds: config.refreshTokenSeconds,
      sessionMaxSeconds: config.sessionMaxDays * 24 * 60 * 60,
      onReuse: ({ userId, sessionId }) =>
        app.log.warn({ userId, sessionId }, 'refresh token reused: the session is revoked'),
    }),
  );
  await app.register(services, { services: options.services ?? {} });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // A body-taking route called with no body sees `{}`, so its schema answers field by field.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
  });

  installErrorHandlers(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'frame-src': ["'self'"],
      },
    },
  });
  const rateLimitStore = rateLimitStorage(dbh.db, config.redisUrl);
  app.addHook('onClose', rateLimitStore.close);
  await app.register(rateLimit, { global: false, ...rateLimitStore.options });
  await app.register(observability); // request log, /healthz, /readyz, /metrics
  // The OpenAPI document of every route (GET /api/schema/), generated from the routes' zod schemas.
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Ad Rules Console API',
        version: '1',
        description: 'Conventions, errors and permissions: docs/api.md.',
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    hideUntagged: false,
    transform: jsonSchemaTransform,
  });
  await app.register(authPlugin);
  await app.register(cachedPages); // list pages kept in memory until what they show changes

  await app.register(
    async (api) => {
      for (const routes of apiRoutes) await api.register(routes);
    },
    { prefix: '/api' },
  );

  app.get('/api/schema/', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  // The interactive reference of that document, public like the document itself.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    await docs.register(swaggerUi, { routePrefix: '/api/docs' });
  });

  const staticDir = options.staticDir;
  if (staticDir && existsSync(path.join(staticDir, 'index.html'))) {
    await app.register(fastifyStatic, { root: staticDir, wildcard: false, index: false });
    // Client-side routes (/, /edit-rule/5, /join/abc …) all load the SPA.
    app.get('/*', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
      if (request.url.startsWith('/api/'))
        return reply.status(404).header('cache-control', 'no-store').send({ detail: 'Not found.' });
      const file = request.url.split('?')[0]!;
      if (file !== '/' && existsSync(path.join(staticDir, file)) && !file.includes('..'))
        return reply.sendFile(file.slice(1));
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  }
  return app;
}
