/**
 * Setup of the `unit` vitest project (jsdom): jest-dom matchers, the browser APIs jsdom lacks,
 * a clean localStorage and DOM between tests. HTTP mocking lives in ./msw.ts (opt-in per file).
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import * as React from 'react';
import { afterEach, vi } from 'vitest';

// Screens load lazily and the machine may be busy: give findBy/waitFor more than the 1 s default,
// and a test more than the 5 s default to render the whole app a few times.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 15_000 });

// React's development build records where each element was created (an Error per element, for the
// "owner stack" of its warnings) until 10,000 were recorded within a second: about a tenth of this
// project's time. No test reads owner stacks; a count that stays above the limit stops the recording.
const reactInternals = (React as unknown as Record<string, object | undefined>)
  .__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
if (reactInternals && 'recentlyCreatedOwnerStacks' in reactInternals)
  Object.defineProperty(reactInternals, 'recentlyCreatedOwnerStacks', {
    get: () => Number.POSITIVE_INFINITY,
    set: () => undefined,
    configurable: true,
  });

class IntersectionObserverStub implements IntersectionObserver {
  readonly root = null;
  readonly rootMargin = '0px';
  readonly thresholds = [0];
  readonly scrollMargin = '0px';
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }
}

class ResizeObserverStub implements ResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

if (typeof window !== 'undefined') {
  // jsdom has scrollTo only as a stub that reports "Not implemented" on the console: no layout, so
  // nothing to scroll.
  window.scrollTo = (() => undefined) as typeof window.scrollTo;
  window.IntersectionObserver ??= IntersectionObserverStub;
  window.ResizeObserver ??= ResizeObserverStub;
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

afterEach(() => {
  cleanup();
  if (typeof window !== 'undefined') window.localStorage.clear();
  vi.useRealTimers();
});
