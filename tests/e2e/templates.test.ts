/**
 * Templates end to end on a fresh `npm start`: a template made in the browser (CPL over $50, on),
 * used by two folders, one of which overrides the threshold in its own editor; the template's edit
 * (CPL over $40) previewed across both folders — one changes, the other keeps its own — and saved;
 * the folders' rules read back. Axe finds nothing on the template screen and the preview at either
 * width; screenshots at 1280 and 390 px (test-results/screenshots/template-*.png).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled, signIn } from './support/browser';
import { adminApi, openProductWithSimulator, type AdminApi } from './support/engineScenario';
import { axeViolations, DESKTOP, pageOverflow, PHONE, windowScreenshot } from './support/screenCheck';
import { ADMIN } from './support/server';

interface RuleAnswer {
  id: number;
  rule_task: { name: string; values: { cpl?: string }; is_active: boolean }[];
  template: { id: number; overrides: string[] } | null;
}
/** Saves, previews and the server's answers take their time on a shared machine. */
const WAIT = { timeout: 20_000 };
const CPL_TASK = 'Turn off the ad if CPL is above a value';
const cplOf = (rule: RuleAnswer) => rule.rule_task.find((t) => t.name === 'trigger_cpl')!.values.cpl;

describe('a template through two folders to an edit’s preview and save, in a real browser', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let api: AdminApi;
  const folders: { id: number; name: string }[] = [];
  let templateId: number;

  /** Axe and sideways scrolling at both widths, a screenshot of each; back at the desktop's size. */
  const bothWidths = async (name: string) => {
    for (const [size, width] of [
      [PHONE, 390],
      [DESKTOP, 1280],
    ] as const) {
      await page.setViewportSize(size);
      await settled(page);
      expect(await pageOverflow(page), `${name} at ${width} px scrolls sideways`).toBe(0);
      expect(await axeViolations(page), `${name} at ${width} px`).toEqual([]);
      await windowScreenshot(page, `${name}-${width}`);
    }
  };

  beforeAll(async () => {
    const opened = await openProductWithSimulator();
    close = opened.close;
    // axe-core is injected as a script: the app's Content-Security-Policy would refuse it.
    const context = await opened.browser.newContext({
      baseURL: opened.product.url,
      viewport: DESKTOP,
      bypassCSP: true,
    });
    page = await context.newPage();
    api = await adminApi(opened.product.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    const accounts = await api<{ results: { ad_account_id: string }[] }>('GET', 'meta_ad_account/?limit=2');
    for (const [index, name] of ['Alpha Advisers', 'Bravo Wealth'].entries()) {
      const folder = await api<{ id: number; name: string }>('POST', 'general_page/', {
        client_type: 'EDM',
        plan: 'solo',
        meta_ad_account_id: accounts.results[index % accounts.results.length]!.ad_account_id,
        name,
        extension: { external_credentials: { demio: null } },
      });
      folders.push(folder);
    }
  }, 180_000);
  afterAll(async () => {
    await close?.();
  });

  it('makes a template in the browser and switches its CPL task on', async () => {
    await page.goto('/templates');
    await page.getByRole('link', { name: 'Add template' }).click();
    await page.getByLabel('Name').fill('CPL guard');
    await page.getByRole('button', { name: 'Add template' }).click();
    await page.waitForURL(/\/templates\/\d+$/);
    templateId = Number(page.url().split('/').pop());
    await page.getByRole('switch', { name: `Turn on: ${CPL_TASK}` }).check();
    await page.getByRole('textbox', { name: `${CPL_TASK}: CPL` }).fill('50');
    await page.getByRole('switch', { name: 'Active in folders that follow it' }).check();
    await page.getByRole('button', { name: 'Preview and save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Preview of this edit' });
    await expect.poll(() => dialog.getByText(/of 0 that follow it/).isVisible(), { timeout: 30_000 }).toBe(true);
    await dialog.getByRole('button', { name: /Save for 0 folders/ }).click();
    await expect
      .poll(() => page.getByText('Template saved for every folder that follows it').isVisible(), WAIT)
      .toBe(true);
  });

  it('two folders use it; one overrides the threshold in its own editor', async () => {
    for (const folder of folders) {
      await page.getByRole('combobox', { name: 'Use in folder' }).click();
      await page.getByRole('option', { name: folder.name }).click();
      await page.getByRole('button', { name: 'Use', exact: true }).click();
      await expect.poll(() => page.getByText(`${folder.name} now follows this template`).isVisible(), WAIT).toBe(true);
    }
    const rules = await api<{ folders: { folder: { name: string }; rule: { id: number } }[] }>(
      'GET',
      `templates/${templateId}/`,
    );
    const bravoRule = rules.folders.find((f) => f.folder.name === 'Bravo Wealth')!.rule.id;
    await page.goto(`/edit-rule/${bravoRule}`);
    const panel = page.getByRole('region', { name: 'Template' });
    await expect.poll(() => panel.getByText('It inherits every field.').isVisible(), WAIT).toBe(true);
    await page.getByRole('textbox', { name: `${CPL_TASK}: CPL` }).fill('80');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const bravo = await api<RuleAnswer>('GET', `rule/${bravoRule}/`);
    expect(bravo.template?.overrides).toEqual(['task:trigger_cpl']);
    await page.goto(`/edit-rule/${bravoRule}`);
    await expect.poll(() => panel.getByText('This folder overrides 1 field.').isVisible(), WAIT).toBe(true);
    await bothWidths('template-rule-panel');
  });

  it('previews an edit across both folders and saves it: the overriding folder keeps its own', async () => {
    await page.goto(`/templates/${templateId}`);
    const followers = page.getByRole('table', { name: 'Folders that follow it' });
    await expect.poll(() => followers.getByText('Bravo Wealth').isVisible(), WAIT).toBe(true);
    await expect.poll(() => followers.getByText(CPL_TASK).isVisible(), WAIT).toBe(true);
    await bothWidths('template-screen');

    await page.getByRole('textbox', { name: `${CPL_TASK}: CPL` }).fill('40');
    await page.getByRole('button', { name: 'Preview and save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Preview of this edit' });
    await expect
      .poll(() => dialog.getByText('Changes 1 rule in 1 folder, of 2 that follow it.').isVisible(), { timeout: 30_000 })
      .toBe(true);
    await expect.poll(() => dialog.getByText(/keeps its own/).isVisible(), WAIT).toBe(true);
    await expect.poll(() => dialog.getByRole('table', { name: 'What they would have done' }).isVisible()).toBe(true);
    await bothWidths('template-preview');

    await dialog.getByRole('button', { name: 'Save for 1 folder' }).click();
    await expect
      .poll(() => page.getByText('Template saved for every folder that follows it').isVisible(), WAIT)
      .toBe(true);
    const template = await api<{ folders: { folder: { name: string }; rule: { id: number } }[] }>(
      'GET',
      `templates/${templateId}/`,
    );
    const byName = Object.fromEntries(template.folders.map((f) => [f.folder.name, f.rule.id]));
    expect(cplOf(await api<RuleAnswer>('GET', `rule/${byName['Alpha Advisers']}/`))).toBe('40');
    expect(cplOf(await api<RuleAnswer>('GET', `rule/${byName['Bravo Wealth']}/`))).toBe('80');
  });
});
