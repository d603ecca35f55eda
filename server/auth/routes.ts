/** POST /api/token/ and /api/token/refresh/ (SimpleJWT-shaped), GET /api/user/me/. */
import { sql, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { loginSchema } from '../../src/domain/validation';
import { users } from '../db/schema/index';
import { byAddress, byEmail, limitAttempts } from '../http/attemptLimit';
import { ApiError, notFound } from '../http/errors';
import { parseBody } from '../http/validation';
import { findUserByEmail, loadUserDto } from '../people/users';
import { currentUser } from './plugin';
import { clearFailures, recordFailure, waitBeforeAttempt } from './loginFailures';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './passwords';
import { TokenError } from './tokens';

const refreshSchema = z.object({ refresh: z.string({ error: 'Field is required' }).min(1, 'Field is required') });

const invalidCredentials = () => new ApiError(401, { detail: 'No active account found with the given credentials' });
const tooManyFailures = (seconds: number) =>
  new ApiError(429, { detail: `Too many failed sign-ins for this account. Try again in ${seconds} seconds.` });

export default async function authRoutes(app: FastifyInstance) {
  // Two independent counters: one per e-mail (guessing one account's password) and a looser one
  // per client address (trying many accounts from one place, e.g. an office behind one NAT).
  const limitLoginAttempts = limitAttempts(
    app,
    'login',
    [{ key: byEmail }, { key: byAddress, max: app.config.loginRateLimit.max * 5 }],
    'login attempts',
  );

  app.post('/token/', { config: { public: true }, preHandler: limitLoginAttempts }, async (request) => {
    const { email, password } = parseBody(loginSchema, request.body);
    const wait = await waitBeforeAttempt(app.db, email);
    if (wait > 0) throw tooManyFailures(wait);
    const user = await findUserByEmail(app.db, email);
    const valid = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
    if (!user || !valid || !user.isActive) {
      await recordFailure(app.db, email);
      throw invalidCredentials();
    }
    await clearFailures(app.db, email);
    // A hash made with weaker parameters than today's is upgraded while the password is at hand.
    const upgrade = needsRehash(user.passwordHash) ? { passwordHash: await hashPassword(password) } : {};
    await app.db
      .update(users)
      .set({ lastLogin: sql`now()`, ...upgrade })
      .where(eq(users.id, user.id));
    return app.tokens.issue(user.id);
  });

  // Refresh is public too: a stolen-token replay or a token-guessing loop is slowed per address.
  const limitRefresh = limitAttempts(app, 'refresh', [{ key: byAddress, max: app.config.loginRateLimit.max * 5 }]);

  app.post('/token/refresh/', { config: { public: true }, preHandler: limitRefresh }, async (request) => {
    const { refresh } = parseBody(refreshSchema, request.body);
    try {
      return await app.tokens.rotate(refresh);
    } catch (error) {
      if (error instanceof TokenError) {
        throw new ApiError(401, { detail: 'Token is invalid or expired', code: 'token_not_valid' });
      }
      throw error;
    }
  });

  // Ends the session of this refresh token (and every token rotated from it). Public: a user whose
  // access token has expired can still log out; an unknown or expired token has nothing to end.
  app.post('/token/logout/', { config: { public: true } }, async (request, reply) => {
    const { refresh } = parseBody(refreshSchema, request.body);
    await app.tokens.logout(refresh).catch((error) => {
      if (!(error instanceof TokenError)) throw error;
    });
    return reply.status(204).send();
  });

  app.get('/user/me/', async (request) => {
    const user = await loadUserDto(app.db, currentUser(request).id);
    if (!user) throw notFound();
    return user;
  });
}
