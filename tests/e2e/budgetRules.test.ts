/**
 * Budget rules end to end on a fresh `npm start` (the built-in Graph simulator, its clock stopped):
 * a rule made in the editor — its campaign filter on one of the simulator's campaigns whose ad set
 * holds a daily budget, conditions "CPL (lifetime) < $X" and "Leads (lifetime) ≥ 10", the action
 * "Raise budget by 20% on ad sets" — is saved; Preview shows the money line and the planned change;
 * the folder's daily increase limit, set in the folder dialog under what the raise adds, holds Run
 * now with its money; Approve in the Runs panel raises the ad set's budget on the simulator, and the
 * run records and Activity show the change (before → after) and each condition's value. Screenshots
 * at 1280 and 390 px: test-results/screenshots/budget-*.png.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled, signIn } from './support/browser';
import { adminApi, openProductWithSimulator, type AdminApi } from './support/engineScenario';
import { DESKTOP, pageOverflow, PHONE } from './support/screenCheck';
import { ADMIN, ROOT } from './support/server';

/** An ad set as the simulator's Graph API lists it (the fields this test asks for). */
interface SimAdSet {
  id: string;
  name: string;
  daily_budget?: string;
  campaign: { name: string };
  learning_stage_info?: { status: string };
}

/** The ad set the rule raises, and what the test knows of it before the run. */
interface Target {
  accountId: string;
  campaignName: string;
  adSetId: string;
  adSetName: string;
  budgetCents: number;
  cpl: number;
  leads: number;
}

const money = (dollars: number) =>
  `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Both conditions as judged on the ad set, each marked as holding: "✓ CPL (lifetime) $30.01 < $41.00". */
const bothHold = (threshold: number) =>
  new RegExp(
    `✓ CPL \\(lifetime\\) \\$[\\d.]+ < \\${money(threshold)}(?! ✓).*✓ Leads \\(lifetime\\) [\\d,]+ ≥ 10(?! ✓)`,
  );

describe('a budget rule in a real browser: made in the editor, previewed, held by the daily limit, approved', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let api: AdminApi;
  let simulator: string;
  let target: Target;
  let folder: { id: number; name: string; ruleId: number };
  /** The line a lead must cost under, a little above the ad set's lifetime CPL. */
  let threshold: number;
  let raisedCents: number;
  let heldRunId: number;

  /** The simulator's Graph API, as the product's client calls it. */
  const graph = async <T>(pathAndQuery: string): Promise<T> => {
    const joiner = pathAndQuery.includes('?') ? '&' : '?';
    const response = await fetch(`${simulator}/v25.0/${pathAndQuery}${joiner}access_token=simulator-token`);
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as T;
  };
  const dailyBudgetOf = async (adSetId: string) =>
    Number((await graph<{ daily_budget: string }>(`${adSetId}?fields=daily_budget`)).daily_budget);

  /** Shoots `what` (a locator, or the window when absent) at 1280 and at 390 px; the page never scrolls sideways. */
  const bothWidths = async (name: string, what?: (page: Page) => Locator | Locator[]) => {
    const dir = path.join(ROOT, 'test-results', 'screenshots');
    await mkdir(dir, { recursive: true });
    for (const [size, width] of [
      [DESKTOP, 1280],
      [PHONE, 390],
    ] as const) {
      await page.setViewportSize(size);
      await settled(page);
      const file = path.join(dir, `${name}-${width}.png`);
      if (what) {
        // From the top of the page, where the editor's sticky toolbar covers nothing.
        await page.evaluate('window.scrollTo(0, 0)');
        const boxes = await Promise.all([what(page)].flat().map((l) => l.boundingBox()));
        const top = Math.min(...boxes.map((b) => b!.y));
        const bottom = Math.max(...boxes.map((b) => b!.y + b!.height));
        const left = Math.min(...boxes.map((b) => b!.x));
        const right = Math.max(...boxes.map((b) => b!.x + b!.width));
        await page.screenshot({
          path: file,
          fullPage: true,
          clip: { x: left, y: top, width: right - left, height: bottom - top },
        });
      } else {
        await page.screenshot({ path: file });
      }
      expect(await pageOverflow(page), `${name} at ${width} px: the page scrolls sideways`).toBe(0);
    }
    await page.setViewportSize(DESKTOP);
  };

  beforeAll(async () => {
    const opened = await openProductWithSimulator();
    ({ page, close, simulator } = opened);
    api = await adminApi(opened.product.url);

    // The simulator's ad sets with a daily budget of their own (their campaign has none), delivering
    // and past learning, with leads: the first of those is the one the rule raises.
    const accounts = await api<{ results: { ad_account_id: string }[] }>('GET', 'meta_ad_account/?limit=400');
    for (const { ad_account_id: accountId } of accounts.results) {
      const adSets = await graph<{ data: SimAdSet[] }>(
        `${accountId}/adsets?fields=id,name,daily_budget,campaign{name},learning_stage_info,effective_status&limit=500`,
      );
      const budgeted = adSets.data.filter((a) => a.daily_budget && a.learning_stage_info?.status !== 'LEARNING');
      if (!budgeted.length) continue;
      const insights = await graph<{
        data: { adset_id: string; spend: string; actions?: { action_type: string; value: string }[] }[];
      }>(`${accountId}/insights?level=adset&date_preset=maximum&fields=adset_id,spend,actions&limit=500`);
      for (const adSet of budgeted) {
        const row = insights.data.find((r) => r.adset_id === adSet.id);
        const leads = Number(row?.actions?.find((a) => a.action_type === 'lead')?.value ?? 0);
        if (!row || leads < 20) continue;
        target = {
          accountId,
          campaignName: adSet.campaign.name,
          adSetId: adSet.id,
          adSetName: adSet.name,
          budgetCents: Number(adSet.daily_budget),
          cpl: Number(row.spend) / leads,
          leads,
        };
        break;
      }
      if (target) break;
    }
    if (!target) throw new Error('The simulator has no delivering ad set with a daily budget of its own and leads');
    threshold = Math.ceil(target.cpl) + 10;
    raisedCents = Math.round(target.budgetCents * 1.2);

    const created = await api<{ id: number; name: string; rules: { id: number }[] }>('POST', 'general_page/', {
      client_type: 'EDM',
      plan: 'solo',
      meta_ad_account_id: target.accountId,
      name: 'Budget Scaling',
      extension: { external_credentials: { demio: null } },
    });
    folder = { id: created.id, name: created.name, ruleId: created.rules[0]!.id };
  });
  afterAll(() => close?.());

  const choose = async (field: Locator, option: string) => {
    await field.click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  it('a budget rule is made in the editor: filter, two conditions, Raise budget by 20% on ad sets', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`/edit-rule/${folder.ruleId}`);
    await page.getByRole('textbox', { name: 'Rule name' }).fill('Scale cheap ad sets');
    const contains = page.getByLabel('Campaign name contains');
    await contains.click();
    await contains.press('Backspace'); // the new rule's "EDM"
    await contains.fill(target.campaignName);
    await contains.press('Enter');

    await page.getByRole('switch', { name: 'Use conditions' }).check();
    const first = page.getByRole('group', { name: 'Condition 1' });
    await choose(first.getByRole('combobox', { name: 'Metric' }), 'CPL');
    await choose(first.getByRole('combobox', { name: 'Window' }), 'Lifetime');
    await choose(first.getByRole('combobox', { name: 'Comparison' }), '<');
    await first.getByLabel('Condition 1: Value').fill(String(threshold));
    await page.getByRole('button', { name: 'Add condition' }).click();
    const second = page.getByRole('group', { name: 'Condition 2' });
    await choose(second.getByRole('combobox', { name: 'Metric' }), 'Leads');
    await choose(second.getByRole('combobox', { name: 'Window' }), 'Lifetime');
    await choose(second.getByRole('combobox', { name: 'Comparison' }), '≥');
    await second.getByLabel('Condition 2: Value').fill('10');

    const action = page.getByRole('region', { name: 'Action' });
    await choose(action.getByRole('combobox', { name: 'Do' }), 'Raise budget');
    expect(await action.getByRole('combobox', { name: 'On' }).textContent()).toBe('ad sets');
    await action.getByLabel('By', { exact: true }).fill('20');
    // The folder's limits, read-only under a budget action (the defaults: $1,000 a day before approval).
    expect(await action.getByTestId('budget-limits').textContent()).toMatch(
      /a run adding more than \$1,000\/day waits for approval/,
    );
    await bothWidths('budget-editor-action', (p) => [
      p.getByRole('region', { name: 'Conditions' }),
      p.getByRole('region', { name: 'Action' }),
    ]);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Rule saved').waitFor();
    const saved = await api<{ conditions: unknown; action: unknown }>('GET', `rule/${folder.ruleId}/`);
    expect(saved.action).toMatchObject({ kind: 'raise_budget', level: 'adset', change: { percent: 20 } });
    expect(saved.conditions).toMatchObject({
      match: 'all',
      conditions: [
        { metric: 'cpl', window: 'lifetime', op: '<', value: threshold },
        { metric: 'leads', window: 'lifetime', op: '>=', value: 10 },
      ],
    });
  });

  it('Preview shows the money line, the planned change and each condition’s value, changing nothing', async () => {
    await page.goto(`/edit-rule/${folder.ruleId}`);
    await page.getByRole('button', { name: /^Preview what / }).click();
    const dialog = page.getByRole('dialog', { name: /^Preview: / });
    const line = dialog.getByTestId('money-line');
    await line.waitFor({ timeout: 30_000 });
    const delta = (raisedCents - target.budgetCents) / 100;
    expect(await line.textContent()).toMatch(/^\+\$[\d,.]+\/day across 1 ad set$/);
    expect(Number((await line.textContent())!.replace(/[^\d.]/g, ''))).toBeCloseTo(delta, 2);
    const change = dialog.getByTestId(`budget-change-${target.adSetId}`);
    expect(await change.textContent()).toContain(`${money(target.budgetCents / 100)} → ${money(raisedCents / 100)}`);
    expect(await change.textContent()).toContain(target.adSetName);
    expect(await dialog.getByTestId(`conditions-${target.adSetId}`).textContent()).toMatch(bothHold(threshold));
    await bothWidths('budget-preview');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await dailyBudgetOf(target.adSetId)).toBe(target.budgetCents);
  });

  it('the folder dialog sets a daily increase limit under what the raise adds', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: `Edit folder ${folder.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Update Folder' });
    await dialog.getByRole('button', { name: 'Budget limits' }).click();
    const limit = dialog.getByLabel('Daily increase limit');
    expect(await limit.inputValue()).toBe('1000');
    await limit.fill('5');
    await limit.scrollIntoViewIfNeeded();
    await bothWidths('budget-folder-limits');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Folder updated').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const stored = await api<{ budget_limits: { daily_increase_limit: number } }>('GET', `general_page/${folder.id}/`);
    expect(stored.budget_limits.daily_increase_limit).toBe(5);
  });

  it('Run now is held: the dialog and the Runs panel say so with the money, and nothing changes', async () => {
    await page.goto(`/edit-rule/${folder.ruleId}`);
    await page.getByRole('button', { name: /^Run now: / }).click();
    const confirm = page.getByRole('dialog', { name: /now\?$/ });
    await confirm.getByRole('button', { name: 'Run now' }).click();
    const ran = page.getByRole('dialog', { name: /^Ran / });
    await ran.getByText(/the run is held for approval/).waitFor({ timeout: 30_000 });
    expect(await ran.textContent()).toMatch(/\$[\d,.]+ a day.*\$5\.00/);
    await bothWidths('budget-held-dialog');
    await ran.getByRole('button', { name: 'Close' }).click();
    expect(await dailyBudgetOf(target.adSetId)).toBe(target.budgetCents);

    const runs = page.getByRole('table', { name: 'Runs' });
    const show = runs.getByRole('button', { name: /^Show run \d+$/ }).first();
    heldRunId = Number((await show.getAttribute('aria-label'))!.replace(/\D/g, ''));
    await show.click();
    const detail = page.getByTestId(`run-detail-${heldRunId}`);
    await detail.getByText(/^Money at stake: \+\$[\d,.]+\/day across 1 ad set$/).waitFor();
    await detail.getByText(/over its limit of \$5\.00\/day/).waitFor();
    expect(await detail.getByTestId(`budget-change-${target.adSetId}`).textContent()).toContain(
      `${money(target.budgetCents / 100)} → ${money(raisedCents / 100)}`,
    );
    // Each condition's value on the ad set, as the run judged it.
    const object = detail.getByTestId(`run-object-${target.adSetId}`);
    expect(await object.textContent()).toMatch(bothHold(threshold));
    expect(await object.textContent()).toContain(`Ad set ${target.adSetId}`);
    await detail.getByRole('button', { name: `Approve the held changes of run ${heldRunId}` }).waitFor();
    await bothWidths('budget-held-run', (p) => p.getByTestId(`run-detail-${heldRunId}`));
  });

  it('Approve raises the ad set’s daily budget on the simulator, and the run records show it', async () => {
    const detail = page.getByTestId(`run-detail-${heldRunId}`);
    await detail.getByRole('button', { name: `Approve the held changes of run ${heldRunId}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Carry out the held changes?' });
    expect(await confirm.textContent()).toMatch(/Money at stake: \+\$[\d,.]+\/day across 1 ad set/);
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await detail.getByText(/^Approved by /).waitFor({ timeout: 30_000 });

    expect(await dailyBudgetOf(target.adSetId)).toBe(raisedCents);
    const writes = (await (await fetch(`${simulator}/__sim/writes`)).json()) as {
      id: string;
      changed: Record<string, unknown>;
    }[];
    expect(writes.filter((w) => w.id === target.adSetId && 'daily_budget' in w.changed)).toHaveLength(1);

    // The approval is a run of its own, newest first, with the change made and each condition's value.
    const runs = page.getByRole('table', { name: 'Runs' });
    await runs.getByRole('row').filter({ hasText: 'Approval' }).waitFor();
    await runs.getByRole('button', { name: `Hide run ${heldRunId}` }).click();
    const show = runs.getByRole('button', { name: /^Show run \d+$/ }).first();
    const approvalId = Number((await show.getAttribute('aria-label'))!.replace(/\D/g, ''));
    expect(approvalId).toBeGreaterThan(heldRunId);
    await show.click();
    // The approval carries out the held run's plan: its record has the change made, not a new judging.
    const record = page.getByTestId(`run-detail-${approvalId}`);
    const change = record.getByTestId(`budget-change-${target.adSetId}`);
    await change.waitFor();
    expect(await change.textContent()).toContain(`${money(target.budgetCents / 100)} → ${money(raisedCents / 100)}`);
    await record
      .getByTestId('money-line')
      .getByText(/across 1 ad set/)
      .waitFor();
    expect(await record.textContent()).not.toMatch(/matched no delivering/);
    await bothWidths('budget-run-record', (p) => p.getByTestId(`run-detail-${approvalId}`));
  });

  it('Activity lists the raise as "Budget raised"', async () => {
    await page.goto(`/activity?rule_id=${folder.ruleId}`);
    const raised = page.getByRole('row').filter({ hasText: 'Budget raised' });
    await raised.first().waitFor();
    expect(await raised.count()).toBe(1);
    expect(await raised.textContent()).toContain(target.adSetId);
    const held = page.getByRole('row').filter({ hasText: 'Held run, approved' });
    expect(await held.count()).toBe(1);
    expect(await held.textContent()).toMatch(/\+\$[\d,.]+\/day across 1 ad set, approved/);
    expect(await held.textContent()).not.toMatch(/waiting for approval/);
    await bothWidths('budget-activity');
  });
});
