import { HttpError } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../src/providers/apiPaths';
import { createHttpClient, TransportError } from '../../../src/providers/httpClient';
import { createSessionStore, SESSION_STORAGE_KEY, type SessionStore } from '../../../src/providers/session';
import { delay, http, HttpResponse, setupMswServer } from '../../support/msw';
import { fakeJwt } from '../../support/tokens';
import { makeUser } from '../../support/users';

const server = setupMswServer();

let session: SessionStore;
let onLoginScreen = false;
const client = () => createHttpClient({ session, onLoginScreen: () => onLoginScreen }).request;

const OLD_ACCESS = fakeJwt(300, 'old');
const NEW_ACCESS = fakeJwt(300, 'new');
const refreshedUser = makeUser({ first_name: 'Refreshed' });

/** /api/log/ accepts only the new token; the refresh endpoint rotates r1 → r2 and counts its calls. */
function tokenServer(refreshAnswer: () => Response = () => HttpResponse.json({ access: NEW_ACCESS, refresh: 'r2' })) {
  const refreshBodies: unknown[] = [];
  server.use(
    http.get(paths.log, ({ request }) =>
      request.headers.get('Authorization') === `Bearer ${NEW_ACCESS}`
        ? HttpResponse.json({ count: 0, results: [] })
        : HttpResponse.json({ detail: 'Given token not valid for any token type' }, { status: 401 }),
    ),
    http.post(paths.tokenRefresh, async ({ request }) => {
      refreshBodies.push(await request.json());
      return refreshAnswer();
    }),
    http.get(paths.me, ({ request }) =>
      request.headers.get('Authorization') === `Bearer ${NEW_ACCESS}`
        ? HttpResponse.json(refreshedUser)
        : HttpResponse.json({ detail: 'no' }, { status: 401 }),
    ),
  );
  return refreshBodies;
}

const stored = () => JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? 'null');

beforeEach(() => {
  onLoginScreen = false;
  session = createSessionStore(localStorage);
  session.update({ access_token: OLD_ACCESS, refresh_token: 'r1', user: makeUser() });
});

describe('token refresh on 401', () => {
  it('refreshes once, stores the rotated tokens and the re-fetched user, and repeats the request', async () => {
    const refreshBodies = tokenServer();
    const response = await client()(paths.log);
    expect(response.json).toEqual({ count: 0, results: [] });
    expect(refreshBodies).toEqual([{ refresh: 'r1' }]);
    expect(stored()).toMatchObject({ access_token: NEW_ACCESS, refresh_token: 'r2', isAuthenticated: true });
    expect(stored().user.first_name).toBe('Refreshed');
  });

  it('shares one refresh call between concurrent 401s', async () => {
    const refreshBodies = tokenServer();
    const request = client();
    const answers = await Promise.all([request(paths.log), request(paths.log), request(paths.log), request(paths.log)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(refreshBodies).toHaveLength(1);
  });

  it('ends the session when the refresh call answers 401', async () => {
    tokenServer(() =>
      HttpResponse.json({ detail: 'Token is invalid or expired', code: 'token_not_valid' }, { status: 401 }),
    );
    const failure = client()(paths.log);
    await expect(failure).rejects.toBeInstanceOf(HttpError);
    await expect(failure).rejects.toMatchObject({ status: 401 });
    expect(stored()).toEqual({ access_token: null, refresh_token: null, user: null, isAuthenticated: false });
  });

  it('ends the session when the refresh fails', async () => {
    tokenServer(() => HttpResponse.json({ detail: 'boom' }, { status: 500 }));
    await expect(client()(paths.log)).rejects.toMatchObject({ status: 401 });
    expect(session.isAuthenticated()).toBe(false);
    expect(stored().isAuthenticated).toBe(false);
  });

  it('does not refresh for a 401 from the login call', async () => {
    const refreshBodies = tokenServer();
    server.use(http.post(paths.token, () => HttpResponse.json({ detail: 'No active account' }, { status: 401 })));
    await expect(
      client()(paths.token, { method: 'POST', body: { email: 'a@b.c', password: 'x' } }),
    ).rejects.toMatchObject({
      status: 401,
      message: 'No active account',
    });
    expect(refreshBodies).toHaveLength(0);
    expect(session.get().refresh_token).toBe('r1');
  });

  it('does not refresh while the login screen is showing', async () => {
    const refreshBodies = tokenServer();
    onLoginScreen = true;
    await expect(client()(paths.log)).rejects.toMatchObject({ status: 401 });
    expect(refreshBodies).toHaveLength(0);
  });

  it('refreshes ahead of a request when the access token is about to expire', async () => {
    const refreshBodies = tokenServer();
    session.update({ access_token: fakeJwt(10, 'expiring') });
    const response = await client()(paths.log);
    expect(response.status).toBe(200);
    expect(refreshBodies).toEqual([{ refresh: 'r1' }]);
  });
});

describe('requests', () => {
  it('sends JSON with the Bearer token and reads JSON', async () => {
    let seen: { auth: string | null; type: string | null; body: unknown } | undefined;
    server.use(
      http.patch(paths.rule(5), async ({ request }) => {
        seen = {
          auth: request.headers.get('Authorization'),
          type: request.headers.get('Content-Type'),
          body: await request.json(),
        };
        return HttpResponse.json({ id: 5, is_active: true });
      }),
    );
    const { json } = await client()(paths.rule(5), { method: 'PATCH', body: { is_active: true } });
    expect(json).toEqual({ id: 5, is_active: true });
    expect(seen).toEqual({ auth: `Bearer ${OLD_ACCESS}`, type: 'application/json', body: { is_active: true } });
  });

  it('turns DRF field errors into react-admin form errors, keeping the server body', async () => {
    server.use(
      http.post(paths.changePassword, () =>
        HttpResponse.json(
          { old_password: ['Wrong password.'], new_password: ['Too short.', 'Too common.'] },
          { status: 400 },
        ),
      ),
    );
    const error = await client()(paths.changePassword, { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(400);
    expect((error as HttpError).body).toMatchObject({
      old_password: ['Wrong password.'],
      errors: {
        old_password: 'Wrong password.',
        new_password: 'Too short. Too common.',
        root: { serverError: expect.any(String) },
      },
    });
  });

  it('keeps nested rule_filter / rule_task errors per item', async () => {
    server.use(
      http.patch(paths.rule(3), () =>
        HttpResponse.json({ rule_task: [{}, { values: ['Field must be a number'] }] }, { status: 400 }),
      ),
    );
    const error = (await client()(paths.rule(3), { method: 'PATCH', body: {} }).catch((e: unknown) => e)) as HttpError;
    expect(error.body.errors.rule_task).toEqual([{}, { values: 'Field must be a number' }]);
  });

  it('reports transport failures with their messages', async () => {
    server.use(
      http.get(paths.log, () => HttpResponse.error()),
      http.get(paths.campaigns, async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const request = client();
    await expect(request(paths.log)).rejects.toMatchObject({ message: 'Network Error', failure: 'network' });
    await expect(request(paths.campaigns, { timeout: 20 })).rejects.toMatchObject({
      message: 'timeout exceeded',
      failure: 'timeout',
    });
    const controller = new AbortController();
    const aborted = request(paths.campaigns, { signal: controller.signal });
    controller.abort();
    const error = await aborted.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ message: 'Request aborted' });
  });
});

describe('a session that cannot be refreshed', () => {
  it('ends on a 401 when no refresh token is held', async () => {
    const refreshBodies = tokenServer();
    session.update({ refresh_token: null });
    await expect(client()(paths.log)).rejects.toMatchObject({
      status: 401,
      message: 'Given token not valid for any token type',
    });
    expect(refreshBodies).toHaveLength(0);
    expect(stored()).toEqual({ access_token: null, refresh_token: null, user: null, isAuthenticated: false });
  });
});

describe('cross-site request token', () => {
  afterEach(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the cookie
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  });

  function headerServer() {
    const seen: (string | null)[] = [];
    server.use(
      http.all(`${paths.log}*`, ({ request }) => {
        seen.push(request.headers.get('X-XSRF-TOKEN'));
        return HttpResponse.json({ count: 0, results: [] });
      }),
    );
    return seen;
  }

  it('sends the XSRF-TOKEN cookie back as the X-XSRF-TOKEN header on every call', async () => {
    const seen = headerServer();
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the cookie
    document.cookie = 'XSRF-TOKEN=abc%2Bdef; path=/';
    const request = client();
    await request(paths.log);
    await request(paths.log, { method: 'POST', body: { a: 1 } });
    await request(paths.log, { method: 'DELETE', auth: false });
    expect(seen).toEqual(['abc+def', 'abc+def', 'abc+def']);
  });

  it('sends no such header without the cookie, nor to another origin', async () => {
    const seen = headerServer();
    await client()(paths.log);
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the cookie
    document.cookie = 'XSRF-TOKEN=abc; path=/';
    server.use(
      http.get('https://elsewhere.example/api/log/', ({ request }) => {
        seen.push(request.headers.get('X-XSRF-TOKEN'));
        return HttpResponse.json({});
      }),
    );
    await client()('https://elsewhere.example/api/log/');
    expect(seen).toEqual([null, null]);
  });
});

describe('transport errors', () => {
  it("reports a call to a non-web address as 'Unsupported protocol'", async () => {
    const error = await client()('ftp://files.example/api/log/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ message: 'Unsupported protocol', failure: 'protocol', status: 0 });
  });
});
