/**
 * End to end on a fresh `npm start` with no Meta token: the in-process Graph API simulator
 * feeds the campaign sync; the admin opens /campaigns, filters by topic and spend range (the view
 * survives a reload, since it lives in the address) and refreshes one campaign after simulated
 * time has passed, seeing the row's spinner, the snackbar and the new spend.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signIn } from './support/browser';
import { openProduct } from './support/product';
import { ADMIN, freePort } from './support/server';

/** As much of a table row as `rows()` reads in the page (this file is type-checked without the DOM). */
interface TableRow {
  querySelectorAll(selector: 'td'): Iterable<{ textContent: string | null }>;
}

const money = (text: string | null | undefined) => Number((text ?? '').replace(/[$,]/g, ''));

describe('Campaigns screen on the simulator', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let simulator: string;

  const sim = async (path: string, body: unknown) => {
    const response = await fetch(`${simulator}/__sim/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
  };
  /** The text of each cell of the data rows, by column header (read in the page, in one go). */
  const rows = async () =>
    page
      .locator('tbody tr')
      .evaluateAll((trs: TableRow[]) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
      );
  // Campaign ID, Campaign Name, Status, Ad Account, Topic …
  const TOPIC = 4;
  const SPEND = 8;
  const NAME = 1;

  beforeAll(async () => {
    const simulatorPort = await freePort();
    simulator = `http://127.0.0.1:${simulatorPort}`;
    // A frozen simulated clock: numbers move only when the test moves time.
    ({ page, close } = await openProduct({ SIMULATOR_PORT: String(simulatorPort), SIMULATOR_SPEED: '0' }));
  });
  afterAll(() => close?.());

  it('lists the campaigns synced from the simulator', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto('/campaigns');
    await page.getByRole('columnheader', { name: 'Source Campaign Name' }).waitFor();
    await page.locator('tbody tr').first().waitFor();
    expect(await rows()).toHaveLength(10);
    await expect(page.getByText(/^1-10 of \d+$/).textContent()).resolves.toMatch(/of (5\d|6\d)$/);
    await screenshot(page, 'campaigns');
  });

  it('filters by topic and spend range, and keeps the view in the address', async () => {
    await page.getByRole('button', { name: 'Show Filters' }).click();
    const filters = page.getByRole('region', { name: 'Filters' });
    await filters.getByLabel('Topic').click();
    await page.getByRole('option', { name: 'EP — Estate Planning' }).click();
    await page.keyboard.press('Escape');
    await filters.getByLabel('Min Spend').fill('100');
    await filters.getByLabel('Max Spend').fill('2000');
    await page.waitForURL((url) => decodeURIComponent(url.search).includes('"spend_range_max":"2000"'));

    // The list reloads once the filters apply; then every row is an EP campaign within the range.
    const matches = (cells: string[]) =>
      cells[TOPIC] === 'EP' && money(cells[SPEND]) >= 100 && money(cells[SPEND]) <= 2000;
    await expect
      .poll(
        async () => {
          const r = await rows();
          return r.length > 0 && r.every(matches);
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const filtered = await rows();
    expect(await page.getByText(/^1-\d+ of \d+$/).textContent()).toBe(`1-${filtered.length} of ${filtered.length}`);
    await screenshot(page, 'campaigns-filtered');

    await page.reload();
    await page.locator('tbody tr').first().waitFor();
    expect(await rows()).toEqual(filtered);
    await expect(page.getByRole('region', { name: 'Filters' }).getByLabel('Min Spend').inputValue()).resolves.toBe(
      '100',
    );
  });

  it('refreshes one campaign: a spinner on its row, the snackbar, the new spend', async () => {
    // The scenario seminar (EP-S) delivers $6 an hour until its event next week; the simulator
    // reports the day in progress at 90 % (docs/simulator.md), so the row shows what it reports.
    const scenarios = (await (await fetch(`${simulator}/__sim/scenarios`)).json()) as Record<
      string,
      { campaignId: string }
    >;
    const reportedSpend = async () => {
      const object = await fetch(`${simulator}/__sim/objects/${scenarios.seminar_fills!.campaignId}`);
      return Number(((await object.json()) as { lifetime: { spend: string } }).lifetime.spend);
    };
    const seminar = (await rows()).find((cells) => cells[NAME]!.includes('Scenario Seminar Fills'));
    expect(seminar).toBeDefined();
    const name = seminar![NAME]!;
    const spendBefore = money(seminar![SPEND]);
    const row = page.locator('tbody tr', { hasText: name });

    await sim('clock', { advance_hours: 3 });
    // Answers slowly once, so the row's spinner can be seen.
    await sim('faults', { kind: 'slow', ms: 1500, count: 1, match: { path: 'insights' } });
    await row.getByRole('button', { name: 'Refresh campaign' }).click();
    await row.getByRole('progressbar').waitFor();
    expect(await page.locator('tbody tr').getByRole('progressbar').count()).toBe(1);
    await page.getByText('Campaign updated successfully', { exact: true }).waitFor();
    await row.getByRole('progressbar').waitFor({ state: 'detached' });

    await expect
      .poll(async () => money((await rows()).find((cells) => cells[NAME] === name)?.[SPEND] ?? null), {
        timeout: 10_000,
      })
      .toBeCloseTo(await reportedSpend(), 2);
    expect(money((await rows()).find((cells) => cells[NAME] === name)?.[SPEND])).toBeGreaterThan(spendBefore + 15);
    await screenshot(page, 'campaigns-refreshed');
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByText('Campaign updated successfully', { exact: true }).waitFor({ state: 'detached' });
  });
});
