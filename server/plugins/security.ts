/** Security headers (helmet: the content security policy the SPA needs) and the per-route rate limits' store. */
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { rateLimitStorage } from '../http/rateLimitStore';

export default fp(
  async (app: FastifyInstance) => {
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
    // Counting an attempt is a write: on the changes' lane, not queued behind the team's list reads.
    const rateLimitStore = rateLimitStorage(app.writeDb, app.config.redisUrl);
    app.addHook('onClose', rateLimitStore.close);
    await app.register(rateLimit, { global: false, ...rateLimitStore.options });
  },
  { name: 'security', dependencies: ['database'] },
);
