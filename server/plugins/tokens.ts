/** The session tokens (docs/security.md), decorated onto the app as `app.tokens`. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createTokenService, type TokenService } from '../auth/tokens';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenService;
  }
}

export default fp(
  async (app: FastifyInstance, { jwtSecret }: { jwtSecret: string }) => {
    const { config } = app;
    app.decorate(
      'tokens',
      createTokenService(
        app.db,
        {
          secret: jwtSecret,
          accessTokenSeconds: config.accessTokenSeconds,
          refreshTokenSeconds: config.refreshTokenSeconds,
          sessionMaxSeconds: config.sessionMaxDays * 24 * 60 * 60,
          // The revoked session is forgotten here before the refusal leaves (every process hears
          // the database's notification too): a renewal that ends nothing forgets nothing.
          onReuse: ({ userId, sessionId }) => {
            app.log.warn({ userId, sessionId }, 'refresh token reused: the session is revoked');
            if (app.hasDecorator('signedInUsers')) app.signedInUsers.clear('sessions');
          },
        },
        app.writeDb,
      ),
    );
  },
  { name: 'tokens', dependencies: ['database'] },
);
