/**
 * msw for browser-side tests: `const server = setupMswServer(...handlers)` in a test file starts one
 * server for the file, resets per-test handlers after each test, and stops at the end. Unhandled
 * requests fail the test. Relative URLs ('/api/log/') resolve against the jsdom page, as in a browser.
 */
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

type Handler = Parameters<typeof setupServer>[number];

export { http, HttpResponse, delay } from 'msw';

/** Resolves relative request URLs against the page, which Node's fetch does not do. */
function resolveRelativeUrls(fetchImpl: typeof fetch): typeof fetch {
  return (input, init) => {
    const base = typeof window !== 'undefined' ? window.location.href : 'http://localhost/';
    const resolved = typeof input === 'string' ? new URL(input, base).href : input instanceof URL ? input.href : input;
    return fetchImpl(resolved, init);
  };
}

export function setupMswServer(...handlers: Handler[]): SetupServer {
  const server = setupServer(...handlers);
  let originalFetch: typeof fetch;
  beforeAll(() => {
    server.listen({ onUnhandledFrame: 'error' });
    originalFetch = globalThis.fetch;
    globalThis.fetch = resolveRelativeUrls(originalFetch);
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => {
    globalThis.fetch = originalFetch;
    server.close();
  });
  return server;
}
