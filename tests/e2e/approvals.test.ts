/**
 * The approval queue on a fresh `npm start` with the Graph simulator (clock stopped) and a blast
 * radius of 1%, so every run that would turn anything off is held: two folders' rules are run and
 * held, a junior joins a group whose approval limit lies between the two runs' money at stake, and
 * on Approvals sees both — the dearer one with Approve disabled and the reason written beside it,
 * on a desktop (a table) and on a phone (cards), axe finding nothing — then approves the other in
 * place: its ad is paused in the simulator, it leaves the queue, the dearer one stays held.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalDto } from '../../shared/approvals';
import { signIn } from './support/browser';
import { adminApi, createNoLeadsRule, openProductWithSimulator, simStatus } from './support/engineScenario';
import { joinFromInvitation } from './support/outbox';
import { checkScreen, DESKTOP, PHONE } from './support/screenCheck';
import { ADMIN, ROOT, type RunningProduct } from './support/server';

const JUNIOR = { email: 'jo.junior@example.com', password: 'junior-pass-1' };

/** test-results/screenshots/approvals-<width>.png (docs/screenshots is refreshed from there by hand). */
async function keep(page: Page, width: number) {
  const dir = path.join(ROOT, 'test-results', 'screenshots');
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `approvals-${width}.png`), fullPage: true });
}

describe('Approvals in a real browser', () => {
  let product: RunningProduct;
  let browser: Browser;
  let close: (() => Promise<void>) | undefined;
  let simulator: string;
  let page: Page;
  let cheap: ApprovalDto;
  let dear: ApprovalDto;
  let cheapAd: string;
  let dearAd: string;
  let limit: number;
  let groupId: number;
  let harborFolder: number;
  let api: Awaited<ReturnType<typeof adminApi>>;

  beforeAll(async () => {
    const opened = await openProductWithSimulator({ ENGINE_MAX_SHARE: '0.01' });
    ({ product, browser, close, simulator } = opened);
    await opened.page.context().close();
    api = await adminApi(product.url);

    // Two folders on the simulator's home account, each with a rule catching one ad that spends with no lead.
    const harbor = await createNoLeadsRule(api, simulator, 'Harbor Approvals');
    harborFolder = harbor.folderId;
    const summit = await createNoLeadsRule(api, simulator, 'Summit Approvals', {
      scenario: 'no_link_clicks',
      campaign: 'TIR-W',
      spend: '40',
    });
    for (const { ruleId } of [harbor, summit]) {
      await api('PATCH', `rule/${ruleId}/`, { judging: { maturity_hours: 0, maturity_impressions: 0 } });
      const ran = await api<{ status: string }>('POST', `rules/${ruleId}/run_now/`, {});
      expect(ran.status).toBe('held');
    }
    const queue = await api<{ results: ApprovalDto[] }>('GET', 'approvals/');
    expect(queue.results.map((r) => r.folder_name).sort()).toEqual(['Harbor Approvals', 'Summit Approvals']);
    [dear, cheap] = queue.results as [ApprovalDto, ApprovalDto];
    expect(dear.money_at_stake_per_day).toBeGreaterThan(cheap.money_at_stake_per_day);
    const adOf = (run: ApprovalDto) => (run.folder_name === 'Harbor Approvals' ? harbor.noLeadsAd : summit.noLeadsAd);
    [cheapAd, dearAd] = [adOf(cheap), adOf(dear)];

    // A junior whose group may approve more than the cheap run and less than the dear one.
    limit = Math.floor((cheap.money_at_stake_per_day + dear.money_at_stake_per_day) / 2);
    const group = await api<{ id: number }>('POST', 'groups/', {
      name: 'Juniors',
      group_access: { accesses: ['read_rules', 'create_update_rules', 'view_logs'] },
      approval_limit: limit,
    });
    groupId = group.id;
    await api('POST', 'user_invite/send_invite_code/', { group_id: group.id, email: JUNIOR.email });
    await joinFromInvitation(product, JUNIOR.email, JUNIOR.password);

    // Axe is added to the page as a script tag, which the app's CSP would refuse.
    const context = await browser.newContext({ baseURL: product.url, viewport: DESKTOP, bypassCSP: true });
    context.setDefaultNavigationTimeout(120_000);
    page = await context.newPage();
  });
  afterAll(() => close?.());

  const rowOf = (run: ApprovalDto) =>
    page.getByRole('row').filter({ hasText: run.rule_name }).filter({
      hasText: run.folder_name,
    });
  const cardOf = (run: ApprovalDto) => page.getByRole('listitem').filter({ hasText: run.folder_name });
  const approveIn = (scope: Locator, run: ApprovalDto) =>
    scope.getByRole('button', { name: `Approve the held changes of run ${run.id}` });
  const dismissIn = (scope: Locator, run: ApprovalDto) =>
    scope.getByRole('button', { name: `Dismiss the held changes of run ${run.id}` });
  const refusal = () =>
    new RegExp(`your group may approve up to \\$${limit}/day\\. Someone allowed more must approve it\\.`);

  it('the side panel offers Approvals; on a desktop each waiting run is a row, the dear one not approvable, and why', async () => {
    await signIn(page, JUNIOR.email, JUNIOR.password);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Approvals', exact: true }).click();
    await page.waitForURL('**/approvals');
    await rowOf(cheap).waitFor();

    const dearRow = rowOf(dear);
    await dearRow.getByText(refusal()).waitFor();
    expect(await approveIn(dearRow, dear).isDisabled()).toBe(true);
    expect(await dismissIn(dearRow, dear).isEnabled()).toBe(true);
    expect(await approveIn(rowOf(cheap), cheap).isEnabled()).toBe(true);
    // Most money first: the dear run is the first row under the header.
    expect(await page.getByRole('row').nth(1).textContent()).toContain(dear.folder_name);
    expect(await dearRow.textContent()).toMatch(/\/day at stake/);

    expect(await checkScreen(page, 'approvals', 'desktop', [dismissIn(dearRow, dear)])).toEqual([]);
    await keep(page, 1280);
  });

  it('on a phone each waiting run is a card, with the same explanation', async () => {
    await page.setViewportSize(PHONE);
    const card = cardOf(dear);
    await card.getByText(refusal()).waitFor();
    expect(await approveIn(card, dear).isDisabled()).toBe(true);
    expect(await approveIn(cardOf(cheap), cheap).isEnabled()).toBe(true);
    expect(await checkScreen(page, 'approvals', 'phone', [approveIn(cardOf(cheap), cheap)])).toEqual([]);
    await keep(page, 390);
  });

  it('approves the run within the limit in place: its ad is paused and it leaves the queue; the dear one stays held', async () => {
    await page.setViewportSize(DESKTOP);
    await approveIn(rowOf(cheap), cheap).click();
    const confirm = page.getByRole('dialog', { name: 'Carry out the held changes?' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toMatch(/\/day at stake\./);
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(/^Approved: 1 turned off$/).waitFor({ timeout: 30_000 });
    await rowOf(cheap).waitFor({ state: 'detached' });
    // Still listed once the list is read again (waited for: CI once looked in the instant between).
    await rowOf(dear).waitFor();
    expect(await simStatus(simulator, cheapAd)).toBe('PAUSED');
    expect(await simStatus(simulator, dearAd)).toBe('ACTIVE');
  });

  it('an admin keeps the group to one folder on its Edit view: the picker finds it by name, the API keeps it', async () => {
    const context = await browser.newContext({ baseURL: product.url, viewport: DESKTOP, bypassCSP: true });
    const admin = await context.newPage();
    await signIn(admin, ADMIN.email, ADMIN.password);
    await admin.goto(`/permissions/${groupId}`);
    const limitField = admin.getByRole('spinbutton', { name: /^Approval limit/ });
    await limitField.waitFor();
    expect(await limitField.inputValue()).toBe(String(limit));
    expect(await admin.getByRole('radio', { name: 'All folders' }).isChecked()).toBe(true);
    await admin.getByRole('radio', { name: 'Chosen folders' }).check();
    const picker = admin.getByRole('combobox', { name: 'Folders', exact: true });
    await picker.fill('Harbor');
    await admin.getByRole('option', { name: 'Harbor Approvals' }).click();
    await admin.keyboard.press('Escape');
    expect(
      await checkScreen(admin, 'group-rule-scope', 'desktop', [admin.getByRole('button', { name: 'Save' })]),
    ).toEqual([]);
    await admin.setViewportSize(PHONE);
    expect(
      await checkScreen(admin, 'group-rule-scope', 'phone', [admin.getByRole('button', { name: 'Save' })]),
    ).toEqual([]);
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Group saved').waitFor();
    const saved = await api<{ rule_folders: number[] | null; approval_limit: number | null }>(
      'GET',
      `groups/${groupId}/`,
    );
    expect(saved).toMatchObject({ rule_folders: [harborFolder], approval_limit: limit });
    await context.close();
  });
});
