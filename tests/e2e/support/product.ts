/**
 * What every browser test starts from: a fresh `npm start` and a signed-out page on it, in Debian's
 * Chromium. `close()` shuts the browser and stops the product, whatever state either is in.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage } from './browser';
import { startProduct, type RunningProduct } from './server';

export interface ProductInBrowser {
  product: RunningProduct;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

export async function openProduct(env: Record<string, string> = {}): Promise<ProductInBrowser> {
  const product = await startProduct(env);
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const page = await newPage(browser, product.url);
    const opened = browser;
    return {
      product,
      browser,
      page,
      async close() {
        try {
          await opened.close();
        } finally {
          await product.stop();
        }
      },
    };
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await product.stop();
    throw error;
  }
}
