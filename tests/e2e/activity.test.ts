/**
 * End to end on a fresh `npm start` (the built-in Graph simulator, frozen clock): a rule
 * is previewed from its editor (nothing changes), run now from the preview, and its Activity shows
 * what it turned off and why; the Activity chips follow the address; an Undo turns the ad back on
 * in the simulator and exempts it from the rule.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, settled, signIn } from './support/browser';
import {
  type AdminApi,
  adminApi,
  createNoLeadsRule,
  openProductWithSimulator,
  simStatus,
  simWrites,
} from './support/engineScenario';
import { DESKTOP, PHONE } from './support/screenCheck';
import { ADMIN, ROOT } from './support/server';

describe('Activity, Preview and Undo in a real browser', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let simulator: string;
  let api: AdminApi;
  let ruleId: number;
  let folderId: number;
  let noLeadsAd: string;

  beforeAll(async () => {
    const opened = await openProductWithSimulator();
    ({ page, close, simulator } = opened);
    api = await adminApi(opened.product.url);
    ({ folderId, ruleId, noLeadsAd } = await createNoLeadsRule(api, simulator, 'Harbor Activity Test'));
  });
  afterAll(() => close?.());

  /** The undo dialog at 1280 and at 390 px wide, kept for a person to look at. */
  async function undoDialogShots() {
    const dir = path.join(ROOT, 'test-results', 'screenshots');
    await mkdir(dir, { recursive: true });
    for (const [size, width] of [
      [DESKTOP, 1280],
      [PHONE, 390],
    ] as const) {
      await page.setViewportSize(size);
      await settled(page); // the dialog at the new width
      await page.screenshot({ path: path.join(dir, `undo-dialog-${width}.png`) });
    }
    await page.setViewportSize(DESKTOP);
  }

  it('previews from the rule editor what the rule would turn off and why, changing nothing', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`/edit-rule/${ruleId}`);
    await page.getByRole('button', { name: /^Preview what .* would turn off$/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('cell', { name: noLeadsAd }).waitFor({ timeout: 30_000 });
    const row = dialog.getByRole('row').filter({ hasText: noLeadsAd });
    expect(await row.textContent()).toMatch(
      /turn off ad.*Turn off the ad if spend is above a value and leads are 0.*Spend:\$\d+\.\d\d > \$40\.00.*Leads:0/,
    );
    await screenshot(page, 'activity-preview');
    expect(await simStatus(simulator, noLeadsAd)).toBe('ACTIVE');
    expect(await simWrites(simulator)).toEqual([]);
  });

  it('runs now from the preview and shows why in the Activity, with its rule chip', async () => {
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Run now' }).click();
    await dialog.getByText(/^\d+ turned off$/).waitFor({ timeout: 30_000 });
    expect(await simStatus(simulator, noLeadsAd)).toBe('PAUSED');
    await dialog.getByRole('link', { name: 'Open Activity' }).click();
    await page.waitForURL(`**/activity?rule_id=${ruleId}`);

    await page.getByText(`Rule id: ${ruleId}`).waitFor();
    const row = page.getByRole('row').filter({ hasText: noLeadsAd });
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain('turn off ad'); // underscores shown as spaces
    expect(text).toContain('Harbor Activity Test');
    expect(text).toMatch(/Spend:\$\d+\.\d\d > \$40\.00/);
    expect(text).toContain('Leads:0');
    expect(text).toContain('Run:Run now by');
    for (const header of ['Date', 'Client / Ad account', 'Action', 'Rule', 'Ad ID', 'Info']) {
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    await screenshot(page, 'activity');
  });

  it('takes chips for rule, folder and ad from the address, and removing one edits the address', async () => {
    await page.goto(`/activity?folder_id=${folderId}&ad_id=${noLeadsAd}&ad_id=999`);
    await page.getByText(`Folder id ${folderId}`).waitFor();
    await page.getByText(`Ad id: ${noLeadsAd}`).waitFor();
    await page.getByText('Ad id: 999').waitFor();
    await page.getByRole('row').filter({ hasText: noLeadsAd }).waitFor();

    await page.locator('.MuiChip-root', { hasText: 'Ad id: 999' }).locator('.MuiChip-deleteIcon').click();
    await page.waitForURL((url) => url.search === `?folder_id=${folderId}&ad_id=${noLeadsAd}`);
    await page
      .locator('.MuiChip-root', { hasText: `Folder id ${folderId}` })
      .locator('.MuiChip-deleteIcon')
      .click();
    await page.waitForURL((url) => url.search === `?ad_id=${noLeadsAd}`);
    await page.getByText(`Folder id ${folderId}`).waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: noLeadsAd }).waitFor();
  });

  it('undoes the turn-off: the ad runs again in the simulator and the rule leaves it alone', async () => {
    const adName = ((await (await fetch(`${simulator}/__sim/objects/${noLeadsAd}`)).json()) as { name: string }).name;
    await page.goto(`/activity?rule_id=${ruleId}&ad_id=${noLeadsAd}`);
    // The Ad ID column names the ad beside its id.
    const row = page.getByRole('row').filter({ hasText: 'turn off ad' });
    expect(await row.textContent()).toContain(`${noLeadsAd}${adName}`);
    await page.getByRole('button', { name: `Undo: turn “${adName}” back on` }).click();
    // The ad by its name, its id beside it, the rule and the rule's folder.
    const confirm = page.getByRole('dialog', { name: `Turn “${adName}” back on?` });
    await confirm.getByText(`The ad “${adName}” (${noLeadsAd}) is turned back on`, { exact: false }).waitFor();
    await confirm.getByText(/of Harbor Activity Test leaves it alone from now on/).waitFor();
    await screenshot(page, 'activity-undo-confirm');
    await undoDialogShots();
    await confirm.getByRole('button', { name: 'Turn back on' }).click();
    await page.getByText('Turned back on. The rule leaves it alone until the exemption is removed.').waitFor();

    await page.getByRole('row').filter({ hasText: 'turn on ad' }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'turn off ad' }).getByText('undone').count()).toBe(1);
    expect(await page.getByRole('button', { name: `Undo: turn “${adName}” back on` }).count()).toBe(0);
    expect(await simStatus(simulator, noLeadsAd)).toBe('ACTIVE');
    const preview = await api<{ results: { ad_id: string }[]; exempt: string[] }>('GET', `rules/${ruleId}/preview/`);
    expect(preview.exempt).toEqual([noLeadsAd]);
    expect(preview.results.map((r) => r.ad_id)).not.toContain(noLeadsAd);
    await screenshot(page, 'activity-after-undo');
  });

  it('offers Preview and Run now on the rule’s row in the general view too', async () => {
    await page.goto('/');
    const folder = page.getByRole('listitem', { name: 'Harbor Activity Test' });
    await folder.getByRole('button', { name: 'Show the rules of Harbor Activity Test' }).click();
    await folder.getByRole('button', { name: /^Preview what .* would turn off$/ }).click();
    const dialog = page.getByRole('dialog');
    // The undone ad is exempt now: the preview says it is left alone.
    await dialog
      .getByText(`Left alone because a user undid the rule’s turn-off: ${noLeadsAd}`)
      .waitFor({ timeout: 30_000 });
    await screenshot(page, 'activity-general-view-preview');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await folder.getByRole('button', { name: /^Run now: / }).waitFor();
  });
});
