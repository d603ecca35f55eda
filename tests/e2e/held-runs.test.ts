/**
 * End to end on a fresh `npm start` (the built-in Graph simulator, frozen clock) with a blast
 * radius of 1% of an account's delivering ads: a rule is previewed, switched to notify only and
 * run (nothing changes, Activity says what it would turn off), switched back and run again (the
 * run is held), then approved in Activity, which turns the ads off; the rule editor's Runs panel
 * shows both runs and opens the held one from Activity's link.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, settled, signIn } from './support/browser';
import { adminApi, createNoLeadsRule, openProductWithSimulator, simStatus, simWrites } from './support/engineScenario';
import { DESKTOP, PHONE } from './support/screenCheck';
import { ADMIN, ROOT } from './support/server';

/** What a 1280 px wide window shows (no full-page stitching, which repeats the sticky editor header). */
async function windowShot(page: Page, name: string) {
  const dir = path.join(ROOT, 'test-results', 'screenshots');
  await mkdir(dir, { recursive: true });
  await settled(page);
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

describe('Notify only and held runs in a real browser', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let simulator: string;
  let ruleId: number;
  let noLeadsAd: string;

  /** Run now from the editor: its confirmation (what Preview says the run will do) is checked before it runs. */
  const runNowFromEditor = async (confirmation: (dialog: Locator) => Promise<void> = async () => undefined) => {
    await page.getByRole('button', { name: /^Run now: / }).click();
    const dialog = page.getByRole('dialog', { name: /now\?$/ });
    await dialog.getByTestId('run-plan').waitFor({ timeout: 60_000 });
    await confirmation(dialog);
    await dialog.getByRole('button', { name: 'Run now' }).click();
    return page.getByRole('dialog', { name: /^Ran / });
  };

  /** The open dialog at 1280 and at 390 px wide, kept for a person to look at. */
  async function dialogShots(name: string) {
    const dir = path.join(ROOT, 'test-results', 'screenshots');
    await mkdir(dir, { recursive: true });
    for (const [size, width] of [
      [DESKTOP, 1280],
      [PHONE, 390],
    ] as const) {
      await page.setViewportSize(size);
      await settled(page); // the dialog at the new width
      await page.screenshot({ path: path.join(dir, `${name}-${width}.png`) });
    }
    await page.setViewportSize(DESKTOP);
  }

  beforeAll(async () => {
    const opened = await openProductWithSimulator({
      // Any turn-off in an account of fewer than 100 delivering ads crosses this: every real run is held.
      ENGINE_MAX_SHARE: '0.01',
    });
    ({ page, close, simulator } = opened);
    const api = await adminApi(opened.product.url);
    ({ ruleId, noLeadsAd } = await createNoLeadsRule(api, simulator, 'Harbor Held Runs'));
  });
  afterAll(() => close?.());

  it('previews what the rule would turn off', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`/edit-rule/${ruleId}`);
    await page.getByRole('button', { name: /^Preview what .* would turn off$/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('cell', { name: noLeadsAd }).waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await simStatus(simulator, noLeadsAd)).toBe('ACTIVE');
  });

  it('switched to notify only, Run now changes nothing and Activity says what it would turn off', async () => {
    await page.getByRole('switch', { name: 'Notify only' }).check();
    await page.getByText('Notify only: the rule turns nothing off from now on.').waitFor();
    const ran = await runNowFromEditor(async (confirm) => {
      expect(await confirm.getByTestId('run-plan').textContent()).toMatch(/^Turn off \d+ ads?/);
      await confirm.getByText(/The rule is notify only: the run turns nothing off/).waitFor();
    });
    await ran.getByText(/The rule is notify only: nothing was turned off/).waitFor({ timeout: 30_000 });
    expect(await simStatus(simulator, noLeadsAd)).toBe('ACTIVE');
    expect(await simWrites(simulator)).toEqual([]);
    await ran.getByRole('link', { name: 'Open Activity' }).click();
    await page.waitForURL(`**/activity?rule_id=${ruleId}`);
    const row = page.getByRole('row').filter({ hasText: noLeadsAd });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Would turn off ad.*Notify only/);

    // The general view marks the rule as notify only.
    await page.goto('/');
    const folder = page.getByRole('listitem', { name: 'Harbor Held Runs' });
    await folder.getByRole('button', { name: 'Show the rules of Harbor Held Runs' }).click();
    await folder.getByTestId(`rule-${ruleId}`).getByText('Notify only').waitFor();
  });

  it('switched back, Run now is held: nothing changes and Activity offers Approve', async () => {
    await page.goto(`/edit-rule/${ruleId}`);
    const toggle = page.getByRole('switch', { name: 'Notify only' });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await page.getByText('The rule turns ads and campaigns off again.').waitFor();
    const ran = await runNowFromEditor(async (confirm) => {
      // Before it runs, the confirmation says how many it would turn off, by name, and that it will be held.
      const plan = confirm.getByTestId('run-plan');
      expect(await plan.textContent()).toMatch(/^Turn off \d+ ads?\d+ of \d+ delivering ads in /);
      await plan.getByText(noLeadsAd, { exact: false }).first().waitFor();
      await plan
        .getByText(
          /^Over the blast-radius limit: the run will be held for approval and change nothing until someone approves it\. It would turn off \d+ of \d+ delivering ads/,
        )
        .waitFor();
      await dialogShots('run-now-confirm');
    });
    await ran.getByText(/the run is held for approval/).waitFor({ timeout: 30_000 });
    expect(await simStatus(simulator, noLeadsAd)).toBe('ACTIVE');
    expect(await simWrites(simulator)).toEqual([]);

    await page.goto(`/activity?rule_id=${ruleId}`);
    const held = page.getByRole('row').filter({ hasText: 'Run held for approval' });
    await held.waitFor();
    expect(await held.textContent()).toMatch(/would turn off \d+ of \d+ delivering ads.*waiting for approval/);
    await held.getByRole('button', { name: /^Approve the held changes of run \d+$/ }).waitFor();
    await screenshot(page, 'held-run-activity');
  });

  it('Approve in Activity turns the ads off and the row says who approved', async () => {
    const held = page.getByRole('row').filter({ hasText: 'Run held for approval' });
    await held.getByRole('button', { name: /^Approve the held changes/ }).click();
    const confirm = page.getByRole('dialog', { name: 'Carry out the held changes?' });
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(/^Approved: \d+ turned off$/).waitFor({ timeout: 30_000 });
    expect(await simStatus(simulator, noLeadsAd)).toBe('PAUSED');
    const approved = page.getByRole('row').filter({ hasText: 'Held run, approved' });
    await approved.getByText(/^Approved by /).waitFor();
    expect(await approved.textContent()).not.toMatch(/waiting for approval/);
    expect(await approved.getByRole('button', { name: /^Approve the held/ }).count()).toBe(0);
    // The approval's turn-off is a real "turn off ad" entry, beside the notify-only run's "Would turn off ad".
    const rows = page.getByRole('row').filter({ hasText: noLeadsAd });
    await rows.filter({ has: page.getByText('turn off ad', { exact: true }) }).waitFor();
    expect(await rows.filter({ has: page.getByText('Would turn off ad', { exact: true }) }).count()).toBe(1);
    await screenshot(page, 'held-run-approved-activity');
  });

  it('the held row links to its run in the rule editor, opened, with every ad and each task’s verdict', async () => {
    const held = page.getByRole('row').filter({ hasText: 'Held run, approved' });
    await held.getByRole('link', { name: /^Open run \d+ in the rule editor$/ }).click();
    await page.waitForURL(new RegExp(`/edit-rule/${ruleId}\\?run=\\d+$`));
    const runs = page.getByRole('table', { name: 'Runs' });
    await runs.waitFor();
    const runId = new URL(page.url()).searchParams.get('run')!;
    const detail = page.getByTestId(`run-detail-${runId}`);
    await detail.getByText(/^Approved by /).waitFor();
    const object = detail.getByTestId(`run-object-${noLeadsAd}`);
    expect(await object.textContent()).toMatch(
      /Spend: \$\d+\.\d\d · Leads: 0.*Held, then approved: turned off — Turn off the ad if spend is above a value and leads are 0/,
    );
    // Newest first: the approval, the held run, the notify-only run.
    const outcomes = await runs.locator('tbody > tr:has(button[aria-expanded]) .MuiChip-label').allTextContents();
    // The held run reads as what became of it: approved, not "Held".
    expect(outcomes.slice(0, 3)).toEqual(['Done', 'Approved', 'Notify only']);
    expect(await runs.getByRole('row').filter({ hasText: 'Approval' }).count()).toBe(1);
    // The Runs heading just under the editor's sticky header (a string: this file is typed without the DOM).
    await page.evaluate(
      "window.scrollBy(0, [...document.querySelectorAll('h2')].find((h) => h.textContent === 'Runs').getBoundingClientRect().top - 150)",
    );
    await windowShot(page, 'runs-panel-held-run');
  });
});
