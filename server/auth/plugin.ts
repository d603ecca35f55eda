/**
 * Authentication for every route under /api except those marked `config: { public: true }` (their
 * OpenAPI entries say so: bearer security and a 401 answer on the others), who is acting
 * (`actorOf`), and permission guards for the routes (docs/contract.md#conventions: the server enforces every permission).
 *
 * Whether a request needs a user is decided on the route the router matched, never on the URL's
 * text: `//api/…`, `/%61pi/…` or `/api/../api/…` reach the same handler and need the same token.
 * Every API answer is `Cache-Control: no-store` (ASVS 8.2.1): nothing personal stays in a cache.
 * The user and their session come from `signedInUsers` (a cache emptied by every change to them).
 */
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Permission } from '../../shared/permissions';
import { ApiError, notAuthenticated, permissionDenied } from '../http/errors';
import { errors } from '../http/schemas';
import { loadAuthUser, type AuthUser } from '../people/users';
import { keepUntilChanged } from '../http/keptUntilChanged';
import { AUTH_CHANGED_CHANNEL, createSignedInUsers, type SignedInUsers } from './signedInUsers';
import type { AccessClaims } from './tokens';

declare module 'fastify' {
  interface FastifyInstance {
    signedInUsers: SignedInUsers;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a signed-in user. */
    public?: boolean;
  }
}

export default fp(async (app) => {
  app.decorateRequest('user', null);
  const signedInUsers = createSignedInUsers(
    { loadUser: (id) => loadAuthUser(app.db, id), sessionExpiry: (id) => app.tokens.sessionExpiry(id) },
    { ttlSeconds: app.config.authCacheSeconds },
  );
  app.decorate('signedInUsers', signedInUsers);
  await keepUntilChanged(app, AUTH_CHANGED_CHANNEL, signedInUsers);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.config?.public || !route.schema) return;
    route.schema.security = [{ bearerAuth: [] }];
    route.schema.response = { 401: errors(401)[401], ...(route.schema.response as object) };
  });
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url;
    if (!route?.startsWith('/api/')) return; // the SPA, static files, health, or no route (404)
    reply.header('cache-control', 'no-store');
    if (request.routeOptions.config?.public) return;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw notAuthenticated();
    const invalidToken = () =>
      new ApiError(401, { detail: 'Given token not valid for any token type', code: 'token_not_valid' });
    let claims: AccessClaims;
    try {
      claims = await app.tokens.verifyAccess(match[1]!);
    } catch {
      throw invalidToken();
    }
    const user = await app.signedInUsers.user(claims.userId);
    if (!user?.is_active) throw notAuthenticated('User not found or inactive.');
    // Logged out, replayed, or the user's sessions were ended (password, e-mail, access …).
    if (!claims.sessionId || claims.version !== user.sessionVersion) throw invalidToken();
    if (!(await app.signedInUsers.sessionIsLive(claims.sessionId))) throw invalidToken();
    request.user = user;
  });
});

/** Who is acting: the signed-in user of an authenticated route, as audit entries and permission checks name them. */
export function actorOf(request: FastifyRequest): AuthUser {
  if (!request.user) throw notAuthenticated();
  return request.user;
}

/** preValidation hook (before the input is checked): the user must hold every listed permission (a superuser holds all). */
export type Guard = (request: FastifyRequest) => Promise<void>;

export function requirePermission(...permissions: Permission[]): Guard {
  return async (request: FastifyRequest) => {
    const user = actorOf(request);
    if (!permissions.every((p) => user.permissions.has(p))) throw permissionDenied();
  };
}

export const holdsAny = (user: AuthUser, permissions: readonly Permission[]) =>
  permissions.some((p) => user.permissions.has(p));

/** preValidation hook: the user must hold at least one of the listed permissions. */
export function requireAnyPermission(...permissions: Permission[]): Guard {
  return async (request: FastifyRequest) => {
    if (!holdsAny(actorOf(request), permissions)) throw permissionDenied();
  };
}
