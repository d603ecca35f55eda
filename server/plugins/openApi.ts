/**
 * The OpenAPI document of every route (GET /api/schema/), generated from the routes' zod schemas,
 * and its interactive reference (/api/docs/), both public. Registered before the routes, so it sees them.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export default fp(
  async (app: FastifyInstance) => {
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
  },
  { name: 'open-api' },
);

/** GET /api/schema/ and /api/docs/: registered after the routes, as the document describes them. */
export async function openApiReference(app: FastifyInstance) {
  app.get('/api/schema/', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    await docs.register(swaggerUi, { routePrefix: '/api/docs' });
  });
}
