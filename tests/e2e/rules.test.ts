/**
 * End to end on a fresh `npm start` (ad accounts from the built-in Graph simulator): the
 * admin creates a folder, opens its first rule, edits tasks and the schedule, saves, sees the rule
 * in the tree and in the log, trashes and restores it, and meets the unsaved-changes dialog.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillCreateFolder, screenshot, signIn } from './support/browser';
import { openProduct } from './support/product';
import { ADMIN } from './support/server';

describe('folders and rules in a real browser', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let ruleUrl = '';

  beforeAll(async () => {
    ({ page, close } = await openProduct());
  });
  afterAll(() => close?.());

  const folderRow = () => page.getByRole('listitem', { name: 'Harbor Test Wealth' });

  it('creates a folder, which starts with one rule', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'Create Folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Folder' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    expect(await dialog.getByText('This field is required').count()).toBe(4);

    await fillCreateFolder(page, { type: 'EDM', plan: 'Quick Start', name: 'Harbor Test Wealth' });

    await folderRow().getByText('1 rule, 0 active').waitFor();
    await folderRow().getByText('New rule').waitFor();
  });

  it('edits the rule: tasks, filters, schedule; the name follows; save goes back to the tree', async () => {
    await folderRow().getByRole('link', { name: 'New rule', exact: true }).click();
    await page.waitForURL('**/edit-rule/*');
    ruleUrl = new URL(page.url()).pathname;
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);

    await page.getByRole('switch', { name: 'Turn on: Turn off the ad if website CPL is above a value' }).check();
    await page.getByRole('textbox', { name: 'Turn off the ad if website CPL is above a value: CPL' }).fill('40');
    await page.getByRole('combobox', { name: 'Campaign name contains' }).click();
    await page.getByRole('option', { name: 'EP-W' }).click();
    await page.keyboard.press('Escape');
    await page
      .getByRole('textbox', { name: 'Turn off the ad if spend exceeds a value and link clicks are 0: Spend' })
      .fill('25');
    expect(
      await page
        .getByRole('textbox', {
          name: 'Turn off the ad if spend exceeds a value and CPC is above a value and leads are 0: Spend',
        })
        .inputValue(),
    ).toBe('25');
    await page.getByRole('button', { name: 'Monday 3 AM', exact: true }).click();
    await page.getByRole('button', { name: 'Alert at 9 AM' }).click();
    expect(await page.getByRole('textbox', { name: 'Rule name' }).inputValue()).toBe('EP-W: Pause ad CPL > $40');
    await screenshot(page, 'rules-editor');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText('Rule saved').waitFor();
    await folderRow().getByRole('link', { name: 'EP-W: Pause ad CPL > $40', exact: true }).waitFor();
    await screenshot(page, 'rules-general-view');
  });

  it('shows the change in the log', async () => {
    await page.goto(`/log?rule_id=${ruleUrl.split('/').pop()}`);
    const entry = page.getByRole('row').filter({ hasText: 'Rule updated' });
    await entry.waitFor();
    const text = await entry.textContent();
    expect(text).toContain('Name: New rule → EP-W: Pause ad CPL > $40');
    expect(text).toContain('Schedule: added Mon 3 AM');
    expect(text).toContain('Alert schedule: 7 AM → 7 AM, 9 AM');
    await screenshot(page, 'rules-log');
  });

  it('keeps the saved values when the rule is opened again', async () => {
    await page.goto(ruleUrl);
    await page.getByRole('textbox', { name: 'Rule name' }).waitFor();
    expect(
      await page.getByRole('textbox', { name: 'Turn off the ad if website CPL is above a value: CPL' }).inputValue(),
    ).toBe('40');
    expect(await page.getByRole('button', { name: 'Monday 3 AM', exact: true }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it("asks 'Leave the page?' when leaving with unsaved changes, and warns before a reload", async () => {
    // Reach the editor inside the app, so the browser's back button stays inside it too.
    await page.getByRole('button', { name: 'Back to the folders' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await folderRow().getByRole('button', { name: 'Show the rules of Harbor Test Wealth' }).click();
    await folderRow().getByRole('link', { name: 'EP-W: Pause ad CPL > $40', exact: true }).click();
    await page.waitForURL(`**${ruleUrl}`);

    await page.getByRole('button', { name: 'Friday 4 PM', exact: true }).click();
    await page.getByRole('button', { name: 'Back to the folders' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave the page?' });
    await dialog.getByText("Changes you've made may not be saved.").waitFor();
    await screenshot(page, 'rules-leave-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(ruleUrl);

    // The browser's own back button is held too.
    await page.goBack();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(ruleUrl);

    const unload = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.type());
        void d.accept();
      }),
    );
    await page.reload();
    expect(await unload).toBe('beforeunload');
    await page.getByRole('textbox', { name: 'Rule name' }).waitFor();

    await page.getByRole('button', { name: 'Friday 4 PM', exact: true }).click();
    await page.getByRole('button', { name: 'Back to the folders' }).click();
    await page.getByRole('dialog', { name: 'Leave the page?' }).getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('trashes the rule and restores it from the trash', async () => {
    // The page was reloaded above: folders start closed again.
    await folderRow().getByRole('button', { name: 'Show the rules of Harbor Test Wealth' }).click();
    await folderRow().getByRole('button', { name: 'Move EP-W: Pause ad CPL > $40 to the trash' }).click();
    await folderRow().getByText('0 rules, 0 active').waitFor();

    await page.getByRole('link', { name: 'Trash' }).click();
    await page.waitForURL('**/trash/');
    const trashed = page.getByRole('listitem', { name: 'Harbor Test Wealth' });
    await trashed.getByText('EP-W: Pause ad CPL > $40').waitFor();
    await screenshot(page, 'rules-trash');
    await trashed.getByRole('button', { name: 'Restore EP-W: Pause ad CPL > $40' }).click();
    await page.getByText('The trash is empty.').waitFor();

    await page.getByRole('button', { name: 'Back to the folders' }).click();
    await folderRow().getByText('1 rule, 0 active').waitFor();
    await folderRow().getByRole('link', { name: 'EP-W: Pause ad CPL > $40', exact: true }).waitFor();
  });
});
