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
import { actorOf } from './plugin';
import { decoyHash, verifyPassword } from './passwords';
import { TokenError } from './tokens';

const refreshSchema = z.object({ refresh: z.string({ error: 'Field is required' }).min(1, 'Field is required') });

const invalidCredentials = () => new ApiError(401, { detail: 'No active account found with the given credentials' });

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
    const user = await findUserByEmail(app.db, email);
    const valid = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
    if (!user || !valid || !user.isActive) throw invalidCredentials();
    await app.db.update(users).set({ lastLogin: sql`now()` }).where(eq(users.id, user.id));
    return app.tokens.issue(user.id);
  });

  app.post('/token/refresh/', { config: { public: true } }, async (request) => {
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

  app.get('/user/me/', async (request) => {
    const user = await loadUserDto(app.db, actorOf(request).id);
    if (!user) throw notFound();
    return user;
  });
}
