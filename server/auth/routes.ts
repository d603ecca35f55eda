/** POST /api/token/, /api/token/refresh/ (SimpleJWT-shaped) and /api/token/logout/, GET /api/user/me/. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tokenPairSchema, userSchema } from '../../shared/contracts';
import { loginSchema } from '../../shared/validation';
import { byAddress, byEmail, limitAttempts } from '../http/attemptLimit';
import { errors, noContent } from '../http/schemas';
import { actorOf } from './plugin';
import { createSessions } from './signIn';

const refreshSchema = z.object({ refresh: z.string({ error: 'Field is required' }).min(1, 'Field is required') });

const tags = ['auth'];

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const sessions = createSessions(app.db, app.tokens);

  // Two independent counters: one per e-mail (guessing one account's password) and a looser one
  // per client address (trying many accounts from one place, e.g. an office behind one NAT).
  const limitLoginAttempts = limitAttempts(
    app,
    'login',
    [{ key: byEmail }, { key: byAddress, max: app.config.loginRateLimit.max * 5 }],
    'login attempts',
  );

  app.post(
    '/token/',
    {
      config: { public: true },
      preValidation: limitLoginAttempts,
      schema: {
        tags,
        summary: 'Sign in: an access and a refresh token',
        body: loginSchema,
        response: { 200: tokenPairSchema, ...errors(400, 401, 429) },
      },
    },
    async (request) => sessions.signIn(request.body.email, request.body.password),
  );

  // Refresh is public too: a replayed or guessed token is slowed per address.
  const limitRefresh = limitAttempts(app, 'refresh', [{ key: byAddress, max: app.config.loginRateLimit.max * 5 }]);

  app.post(
    '/token/refresh/',
    {
      // A rotation changes no user or session: every signed-in person's session stays kept (each
      // renewal emptied them all, a read more for everyone's next request). A refresh token
      // replayed ends its session, which the token service's onReuse forgets at once.
      config: { public: true, changesKept: 'nothing' },
      preValidation: limitRefresh,
      schema: {
        tags,
        summary: 'Trade a refresh token for a new pair (the old one stops working)',
        body: refreshSchema,
        response: { 200: tokenPairSchema, ...errors(400, 401, 429) },
      },
    },
    async (request) => sessions.refresh(request.body.refresh),
  );

  // Public: a user whose access token has expired can still end the session.
  app.post(
    '/token/logout/',
    {
      config: { public: true },
      preValidation: limitRefresh,
      schema: {
        tags,
        summary: 'Log out: the session of this refresh token ends, every token rotated from it with it',
        body: refreshSchema,
        response: { 204: noContent, ...errors(400, 429) },
      },
    },
    async (request, reply) => {
      await sessions.end(request.body.refresh);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/user/me/',
    { schema: { tags, summary: 'The signed-in user', response: { 200: userSchema } } },
    // Authentication has just read them (signedInUsers); the schema keeps only the user's fields.
    async (request) => actorOf(request),
  );
};

export default authRoutes;
