/**
 * End to end on a fresh `npm start` (the built-in Graph simulator, frozen clock): after a rule turns
 * an ad off, the folder's Ads link opens the ads list, which says which rule turned it off and when
 * (with its run record), that Meta paused another, and what the others are; Show narrows it to the
 * rule's turn-offs; Turn back on (selected rows) turns the ad on in the simulator and exempts it from
 * the rule, as Undo; the run record links to the ads it looked at. A rule that turns a campaign off
 * shows in the campaigns list's Status, and the campaign's Ads link shows its ad off for that. Both
 * screens are checked at a phone's and a desktop's width (no sideways scrolling, axe clean).
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/browser';
import {
  type AdminApi,
  adminApi,
  createNoLeadsRule,
  openProductWithSimulator,
  simStatus,
} from './support/engineScenario';
import { checkBothWidths, DESKTOP, PHONE } from './support/screenCheck';
import { ADMIN, ROOT } from './support/server';

const FOLDER = 'Harbor Ads Test';
const TURNED_OFF = /Turned off by rule .+ at \d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d\d [AP]M/;

/**
 * The screen at 1280 and 390 px for docs/screenshots (copied there by hand): the whole page on the
 * desktop, the window on the phone (a phone's first screen is what a person sees).
 */
async function docScreenshots(page: Page, name: string, onPhone: () => Promise<void>) {
  const dir = path.join(ROOT, 'test-results', 'screenshots');
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: path.join(dir, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  await onPhone();
  await page.screenshot({ path: path.join(dir, `${name}-390.png`) });
}

describe('Ads list in a real browser', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let simulator: string;
  let api: AdminApi;
  let ruleId: number;
  let folderId: number;
  let noLeadsAd: string;
  let metaAd: string;
  let runId: number;

  const adRow = (adId: string) => page.getByRole('row').filter({ hasText: `Ad ID ${adId}` });

  beforeAll(async () => {
    const opened = await openProductWithSimulator();
    ({ close, simulator } = opened);
    // Axe (the screens' checks) is added to the page as a script tag, which the app's CSP would refuse.
    await opened.page.context().close();
    const context = await opened.browser.newContext({
      baseURL: opened.product.url,
      viewport: DESKTOP,
      bypassCSP: true,
    });
    page = await context.newPage();
    api = await adminApi(opened.product.url);
    ({ folderId, ruleId, noLeadsAd } = await createNoLeadsRule(api, simulator, FOLDER));
    const scenarios = (await (await fetch(`${simulator}/__sim/scenarios`)).json()) as Record<
      string,
      { adIds: string[]; campaignId: string }
    >;
    metaAd = scenarios.cpl_climbs!.adIds[0]!;
    // Meta pauses one ad after a policy review; the rule's run notices it and turns its own ad off.
    const paused = await fetch(`${simulator}/__sim/objects/${metaAd}/meta_pause`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'policy' }),
    });
    expect(paused.status).toBe(200);
    const run = await api<{ turned_off: number; results: { ad_id: string; run_id: number | null }[] }>(
      'POST',
      `rules/${ruleId}/run_now/`,
      {},
    );
    expect(run.turned_off).toBe(1);
    runId = run.results.find((r) => r.ad_id === noLeadsAd)!.run_id!;
  });
  afterAll(() => close?.());

  it('opens the folder’s ads from its row: which rule turned the ad off and when, Meta’s pause, the others on', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/');
    const folder = page.getByRole('listitem', { name: FOLDER });
    await folder.getByRole('link', { name: `Ads of ${FOLDER}` }).click();
    await page.waitForURL(`**/ads?folder_id=${folderId}`);
    await page.getByText(`Folder id ${folderId}`).waitFor();

    const off = adRow(noLeadsAd);
    await off.waitFor();
    expect(await off.textContent()).toMatch(TURNED_OFF);
    expect(await off.getByRole('link', { name: 'Open the run record' }).getAttribute('href')).toBe(
      `/edit-rule/${ruleId}?run=${runId}`,
    );
    // The run read $40+ with no lead: the rule window's numbers, beside today's.
    expect(await off.textContent()).toMatch(/\$\d+\.\d\d · 0 leads · CPL —/);
    const meta = await adRow(metaAd).textContent();
    expect(meta).toContain('Paused by Meta');
    expect(meta).toContain('Advertising Standards');
    // Off first: the rule's turn-off leads the list, then Meta's pause.
    expect(await page.locator('tbody tr').first().textContent()).toContain(`Ad ID ${noLeadsAd}`);
    expect(await page.locator('tbody td.column-status').allInnerTexts()).toContain('On');
    expect((await page.locator('thead th').allInnerTexts()).map((text) => text.trim())).toEqual([
      '',
      'Ad',
      'Campaign',
      'Client / Ad account',
      'Status',
      'Today',
      'Rule window',
    ]);

    expect(await checkBothWidths(page, 'ads-list', (p) => [p.getByLabel('Search')])).toEqual([]);
    // On a phone each ad is a card whose numbers say what they are.
    await docScreenshots(page, 'ads-list', () => page.locator('tbody').getByText('Rule window').first().waitFor());
    await page.setViewportSize(DESKTOP);
  });

  it('shows only the ads rules turned off, and turns them back on, exempt from the rule as Undo', async () => {
    await page.setViewportSize(DESKTOP);
    await page.getByRole('combobox', { name: 'Show' }).click();
    await page.getByRole('option', { name: 'Turned off by a rule' }).click();
    await page.waitForURL((url) => url.searchParams.get('reason') === 'rule');
    await expect.poll(() => page.locator('tbody tr').count(), { timeout: 10_000 }).toBe(1);
    await adRow(noLeadsAd).waitFor();

    await adRow(noLeadsAd).getByRole('checkbox').check();
    await page.getByText('1 ad selected').waitFor();
    await page.getByRole('button', { name: 'Turn back on' }).click();
    const confirm = page.getByRole('dialog', { name: 'Turn 1 ad back on?' });
    await confirm.getByText(/leaves it alone from now on/).waitFor();
    await confirm.getByRole('button', { name: 'Turn back on' }).click();
    await page.getByText('1 ad turned back on.').waitFor();

    // No longer turned off by a rule: the narrowed list empties; shown with all, it is on.
    await page.getByText('Nothing matches the search or the filters.').waitFor();
    expect(await simStatus(simulator, noLeadsAd)).toBe('ACTIVE');
    const preview = await api<{ exempt: string[] }>('GET', `rules/${ruleId}/preview/`);
    expect(preview.exempt).toEqual([noLeadsAd]);
    await page.getByRole('combobox', { name: 'Show' }).click();
    await page.getByRole('option', { name: 'On' }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'on');
    // Many ads are on: the search finds this one by its id.
    await page.getByLabel('Search').fill(noLeadsAd);
    await expect.poll(() => page.locator('tbody tr').count(), { timeout: 10_000 }).toBe(1);
    await expect
      .poll(async () => adRow(noLeadsAd).locator('td.column-status').innerText(), { timeout: 10_000 })
      .toBe('On');
  });

  it('links every run record to the ads it looked at', async () => {
    await page.goto(`/edit-rule/${ruleId}?run=${runId}`);
    await page.getByTestId(`run-detail-${runId}`).getByRole('link', { name: 'Ads this run looked at' }).click();
    await page.waitForURL(`**/ads?run_id=${runId}`);
    await page.getByText(`Looked at by run #${runId}`).waitFor();
    await adRow(noLeadsAd).waitFor();
    // The rule reads SS-W campaigns only, and so does this list.
    for (const text of await page.locator('tbody tr').allTextContents()) expect(text).toContain('SS-W');
  });

  it('shows in the campaigns list which rule turned a campaign off, and its ad off for that', async () => {
    const seat = await createNoLeadsRule(api, simulator, 'Harbor Seat Limit', {
      scenario: 'steady_converter',
      campaign: 'Scenario Steady Converter',
      spend: '100000',
    });
    await api('PATCH', `rule/${seat.ruleId}/`, {
      rule_task: [{ name: 'campaign_leads', values: { leads: '1' }, is_active: true }],
    });
    const run = await api<{ turned_off: number }>('POST', `rules/${seat.ruleId}/run_now/`, {});
    expect(run.turned_off).toBe(1);

    await page.setViewportSize(DESKTOP);
    await page.goto(`/campaigns?filter=${encodeURIComponent(JSON.stringify({ campaign_name: 'Scenario' }))}`);
    const campaign = page.getByRole('row').filter({ hasText: 'Scenario Steady Converter' });
    await campaign.waitFor();
    await page.getByRole('columnheader', { name: 'Status' }).waitFor();
    expect(await campaign.textContent()).toMatch(TURNED_OFF);
    expect(await page.locator('tbody td.column-state').allInnerTexts()).toContain('On');
    await page.getByRole('button', { name: 'Hide Filters' }).click();
    expect(await checkBothWidths(page, 'campaigns-status')).toEqual([]);
    // On a phone the state stays under the campaign's name, on its card.
    const name = page.getByRole('listitem').filter({ hasText: 'Scenario Steady Converter' });
    await expect.poll(() => name.textContent(), { timeout: 10_000 }).toMatch(TURNED_OFF);
    await docScreenshots(page, 'campaigns-status', () =>
      expect.poll(() => name.textContent(), { timeout: 10_000 }).toMatch(TURNED_OFF),
    );
    await page.setViewportSize(DESKTOP);

    await campaign.getByRole('link', { name: 'Ads of this campaign' }).click();
    await page.waitForURL(/\/ads\?campaign_id=\d+/);
    await page.getByText(/^Campaign: \d+$/).waitFor();
    const ad = page.getByRole('row').filter({ hasText: 'Scenario - Steady Converter' });
    await ad.waitFor();
    expect(await ad.textContent()).toContain('Its campaign is off');
    expect(await ad.textContent()).toMatch(/Campaign turned off by rule .+ at /);
    expect(await page.locator('tbody tr').count()).toBe(1);
  });
});
