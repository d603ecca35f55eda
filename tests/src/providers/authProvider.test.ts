import { beforeEach, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../shared/permissions';
import { paths } from '../../../src/providers/apiPaths';
import { createAuthProvider } from '../../../src/providers/authProvider';
import { createHttpClient } from '../../../src/providers/httpClient';
import { createSessionStore, SESSION_STORAGE_KEY, type SessionStore } from '../../../src/providers/session';
import { http, HttpResponse, setupMswServer } from '../../support/msw';
import { fakeJwt } from '../../support/tokens';
import { makeUser, withAccesses } from '../../support/users';

const server = setupMswServer();
let session: SessionStore;

const provider = (accessRules = {}) =>
  createAuthProvider({ session, http: createHttpClient({ session, onLoginScreen: () => false }).request, accessRules });

const signIn = (overrides = {}) =>
  session.update({ access_token: fakeJwt(300), refresh_token: 'r1', user: makeUser(overrides) });

beforeEach(() => {
  session = createSessionStore(localStorage);
});

describe('login and logout', () => {
  it('stores the tokens and the current user, then counts as authenticated', async () => {
    const access = fakeJwt(300);
    const user = makeUser();
    server.use(
      http.post(paths.token, async ({ request }) => {
        expect(await request.json()).toEqual({ email: 'ada@example.com', password: 'secret123' });
        return HttpResponse.json({ access, refresh: 'r1' });
      }),
      http.get(paths.me, ({ request }) =>
        request.headers.get('Authorization') === `Bearer ${access}`
          ? HttpResponse.json(user)
          : new HttpResponse(null, { status: 401 }),
      ),
    );
    await provider().login({ email: 'ada@example.com', password: 'secret123' });
    expect(JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY)!)).toEqual({
      access_token: access,
      refresh_token: 'r1',
      user,
      isAuthenticated: true,
    });
    await expect(provider().checkAuth()).resolves.toBeUndefined();
    await expect(provider().getIdentity()).resolves.toEqual({
      id: 7,
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
    });
  });

  it('rejects with the server error and stays signed out when the credentials are wrong', async () => {
    server.use(
      http.post(paths.token, () =>
        HttpResponse.json({ detail: 'No active account found with the given credentials' }, { status: 401 }),
      ),
    );
    await expect(provider().login({ email: 'a@b.co', password: 'nope' })).rejects.toMatchObject({
      status: 401,
      body: { detail: 'No active account found with the given credentials' },
    });
    await expect(provider().checkAuth()).rejects.toThrow();
  });

  it('logout ends the session on the server, clears it here and goes to /login', async () => {
    const ended: unknown[] = [];
    server.use(
      http.post(paths.tokenLogout, async ({ request }) => {
        ended.push(await request.json());
        return new HttpResponse(null, { status: 204 });
      }),
    );
    signIn();
    await expect(provider().logout()).resolves.toBe('/login');
    expect(session.get()).toEqual({ access_token: null, refresh_token: null, user: null, isAuthenticated: false });
    expect(ended).toEqual([{ refresh: 'r1' }]);
  });

  it('logs out locally even when the server cannot be reached', async () => {
    server.use(http.post(paths.tokenLogout, () => HttpResponse.error()));
    signIn();
    await expect(provider().logout()).resolves.toBe('/login');
    expect(session.isAuthenticated()).toBe(false);
  });
});

describe('checkError', () => {
  it('ends the session on a 401 (the client has already tried to refresh)', async () => {
    signIn();
    await expect(provider().checkError({ status: 401 })).rejects.toThrow();
    expect(session.isAuthenticated()).toBe(false);
  });

  it('keeps the session on a 403: an access error, not a logout', async () => {
    signIn();
    await expect(provider().checkError({ status: 403 })).resolves.toBeUndefined();
    expect(session.isAuthenticated()).toBe(true);
  });
});

describe('permissions', () => {
  it('gives a superuser every permission', async () => {
    signIn({ is_superuser: true });
    expect([...(await provider().getPermissions())].sort()).toEqual([...PERMISSIONS].sort());
  });

  it('gives others the union of their groups’ accesses', async () => {
    signIn({
      groups: [
        { id: 1, name: 'Editors', group_access: { accesses: ['read_rules', 'create_update_rules'] } },
        { id: 2, name: 'Auditors', group_access: { accesses: ['view_logs', 'read_rules'] } },
      ],
    });
    expect([...(await provider().getPermissions())].sort()).toEqual(['create_update_rules', 'read_rules', 'view_logs']);
  });

  it('gives nothing to a user without groups, or when signed out', async () => {
    signIn({ groups: [] });
    expect((await provider().getPermissions()).size).toBe(0);
    session.clear();
    expect((await provider().getPermissions()).size).toBe(0);
  });

  it('canAccess answers from the resource rules; actions without a rule are open', async () => {
    const rules = { log: { list: 'view_logs' as const } };
    signIn(withAccesses('view_logs'));
    await expect(provider(rules).canAccess({ resource: 'log', action: 'list' })).resolves.toBe(true);
    signIn(withAccesses('read_rules'));
    await expect(provider(rules).canAccess({ resource: 'log', action: 'list' })).resolves.toBe(false);
    await expect(provider(rules).canAccess({ resource: 'log', action: 'export' })).resolves.toBe(true);
    signIn({ is_superuser: true, groups: [] });
    await expect(provider(rules).canAccess({ resource: 'log', action: 'list' })).resolves.toBe(true);
  });
});
