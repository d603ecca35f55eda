/**
 * The agency overview on a fresh `npm start` with the Graph simulator (clock stopped) and a blast
 * radius of 1% of an account's delivering ads, so every real run is held: a quiet folder made first,
 * then a folder whose rule's Run now is held. The overview, reached from the side panel and from
 * General's toolbar, lists the held folder above the quiet one with a "1 held run" chip leading to
 * the run; the side panel lists Activity, Log, Impact and Agency overview below its own entries.
 * Both screens at 390×844 and 1280×800: no sideways scrolling, no axe-core WCAG 2.1 A/AA violation,
 * a screenshot each.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgencyOverview } from '../../shared/overview';
import { waitUntil } from '../support/waitUntil';
import { signIn } from './support/browser';
import { adminApi, createNoLeadsRule, openProductWithSimulator } from './support/engineScenario';
import { checkBothWidths, PHONE } from './support/screenCheck';
import { ADMIN } from './support/server';

const QUIET = 'Alder Quiet Advisors';
const HELD = 'Harbor Held Overview';

describe('the agency overview in a real browser', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let heldRuleId: number;

  beforeAll(async () => {
    const opened = await openProductWithSimulator({ ENGINE_MAX_SHARE: '0.01' });
    close = opened.close;
    const api = await adminApi(opened.product.url);
    // The quiet folder first, on an account the held rule's scenario does not use; its rule stays off.
    const accounts = await api<{ results: { ad_account_id: string }[] }>('GET', 'meta_ad_account/?limit=400');
    const held = await createNoLeadsRule(api, opened.simulator, HELD);
    heldRuleId = held.ruleId;
    const heldFolder = await api<{ meta_ad_account: { ad_account_id: string } }>(
      'GET',
      `general_page/${held.folderId}/`,
    );
    const other = accounts.results.find((a) => a.ad_account_id !== heldFolder.meta_ad_account.ad_account_id)!;
    await api('POST', 'general_page/', {
      client_type: 'DLM',
      plan: 'team',
      meta_ad_account_id: other.ad_account_id,
      name: QUIET,
      extension: { external_credentials: { demio: null } },
    });
    const ran = await api<{ status: string }>('POST', `rules/${held.ruleId}/run_now/`, {});
    expect(ran.status).toBe('held');
    // A sync, and the health check after it, reads both accounts' days: the overview shows their numbers.
    await api('POST', 'campaigns/sync/', {});
    const readBoth = async () =>
      (await api<AgencyOverview>('GET', 'overview/')).results.filter((row) => row.read_at !== null).length === 2;
    await waitUntil(readBoth, 'the health check to read both accounts', { intervalMs: 500 });

    // Axe is added to the page as a script tag, which the app's CSP would refuse.
    await opened.page.context().close();
    const context = await opened.browser.newContext({
      baseURL: opened.product.url,
      viewport: { width: 1280, height: 800 },
      bypassCSP: true,
    });
    context.setDefaultNavigationTimeout(120_000);
    page = await context.newPage();
  });
  afterAll(() => close?.());

  const rowCount = async () =>
    (await page.getByRole('table', { name: 'Agency overview' }).getByRole('row').all()).length;

  it('the side panel lists Activity, Log, Impact, Agency overview and Ads below its own entries', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const panel = page.getByRole('navigation', { name: 'Ad Rules Console' });
    await panel.getByRole('link', { name: 'Agency overview' }).waitFor();
    const names = (await panel.getByRole('link').allTextContents()).map((t) => t.trim());
    // The panel's own entries, in their order, then the screens.
    const own = ['General', 'Campaigns', 'Team', 'Account'];
    expect(names.filter((name) => own.includes(name))).toEqual(own);
    expect(names.slice(-5)).toEqual(['Activity', 'Log', 'Impact', 'Agency overview', 'Ads']);
    expect(names.indexOf('Account')).toBeLessThan(names.indexOf('Activity'));
    expect(await checkBothWidths(page, 'side-panel')).toEqual([]);
  });

  it('reaches the overview from the side panel: the folder with a held run above the quiet one', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page
      .getByRole('navigation', { name: 'Ad Rules Console' })
      .getByRole('link', { name: 'Agency overview' })
      .click();
    await page.waitForURL('**/overview');
    const table = page.getByRole('table', { name: 'Agency overview' });
    await table.getByRole('link', { name: HELD, exact: true }).waitFor();
    const rows = table.getByRole('row');
    const texts = await rows.allTextContents();
    const heldAt = texts.findIndex((t) => t.includes(HELD));
    const quietAt = texts.findIndex((t) => t.includes(QUIET));
    expect(heldAt).toBeGreaterThan(0);
    expect(quietAt).toBeGreaterThan(heldAt);
    expect(await rowCount()).toBeGreaterThanOrEqual(3);
    const chip = rows.nth(heldAt).getByRole('link', { name: '1 held run' });
    expect(await chip.getAttribute('href')).toMatch(new RegExp(`^/edit-rule/${heldRuleId}\\?run=\\d+$`));
    await page
      .getByText('1 folder needs a person')
      .or(page.getByText(/folders need a person$/))
      .waitFor();
    expect(await checkBothWidths(page, 'overview', (p) => [p.getByRole('button', { name: 'Refresh' })])).toEqual([]);
  });

  it('on a phone each folder is a card, the held one first', async () => {
    await page.setViewportSize(PHONE);
    const cards = page.getByRole('list', { name: 'Agency overview' }).getByRole('listitem');
    await cards.first().waitFor();
    expect(await cards.first().textContent()).toContain(HELD);
    const texts = await cards.allTextContents();
    expect(texts.findIndex((t) => t.includes(QUIET))).toBeGreaterThan(0);
  });

  it('General’s toolbar leads to it, and the chip to the held run in the rule editor', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const toOverview = (p: Page) => [p.getByRole('link', { name: 'Agency overview' })];
    await toOverview(page)[0]!.waitFor();
    // On a phone the toolbar's row is full: the link is its icon, and nothing reaches past the window.
    expect(await checkBothWidths(page, 'general-overview-link', toOverview)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'Agency overview' }).click();
    await page.waitForURL('**/overview');
    await page.getByRole('link', { name: '1 held run' }).click();
    await page.waitForURL(new RegExp(`/edit-rule/${heldRuleId}\\?run=\\d+$`));
    await page
      .getByRole('button', { name: /^Approve/ })
      .first()
      .waitFor({ timeout: 30_000 });
  });
});
