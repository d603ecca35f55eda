/** Debian's Chromium driven by playwright-core (never a downloaded browser). */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from './server';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 860 } });
  return context.newPage();
}

/** Signs in through the Login form and waits for the signed-in shell. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.locator('input[type=password]').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Fills the open Create Folder dialog (with the first ad account the sync brought) and presses Create. */
export async function fillCreateFolder(
  page: Page,
  folder: { type: string; plan: string; name: string },
): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Create Folder' });
  await dialog.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: folder.type }).click();
  await dialog.getByRole('combobox', { name: 'Plan' }).click();
  await page.getByRole('option', { name: folder.plan }).click();
  await dialog.getByRole('combobox', { name: 'Ad account name' }).click();
  // The ad accounts come from the simulator's first sync.
  await page.getByRole('option').first().click({ timeout: 60_000 });
  await dialog.getByRole('textbox', { name: 'Folder name' }).fill(folder.name);
  await dialog.getByRole('button', { name: 'Create' }).click();
}

/**
 * Resolves once the page shows where things end, not where they pass: two frames drawn (a resize or
 * scroll laid out, React's answer to it rendered), no request of the app's in flight (react-admin's
 * header spinner gone), then no finite animation or transition running (MUI's dialogs, drawers,
 * collapses), again until none is left. Endless ones (a screen's own spinners) run on.
 */
export async function settled(page: Page, timeoutMs = 10_000): Promise<void> {
  const still = await page.evaluate<string[]>(`(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const deadline = performance.now() + ${timeoutMs};
    for (;;) {
      await frame();
      await frame();
      if (document.querySelector('.app-loader')) {
        if (performance.now() > deadline) return ['requests in flight'];
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      const running = document.getAnimations().filter(
        (a) => a.playState === 'running' && a.effect && a.effect.getComputedTiming().iterations !== Infinity,
      );
      if (!running.length) return [];
      if (performance.now() > deadline) return running.map((a) => a.animationName || a.transitionProperty || a.id);
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  })()`);
  if (still.length) throw new Error(`still animating after ${timeoutMs} ms: ${still.join(', ')}`);
}

/** Saves a screenshot under test-results/screenshots (not committed) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = path.join(ROOT, 'test-results', 'screenshots');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await settled(page); // drawers and dialogs at the end of their entry transition
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
