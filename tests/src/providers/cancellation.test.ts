/**
 * A call the caller cancelled (react-query aborting a query's signal) rejects with the signal's
 * abort reason, a DOMException named AbortError: the cancellation ra-core and react-query recognise,
 * not an error to log. Other failures reject as they did.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../src/providers/apiPaths';
import { createDataProvider } from '../../../src/providers/dataProvider';
import { createHttpClient, TransportError } from '../../../src/providers/httpClient';
import { createSessionStore } from '../../../src/providers/session';
import { delay, http, HttpResponse, setupMswServer } from '../../support/msw';
import { fakeJwt } from '../../support/tokens';

const server = setupMswServer();

let provider: ReturnType<typeof createDataProvider>;

beforeEach(() => {
  const session = createSessionStore(localStorage);
  session.update({ access_token: fakeJwt(300), refresh_token: 'r1' });
  provider = createDataProvider({
    endpoints: { log: { path: 'log/' }, groups: { path: 'groups/' } },
    http: createHttpClient({ session, onLoginScreen: () => false }).request,
  });
});

/** Answers `path` only once the test has cancelled the call; resolves when the call has arrived. */
function neverAnswering(path: string) {
  let arrived!: () => void;
  const arrival = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  server.use(
    http.get(path, async () => {
      arrived();
      await delay('infinite');
      return HttpResponse.json({});
    }),
  );
  return arrival;
}

/** Starts `call` with a signal, cancels it once the request reached the server, and returns the rejection. */
async function cancelled(path: string, call: (signal: AbortSignal) => Promise<unknown>) {
  const arrival = neverAnswering(path);
  const controller = new AbortController();
  const pending = call(controller.signal).catch((error: unknown) => error);
  await arrival;
  controller.abort();
  return pending;
}

describe('a cancelled dataProvider call', () => {
  it("rejects with the signal's own reason when it is an AbortError", async () => {
    const reason = new DOMException('Cancelled by the test', 'AbortError');
    const controller = new AbortController();
    const arrival = neverAnswering(paths.ruleRun(3));
    const pending = provider.getRuleRun(3, controller.signal).catch((error: unknown) => error);
    await arrival;
    controller.abort(reason);
    expect(await pending).toBe(reason);
  });

  it('rejects a list with the AbortError of its signal', async () => {
    const error = await cancelled(paths.log, (signal) =>
      provider.getList('log', {
        pagination: { page: 1, perPage: 10 },
        sort: { field: 'id', order: 'DESC' },
        filter: {},
        signal,
      }),
    );
    expect(error).toBeInstanceOf(DOMException);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it('rejects a record read (getOne) with an AbortError', async () => {
    const error = await cancelled(paths.group(7), (signal) => provider.getOne('groups', { id: 7, signal }));
    expect(error).toBeInstanceOf(DOMException);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it("rejects the rule engine's named calls with an AbortError", async () => {
    const error = await cancelled(paths.ruleRun(4), (signal) => provider.getRuleRun(4, signal));
    expect(error).toBeInstanceOf(DOMException);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it('still rejects a call that failed on its own with its error', async () => {
    server.use(http.get(paths.ruleRun(5), () => HttpResponse.error()));
    const error = await provider.getRuleRun(5, new AbortController().signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ failure: 'network' });
  });
});
