/**
 * react-admin authProvider over the session of docs/contract.md#entities, docs/screens.md#states-and-transitions: login stores the tokens and the current
 * user, logout clears them, permissions are the user's effective set (docs/contract.md#permissions).
 */
import type { AuthProvider, UserIdentity } from 'react-admin';
import { effectivePermissions, type Permission } from '../../shared/permissions';
import { paths } from './apiPaths';
import { canAccess, type AccessRules } from './canAccess';
import { httpClient as defaultHttpClient, type HttpClient } from './httpClient';
import { session as defaultSession, type SessionStore, type SessionUser } from './session';

export interface LoginParams {
  email: string;
  password: string;
}

export interface AuthProviderDeps {
  session?: SessionStore;
  http?: HttpClient;
  accessRules?: AccessRules;
}

export const fullName = (user: Pick<SessionUser, 'first_name' | 'last_name'>) =>
  [user.first_name, user.last_name].filter(Boolean).join(' ');

export function createAuthProvider({
  session = defaultSession,
  http = defaultHttpClient,
  accessRules = {},
}: AuthProviderDeps = {}) {
  const permissions = (): Set<Permission> => effectivePermissions(session.get().user);

  const provider = {
    async login({ email, password }: LoginParams) {
      const { json: tokens } = await http<{ access: string; refresh: string }>(paths.token, {
        method: 'POST',
        body: { email, password },
        auth: false,
      });
      session.update({ access_token: tokens.access, refresh_token: tokens.refresh, user: null });
      try {
        const { json: user } = await http<SessionUser>(paths.me);
        session.update({ user });
      } catch (error) {
        session.clear();
        throw error;
      }
    },

    /**
     * Ends the session on the server too (every token of this sign-in stops working), then here.
     * Leaving never waits on the network: a failed call still logs out locally.
     */
    async logout() {
      const refresh = session.get().refresh_token;
      session.clear();
      if (refresh) {
        await http(paths.tokenLogout, { method: 'POST', body: { refresh }, auth: false }).catch(() => undefined);
      }
      return '/login';
    },

    async checkAuth() {
      if (!session.isAuthenticated()) throw new Error('ra.auth.auth_check_error');
    },

    /** The http client has already tried a refresh: a 401 here means the session is over. 403 is an access error. */
    async checkError(error: { status?: number }) {
      if (error?.status === 401) {
        session.clear();
        throw new Error('ra.notification.logged_out');
      }
    },

    async getIdentity(): Promise<UserIdentity> {
      const user = session.get().user;
      if (!user) throw new Error('ra.auth.auth_check_error');
      return { id: user.id, fullName: fullName(user), email: user.email };
    },

    async getPermissions(): Promise<Set<Permission>> {
      return permissions();
    },

    async canAccess({ resource, action }: { resource: string; action: string }) {
      return canAccess(permissions(), { resource, action }, accessRules);
    },

    /** The resources' rules, for usePermission's synchronous answer to the same question. */
    accessRules,
  } satisfies AuthProvider;

  return provider;
}

export type AppAuthProvider = ReturnType<typeof createAuthProvider>;
