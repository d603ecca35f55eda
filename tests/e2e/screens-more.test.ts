/**
 * The screens tests/e2e/screens.test.ts does not visit, held to the same checks at 390×844 and
 * 1280×800 (support/screenCheck.ts: no sideways scrolling, primary actions on screen, no axe-core
 * WCAG 2.1 A/AA violation, a screenshot each): Team's and Permissions' views — the empty
 * Permissions page, the Invite dialog with no group yet and the way it leads to creating one, the
 * group Create and Edit views, a member's Edit view — and the health panel, the impact report, the
 * alert destinations and the ad accounts. Also: "Forgot password?" never shows a blank page while
 * its screen's code loads.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/browser';
import { adminApi, type AdminApi } from './support/engineScenario';
import { openProduct } from './support/product';
import { joinFromInvitation } from './support/outbox';
import { checkBothWidths, PHONE } from './support/screenCheck';
import { ADMIN, type RunningProduct } from './support/server';

const MEMBER = { email: 'mia.member@example.com', password: 'member-pass-1' };
const GROUP = 'Harbor editors';
const PAGE_INVITEE = 'page.invitee@example.com';

describe('more screens on a phone and a desktop', () => {
  let product: RunningProduct;
  let browser: Browser;
  let close: (() => Promise<void>) | undefined;
  let page: Page;
  let api: AdminApi;

  beforeAll(async () => {
    const opened = await openProduct();
    ({ product, browser, close } = opened);
    await opened.page.context().close();
    // Axe is added to the page as a script tag, which the app's CSP would refuse.
    const context = await browser.newContext({ baseURL: product.url, viewport: PHONE, bypassCSP: true });
    context.setDefaultNavigationTimeout(120_000);
    page = await context.newPage();
    api = await adminApi(product.url);
  });
  afterAll(() => close?.());

  let signedIn = false;
  const signInOnce = async () => {
    if (!signedIn) await signIn(page, ADMIN.email, ADMIN.password);
    signedIn = true;
  };

  it('Forgot password? shows the sign-in frame while its screen loads, never a blank page', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).waitFor();
    // The reset screen's code arrives a second late, as on a slow phone connection.
    await page.route('**/assets/PasswordResetRequestPage-*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    });
    // Records whether the app's root was ever empty of text from the click on.
    await page.evaluate(`(() => {
      window.__blank = false;
      const root = document.getElementById('root');
      const look = () => { if (!root.innerText.trim()) window.__blank = true; };
      new MutationObserver(look).observe(root, { childList: true, subtree: true, characterData: true });
    })()`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('progressbar', { name: 'Loading' }).waitFor();
    await page.getByRole('button', { name: 'Send reset link' }).waitFor();
    expect(await page.evaluate('window.__blank')).toBe(false);
    await page.unroute('**/assets/PasswordResetRequestPage-*.js');
  });

  describe('Team and Permissions as the admin', () => {
    beforeAll(signInOnce);

    it('Permissions with no group yet explains what a group is and offers New group', async () => {
      await page.goto('/permissions');
      await page.getByText(/A permission group is/).waitFor();
      expect(await page.getByText('No Permissions found').count()).toBe(0);
      expect(
        await checkBothWidths(page, 'permissions-empty', (p) => [p.getByRole('link', { name: 'New group' })]),
      ).toEqual([]);
    });

    it('Invite with no group yet says why and leads to creating one', async () => {
      await page.goto('/team');
      await page.getByRole('button', { name: 'Invite' }).waitFor();
      expect(await checkBothWidths(page, 'team', (p) => [p.getByRole('button', { name: 'Invite' })])).toEqual([]);
      await page.getByRole('button', { name: 'Invite' }).click();
      const dialog = page.getByRole('dialog', { name: 'Invite a colleague' });
      await dialog.getByText(/no permission group yet/).waitFor();
      const create = dialog.getByRole('link', { name: 'Create a permission group' });
      expect(await checkBothWidths(page, 'invite-no-group', () => [create])).toEqual([]);
      await create.click();
      await page.waitForURL('**/permissions/create');
    });

    it('New group (Create view) back to Team, then the list and the Edit view', async () => {
      const name = page.getByRole('textbox', { name: 'Group' });
      await name.waitFor();
      expect(await checkBothWidths(page, 'group-create', (p) => [p.getByRole('button', { name: 'Save' })])).toEqual([]);
      await name.fill(GROUP);
      await page.getByRole('checkbox', { name: 'read rules' }).check();
      await page.getByRole('button', { name: 'Save' }).click();
      // Opened from Invite, the Create view goes back to Team, where the new group is offered.
      await page.waitForURL('**/team');
      await page.getByRole('button', { name: 'Invite' }).click();
      const dialog = page.getByRole('dialog', { name: 'Invite a colleague' });
      await dialog.getByRole('combobox', { name: /Permission group/ }).click();
      await page.getByRole('option', { name: GROUP }).waitFor();
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await page.goto('/permissions');
      await page.getByRole('group', { name: `Accesses of ${GROUP}` }).waitFor();
      expect(await checkBothWidths(page, 'permissions', (p) => [p.getByRole('link', { name: 'New group' })])).toEqual(
        [],
      );
      // Left at the phone's width: one pencil a row (Edit, which renames too), and New group floats
      // at the bottom instead of leaving an empty toolbar above the list. The row changes once React
      // has seen the media query change, so these wait for it.
      const groupRow = page.getByRole('row').filter({ hasText: GROUP });
      await groupRow.getByRole('button', { name: `Rename ${GROUP}` }).waitFor({ state: 'detached' });
      await groupRow.getByRole('link', { name: `Edit ${GROUP}` }).waitFor({ state: 'visible' });
      expect((await page.getByRole('table').boundingBox())!.y).toBeLessThan(100);
      await page.getByRole('link', { name: `Edit ${GROUP}` }).click();
      await page.getByText('Edit permission group').waitFor();
      expect(await checkBothWidths(page, 'group-edit', (p) => [p.getByRole('button', { name: 'Save' })])).toEqual([]);
    });

    it('Invite a colleague as a page (the invitations Create view), then pending in Team', async () => {
      await page.goto('/invitations/create');
      await page.getByRole('combobox', { name: /Permission group/ }).click();
      await page.getByRole('option', { name: GROUP }).click();
      await page.getByRole('textbox', { name: 'Email' }).fill(PAGE_INVITEE);
      expect(
        await checkBothWidths(page, 'invitation-create', (p) => [p.getByRole('button', { name: 'Send invitation' })]),
      ).toEqual([]);
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.waitForURL('**/team');
      await page.getByText('Invitation sent successfully').waitFor();
      await page.getByText(PAGE_INVITEE).waitFor();
    });

    it('a member’s Edit view from Team', async () => {
      const [group] = (await api<{ results: { id: number; name: string }[] }>('GET', 'groups/')).results.filter(
        (g) => g.name === GROUP,
      );
      await api('POST', 'user_invite/send_invite_code/', { email: MEMBER.email, group_id: group!.id });
      await joinFromInvitation(product, MEMBER.email, MEMBER.password);
      await page.goto('/team');
      const row = page.getByRole('row').filter({ hasText: MEMBER.email });
      await row.getByRole('link', { name: 'Edit' }).click();
      await page.getByRole('textbox', { name: 'Last name' }).waitFor();
      expect(await checkBothWidths(page, 'user-edit', (p) => [p.getByRole('button', { name: 'Save' })])).toEqual([]);
    });
  });

  describe('the other screens as the admin', () => {
    beforeAll(signInOnce);

    it('Health', async () => {
      await page.goto('/health');
      await page.getByRole('heading', { name: 'Access token' }).waitFor({ timeout: 60_000 });
      expect(await checkBothWidths(page, 'health')).toEqual([]);
    });

    it('Impact', async () => {
      await page.goto('/impact');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await checkBothWidths(page, 'impact')).toEqual([]);
    });

    it('Alert destinations: the list and the Create view', async () => {
      await page.goto('/alert_destinations');
      const create = page.getByRole('link', { name: /Create|New/ }).first();
      await create.waitFor({ timeout: 60_000 });
      expect(await checkBothWidths(page, 'alert-destinations', () => [create])).toEqual([]);
      await create.click();
      await page.getByRole('textbox', { name: 'Webhook URL' }).waitFor();
      expect(
        await checkBothWidths(page, 'alert-destination-create', (p) => [p.getByRole('button', { name: 'Save' })]),
      ).toEqual([]);
    });

    it('Alert deliveries', async () => {
      await page.goto('/alert_deliveries');
      await page.waitForFunction(`document.title.includes('Alert deliveries')`);
      await page.waitForLoadState('networkidle');
      expect(await checkBothWidths(page, 'alert-deliveries')).toEqual([]);
    });

    it('Ad accounts', async () => {
      await page.goto('/ad_accounts');
      await page.waitForFunction(`document.title.includes('Ad accounts')`);
      await page.waitForLoadState('networkidle');
      expect(await checkBothWidths(page, 'ad-accounts')).toEqual([]);
    });
  });
});
