/**
 * A first visit paints its screen by itself: an unauthenticated visit to / lands on /login and shows
 * the login form without anything forcing a paint (no screenshot, no interaction). Router updates
 * once ran as React transitions and the form never appeared until something forced a paint. How
 * fast it appears is the bench's question (`npm run bench`, its bundle section), not this test's: the wait
 * is only long enough that a form that never paints fails.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProduct } from './support/product';
import type { RunningProduct } from './support/server';

describe('first paint', () => {
  let product: RunningProduct;
  let browser: Browser;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ product, browser, close } = await openProduct());
  });
  afterAll(() => close?.());

  it('shows the login form by itself on opening / in a fresh browser', async () => {
    // Two fresh contexts: the first load also warms the server's static file cache.
    for (let visit = 0; visit < 2; visit += 1) {
      const context = await browser.newContext({ baseURL: product.url, viewport: { width: 1280, height: 860 } });
      try {
        const page = await context.newPage();
        await page.goto('/');
        await page.getByRole('button', { name: 'Login' }).waitFor({ state: 'visible', timeout: 15_000 });
        await expect(page.getByLabel('Email').isVisible()).resolves.toBe(true);
        expect(new URL(page.url()).pathname).toBe('/login');
      } finally {
        await context.close();
      }
    }
  });
});
