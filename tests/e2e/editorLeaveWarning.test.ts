/**
 * The rule editor is one form, end to end on a fresh `npm start` (the built-in Graph simulator):
 * no error shows before anything is typed; a change to the judging settings (revive switched on)
 * is an unsaved change — pressing back asks 'Leave the page?' as for any other; and the one Save
 * stores the judging settings with the rest of the rule, then goes back to the general view.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled, signIn } from './support/browser';
import { type AdminApi, adminApi, createNoLeadsRule, openProductWithSimulator } from './support/engineScenario';
import { DESKTOP, PHONE } from './support/screenCheck';
import { ADMIN, ROOT } from './support/server';

interface StoredRule {
  name: string;
  rule_task: { name: string; values: Record<string, string>; is_active: boolean }[];
  judging: { maturity_hours: number; revive_hours: number | null; lag_hours: number | null; carried_over: boolean };
}

describe('the rule editor’s one Save and its unsaved-changes guard, in a real browser', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let api: AdminApi;
  let ruleId: number;

  beforeAll(async () => {
    const opened = await openProductWithSimulator();
    ({ page, close } = opened);
    api = await adminApi(opened.product.url);
    ({ ruleId } = await createNoLeadsRule(api, opened.simulator, 'Harbor One Save'));
  });
  afterAll(() => close?.());

  const reviveSwitch = () => page.getByRole('switch', { name: /^Revive: turn back on/ });
  const saveButton = () => page.getByRole('button', { name: 'Save', exact: true });

  /** The window at 1280 and at 390 px wide (the page scrolled to the judging card), kept for a person to look at. */
  async function screenshots(name: string, at: () => Promise<void>) {
    const dir = path.join(ROOT, 'test-results', 'screenshots');
    await mkdir(dir, { recursive: true });
    for (const [size, width] of [
      [DESKTOP, 1280],
      [PHONE, 390],
    ] as const) {
      await page.setViewportSize(size);
      await at();
      await settled(page);
      await page.screenshot({ path: path.join(dir, `${name}-${width}.png`) });
    }
    await page.setViewportSize(DESKTOP);
  }

  /** The judging card just under the editor's sticky header (on a phone, its first row). */
  const judgingInView = () =>
    page.evaluate(
      `window.scrollBy(0, [...document.querySelectorAll('h2')].find((h) => h.textContent === 'Judging late data').getBoundingClientRect().top
        - (function sticky(e) { return getComputedStyle(e).position === 'sticky' ? e : sticky(e.parentElement); })(
          document.querySelector('[aria-label="Back to the folders"]')).getBoundingClientRect().bottom - 16)`,
    ) as Promise<void>;

  it('shows no error before anything is typed, even with the lead-lag allowance switched on and empty', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    // Reached inside the app, so the browser's back button stays inside it.
    const folder = page.getByRole('listitem', { name: 'Harbor One Save' });
    await folder.getByRole('button', { name: 'Show the rules of Harbor One Save' }).click();
    await folder.getByRole('link', { name: 'New rule', exact: true }).click();
    await page.waitForURL(`**/edit-rule/${ruleId}`);
    await page.getByText('Judging late data').waitFor();
    expect(await saveButton().isDisabled()).toBe(true);
    await page.getByRole('switch', { name: /^Lead-lag allowance/ }).check();
    const allowance = page.getByRole('textbox', { name: 'Allowance', exact: true });
    await allowance.waitFor();
    expect(await page.getByText('Must be a number').count()).toBe(0);
    expect(await page.getByText('Field is required').count()).toBe(0);
    expect(await saveButton().isDisabled()).toBe(true);
    // Leaving the field empty is touching it: now it says what it needs.
    await allowance.focus();
    await allowance.blur();
    await page.getByText('Field is required').waitFor();
    await page.getByRole('switch', { name: /^Lead-lag allowance/ }).uncheck();
  });

  it('counts turning revive on as an unsaved change: back asks “Leave the page?”, Cancel stays', async () => {
    await reviveSwitch().check();
    expect(await saveButton().isEnabled()).toBe(true);
    await screenshots('editor-one-save', judgingInView);
    await page.getByRole('button', { name: 'Back to the folders' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave the page?' });
    await dialog.getByText("Changes you've made may not be saved.").waitFor();
    await screenshots('editor-one-save-leave', async () => undefined);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/edit-rule/${ruleId}`);
    expect(await reviveSwitch().isChecked()).toBe(true);

    // The browser's own back button is held too.
    await page.goBack();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/edit-rule/${ruleId}`);
  });

  it('saves the judging settings with the rest of the rule in one Save, then goes to the general view', async () => {
    expect(await page.getByRole('button', { name: 'Save judging settings' }).count()).toBe(0);
    await page.getByRole('textbox', { name: 'Hours delivering', exact: true }).fill('12');
    await page
      .getByRole('textbox', { name: 'Turn off the ad if spend is above a value and leads are 0: Spend' })
      .fill('45');
    await saveButton().click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText('Rule saved').waitFor();

    const stored = await api<StoredRule>('GET', `rule/${ruleId}/`);
    expect(stored.judging).toMatchObject({
      maturity_hours: 12,
      revive_hours: 72,
      lag_hours: null,
      carried_over: false,
    });
    expect(stored.rule_task.find((t) => t.name === 'spend_cpl_no_leads')?.values.spend).toBe('45');
    // One change, one log entry: the task and the judging settings together.
    const log = await api<{ results: { action: string; changes_text: string }[] }>('GET', `log/?rule_id_in=${ruleId}`);
    const saved = log.results.find((e) => e.changes_text.includes('Revive'))!;
    expect(saved.changes_text).toContain('Revive: off → 72 h');
    expect(saved.changes_text).toContain('Judge after: 24 h → 12 h');
    expect(saved.changes_text).toMatch(/spend is above a value and leads are 0: .*45/);

    // Opened again, nothing is unsaved: back leaves without asking.
    await page.goto(`/edit-rule/${ruleId}`);
    await reviveSwitch().waitFor();
    expect(await reviveSwitch().isChecked()).toBe(true);
    expect(await saveButton().isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Back to the folders' }).click();
    await page.waitForURL((url) => url.pathname === '/');
  });
});
