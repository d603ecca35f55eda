/**
 * What a media buyer sees on a phone (390×844), end to end on a fresh `npm start` (the built-in
 * Graph simulator, its clock stopped): the rule editor's sticky header takes at most a sixth of the
 * screen, at the top and scrolled, with every action still reachable; Preview of a rule that turns
 * something off opens full screen and lists what it would turn off as cards, not a table. The
 * editor and the preview are held to checkBothWidths (no sideways scrolling, axe finds nothing) at
 * 390 and 1280 px; the window at both widths is kept in docs/screenshots (phone-editor-header-*,
 * phone-preview-*).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled, signIn } from './support/browser';
import { adminApi, createNoLeadsRule, openProductWithSimulator } from './support/engineScenario';
import { checkBothWidths, DESKTOP, PHONE } from './support/screenCheck';
import { ADMIN, ROOT } from './support/server';

/** A sixth of the phone's height. */
const MAX_HEADER = PHONE.height / 6;

describe('Preview and the rule editor on a phone, in a real browser', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let ruleId: number;
  let noLeadsAd: string;

  beforeAll(async () => {
    const opened = await openProductWithSimulator();
    close = opened.close;
    const api = await adminApi(opened.product.url);
    ({ ruleId, noLeadsAd } = await createNoLeadsRule(api, opened.simulator, 'Harbor Phone Preview'));
    // Axe is added to the page as a script tag, which the app's CSP would refuse.
    await opened.page.context().close();
    const context = await opened.browser.newContext({ baseURL: opened.product.url, viewport: PHONE, bypassCSP: true });
    context.setDefaultNavigationTimeout(120_000);
    page = await context.newPage();
  });
  afterAll(() => close?.());

  /** The box of whatever is sticky around the Back button (the editor's sticky header), as laid out now. */
  async function stickyHeaderBox() {
    await page.evaluate(`(() => {
      document.querySelectorAll('[data-measured-sticky]').forEach((e) => e.removeAttribute('data-measured-sticky'));
      let e = document.querySelector('[aria-label="Back to the folders"]');
      while (e && getComputedStyle(e).position !== 'sticky') e = e.parentElement;
      if (e) e.setAttribute('data-measured-sticky', '');
    })()`);
    return page.locator('[data-measured-sticky]').boundingBox();
  }

  /**
   * The window as it is now (not the whole page: a dialog is fixed to the window) at 390 and 1280 px,
   * in docs/screenshots as `<name>-<width>.png`; `at` puts the page in place at each width.
   */
  async function keepScreenshots(name: string, at: () => Promise<unknown> = async () => undefined) {
    const docs = path.join(ROOT, 'docs', 'screenshots');
    await mkdir(docs, { recursive: true });
    for (const [size, px] of [
      [PHONE, 390],
      [DESKTOP, 1280],
    ] as const) {
      await page.setViewportSize(size);
      await at();
      await settled(page);
      await page.screenshot({ path: path.join(docs, `${name}-${px}.png`) });
    }
    await page.setViewportSize(PHONE);
  }

  it('keeps the editor’s sticky header within a sixth of the screen, at the top and scrolled', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`/edit-rule/${ruleId}`);
    await page.getByText('Judging late data').waitFor({ timeout: 30_000 });
    await settled(page);

    const top = await stickyHeaderBox();
    console.log(`sticky header at the top: ${top?.height} px tall`);
    expect(top).not.toBeNull();
    expect(top!.height).toBeLessThanOrEqual(MAX_HEADER);

    await page.mouse.wheel(0, 1500);
    await page.waitForFunction('window.scrollY > 500');
    await settled(page);
    expect(await page.evaluate('window.scrollY')).toBeGreaterThan(500);
    const scrolled = await stickyHeaderBox();
    console.log(`sticky header scrolled: ${scrolled?.height} px tall, at y ${scrolled?.y}`);
    expect(scrolled!.height).toBeLessThanOrEqual(MAX_HEADER);
    // Still on screen while the page scrolls beneath it, with the back button, the name and Save.
    expect(scrolled!.y).toBeGreaterThanOrEqual(0);
    expect(scrolled!.y + scrolled!.height).toBeLessThanOrEqual(MAX_HEADER + 64);
    const header = page.locator('[data-measured-sticky]');
    await header.getByRole('button', { name: 'Back to the folders' }).waitFor();
    await header.getByRole('textbox', { name: 'Rule name' }).waitFor();
    await header.getByRole('button', { name: 'Save', exact: true }).waitFor();

    // What left the sticky row is still there: above, with the page scrolled back, or in the menu.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.getByRole('button', { name: 'Try on history' }).waitFor();
    await page.getByRole('button', { name: /^Preview what .* would turn off$/ }).waitFor();
    await page.getByRole('button', { name: /^Run now: / }).waitFor();
    await page.getByRole('switch', { name: 'Active' }).waitFor();
    await header.getByRole('button', { name: 'More actions' }).click();
    const menu = page.getByRole('menu', { name: 'More actions' });
    for (const item of ['Log', 'Impact', 'Trash']) await menu.getByRole('menuitem', { name: item }).waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });

    const findings = await checkBothWidths(page, 'phone-editor-header', (p) => [
      p.getByRole('button', { name: 'Back to the folders' }),
      p.getByRole('button', { name: 'Save', exact: true }),
    ]);
    expect(findings).toEqual([]);
    // Scrolled to the task cards: on the phone only the first row stays over them.
    await keepScreenshots('phone-editor-header', () => page.evaluate('window.scrollTo(0, 400)'));
  });

  it('opens Preview full screen on a phone, what it would turn off as cards', async () => {
    await page.setViewportSize(PHONE);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.getByRole('button', { name: /^Preview what .* would turn off$/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Preview: / });
    const results = dialog.getByRole('list', { name: 'What the rule would do' });
    await results.waitFor({ timeout: 30_000 });
    expect(await dialog.getByRole('table').count()).toBe(0);
    const card = results.getByRole('listitem').filter({ hasText: noLeadsAd });
    expect(await card.count()).toBe(1);
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('turn off ad');
    expect(text).toContain(noLeadsAd);
    expect(text).toContain('Turn off the ad if spend is above a value and leads are 0');
    expect(text).toMatch(/Spend:\$\d+\.\d\d > \$40\.00/);
    expect(text).toContain('Leads:0');

    // Full screen: the dialog is as wide as the window.
    await settled(page); // the dialog at the end of its entry transition
    const box = await dialog.boundingBox(); // the dialog's paper
    const windowWidth = (await page.evaluate('window.innerWidth')) as number;
    expect(box!.width).toBe(windowWidth);
    expect(box!.x).toBe(0);

    const findings = await checkBothWidths(page, 'phone-preview', (p) => [
      p.getByRole('dialog').getByRole('button', { name: 'Close' }),
    ]);
    expect(findings).toEqual([]);
    await keepScreenshots('phone-preview');

    // At 1280 (checkBothWidths' second width) it was the table; back on the phone, the cards again.
    await results.waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });
});
