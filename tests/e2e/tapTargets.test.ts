/**
 * What a thumb presses on a phone, measured, on a fresh `npm start` with the Graph simulator (clock
 * stopped): a folder with one rule, synced and health-checked. At 390×844 every switch, row-menu
 * button and schedule cell of the general view and the rule editor — and every icon button and
 * checkbox there — is at least 44 × 44 CSS px (a switch's hit area is its input, clipped by its
 * root); the campaigns list is a card per campaign
 * with its spend and CPL; the ad accounts list a card per account with its health. Each screen at
 * 390 and 1280 px: no sideways page scroll, no axe-core WCAG 2.1 A/AA violation; the screenshots are
 * copied to docs/screenshots/tap-targets-*-{390,1280}.png.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformHealthDto } from '../../shared/health';
import { waitUntil } from '../support/waitUntil';
import { settled, signIn } from './support/browser';
import { adminApi, createNoLeadsRule, openProductWithSimulator } from './support/engineScenario';
import { checkBothWidths, DESKTOP, PHONE } from './support/screenCheck';
import { ADMIN, ROOT } from './support/server';

const FOLDER = 'Thumbwood Tap Advisors';
const MIN = 44;

interface Target {
  what: string;
  width: number;
  height: number;
}

/**
 * The hit area of each switch, row-menu button and schedule cell shown on the page (within the
 * scrolling grid too), measured with getBoundingClientRect in one go: the string is evaluated in
 * the page (this file is type-checked without the DOM).
 */
const measureTargets = (page: Page) =>
  page.evaluate(`(() => {
    const box = (e) => e.getBoundingClientRect();
    const shown = (e) => { const r = box(e); return r.width > 0 && r.height > 0; };
    const name = (e) =>
      e.getAttribute('aria-label') || (e.labels && e.labels[0] && e.labels[0].textContent.trim()) || e.textContent.trim() || e.className;
    const targets = [];
    // A switch: its input, clipped by its root (overflow hidden), is what a tap lands on.
    for (const root of document.querySelectorAll('.MuiSwitch-root')) {
      const input = root.querySelector('input');
      if (!input || !shown(root)) continue;
      const r = box(root), i = box(input);
      targets.push({
        what: 'switch ' + name(input),
        width: Math.min(r.right, i.right) - Math.max(r.left, i.left),
        height: Math.min(r.bottom, i.bottom) - Math.max(r.top, i.top),
      });
    }
    const seen = new Set();
    const add = (kind, selector) => {
      for (const e of document.querySelectorAll(selector)) {
        if (seen.has(e) || !shown(e)) continue;
        seen.add(e);
        targets.push({ what: kind + ' ' + name(e), width: box(e).width, height: box(e).height });
      }
    };
    add('menu', 'button[aria-haspopup="menu"]');
    add('cell', '[role="grid"] button');
    // The theme's other phone rule: every icon button and checkbox.
    add('icon button', '.MuiIconButton-root');
    add('checkbox', '.MuiCheckbox-root');
    return targets;
  })()`) as Promise<Target[]>;

const smallest = (targets: Target[]) =>
  targets.reduce<Target | undefined>(
    (least, t) => (!least || Math.min(t.width, t.height) < Math.min(least.width, least.height) ? t : least),
    undefined,
  );

const describeTarget = (t: Target | undefined) =>
  t ? `${t.what}: ${Math.round(t.width * 10) / 10} × ${Math.round(t.height * 10) / 10}` : 'none';

/** Every target at least 44 × 44; the failure names the smallest and how many fall short. */
function expectTapTargets(targets: Target[], kinds: string[]) {
  for (const kind of kinds)
    expect(
      targets.some((t) => t.what.startsWith(kind)),
      `no ${kind} measured`,
    ).toBe(true);
  const short = targets.filter((t) => t.width < MIN - 0.5 || t.height < MIN - 0.5);
  expect(
    short.length,
    `${short.length} of ${targets.length} under 44 × 44; smallest ${describeTarget(smallest(short))}`,
  ).toBe(0);
}

describe('tap targets and phone cards', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let ruleId: number;
  let folderId: number;
  const log: string[] = [];

  beforeAll(async () => {
    const opened = await openProductWithSimulator();
    close = opened.close;
    const api = await adminApi(opened.product.url);
    ({ ruleId, folderId } = await createNoLeadsRule(api, opened.simulator, FOLDER));
    // A sync, and the health check after it, reads the folder's account: the ad accounts list has its health.
    await api('POST', 'campaigns/sync/', {});
    const checked = async () =>
      (await api<PlatformHealthDto>('GET', 'platform_health/')).accounts.some((a) => a.checked_at !== null);
    await waitUntil(checked, 'the health check to read the account', { intervalMs: 500 });
    // Axe is added to the page as a script tag, which the app's CSP would refuse.
    await opened.page.context().close();
    const context = await opened.browser.newContext({ baseURL: opened.product.url, viewport: PHONE, bypassCSP: true });
    context.setDefaultNavigationTimeout(120_000);
    page = await context.newPage();
    await signIn(page, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    if (log.length) console.info(log.join('\n'));
    await close?.();
  });

  /** checkBothWidths' screenshots (test-results/screenshots) copied to docs/screenshots. */
  async function keepScreenshots(screen: string) {
    const docs = path.join(ROOT, 'docs', 'screenshots');
    await mkdir(docs, { recursive: true });
    for (const [width, px] of [
      ['phone', 390],
      ['desktop', 1280],
    ] as const)
      await copyFile(
        path.join(ROOT, 'test-results', 'screenshots', `${screen}-${width}.png`),
        path.join(docs, `${screen}-${px}.png`),
      );
  }

  /** Measured at 1280 (MUI's sizes, as before this change) for the report, then at 390, asserted. */
  async function measureBoth(screen: string, kinds: string[]) {
    await page.setViewportSize(DESKTOP);
    await settled(page);
    const before = await measureTargets(page);
    for (const kind of kinds)
      log.push(
        `${screen} at 1280, smallest ${kind}: ${describeTarget(smallest(before.filter((t) => t.what.startsWith(kind))))}`,
      );
    await page.setViewportSize(PHONE);
    await settled(page);
    const targets = await measureTargets(page);
    for (const kind of kinds)
      log.push(
        `${screen} at 390, smallest ${kind}: ${describeTarget(smallest(targets.filter((t) => t.what.startsWith(kind))))}`,
      );
    expectTapTargets(targets, kinds);
  }

  it('the general view: each switch and row menu is at least 44 × 44 on a phone', async () => {
    await page.goto('/');
    const folder = page.getByTestId(`folder-${folderId}`);
    await folder.getByRole('button', { name: `Show the rules of ${FOLDER}` }).click();
    await page.getByTestId(`rule-${ruleId}`).waitFor();
    await page.waitForLoadState('networkidle');
    await measureBoth('general', ['switch', 'menu', 'icon button']);
    expect(await checkBothWidths(page, 'tap-targets-general')).toEqual([]);
    await keepScreenshots('tap-targets-general');
  });

  it('the rule editor: its switches, its menu and every schedule cell are at least 44 × 44 on a phone', async () => {
    await page.goto(`/edit-rule/${ruleId}`);
    await page.getByRole('grid', { name: 'Schedule' }).first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await measureBoth('editor', ['switch', 'menu', 'cell', 'icon button']);
    // The grids scroll inside their own box; the page does not.
    expect(await checkBothWidths(page, 'tap-targets-editor')).toEqual([]);
    await keepScreenshots('tap-targets-editor');
  });

  it('the campaigns list is a card per campaign with its spend and CPL on a phone', async () => {
    await page.goto('/campaigns');
    const cards = page.getByRole('list', { name: 'Campaigns' }).getByRole('listitem');
    await cards.first().waitFor({ timeout: 30_000 });
    const texts = await cards.allInnerTexts();
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) {
      expect(text).toMatch(/Spend\s*\n\s*(\$[\d,.]+|N\/A)/);
      expect(text).toMatch(/CPL\s*\n\s*(\$[\d,.]+|N\/A)/);
    }
    expect(texts.some((text) => /Spend\s*\n\s*\$/.test(text))).toBe(true);
    expect(await page.locator('table').count()).toBe(0);
    expect(await checkBothWidths(page, 'tap-targets-campaigns')).toEqual([]);
    await keepScreenshots('tap-targets-campaigns');
    // On the desktop the table is as it was.
    await page.setViewportSize(DESKTOP);
    await page.getByRole('columnheader', { name: 'Source Campaign Name' }).waitFor();
    await page.setViewportSize(PHONE);
  });

  it('the ad accounts list is a card per account with its health on a phone', async () => {
    await page.goto('/ad_accounts');
    const cards = page.getByRole('list', { name: 'Ad accounts' }).getByRole('listitem');
    await cards.first().waitFor({ timeout: 30_000 });
    const count = await cards.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++)
      await expect(cards.nth(i).innerText()).resolves.toMatch(/Health\s*\n\s*(Healthy|Runs held|Not checked yet)/);
    // The checked account reads Healthy or Runs held, not Not checked yet.
    expect((await cards.allInnerTexts()).some((text) => /Healthy|Runs held/.test(text))).toBe(true);
    expect(await checkBothWidths(page, 'tap-targets-ad-accounts')).toEqual([]);
    await keepScreenshots('tap-targets-ad-accounts');
  });
});
