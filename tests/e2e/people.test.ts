/**
 * End to end on a fresh `npm start` with no mail server: the admin builds a group and
 * invites a colleague, the colleague follows the link from the .eml in <DATA_DIR>/outbox, joins,
 * signs in and sees only what the group allows; then resets a forgotten password by mail.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, screenshot, signIn } from './support/browser';
import { outbox } from './support/outbox';
import { openProduct } from './support/product';
import { DESKTOP } from './support/screenCheck';
import { waitUntil } from '../support/waitUntil';
import { ADMIN, type RunningProduct } from './support/server';

const COLLEAGUE = { email: 'colleague@example.com', password: 'colleague-pass-1', newPassword: 'colleague-pass-2' };
const GROUP = 'Permission viewers';

describe('inviting a colleague and resetting a password, by mail from the outbox', () => {
  let product: RunningProduct;
  let browser: Browser;
  let admin: Page;
  let colleague: Page;
  let close: (() => Promise<void>) | undefined;

  /** The path of the link in the mail to `to` that leads to `route`, checked to point at the product. */
  async function mailedPath(to: string, route: string): Promise<string> {
    const mail = await waitUntil(
      async () =>
        (await outbox(product.dataDir)).find((m) => m.to.includes(to) && m.links.some((l) => l.includes(`/${route}/`))),
      `a ${route} mail to ${to} in ${product.dataDir}/outbox`,
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(mail.links).toHaveLength(1);
    const link = new URL(mail.links[0]!);
    expect(link.port).toBe(String(product.port));
    expect(link.pathname).toMatch(new RegExp(`^/${route}/[A-Za-z0-9_-]{40,}$`));
    return link.pathname;
  }

  const snackbar = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

  beforeAll(async () => {
    ({ product, browser, page: admin, close } = await openProduct());
    colleague = await newPage(browser, product.url);
    await admin.setViewportSize(DESKTOP); // the edit views' screenshots (docs/screenshots/) at 1280×800
  });
  afterAll(() => close?.());

  it('the admin creates a group that may only look at permissions', async () => {
    await signIn(admin, ADMIN.email, ADMIN.password);
    await admin.getByRole('button', { name: 'Admin User' }).click();
    await admin.getByRole('menuitem', { name: 'Permissions' }).click();
    await admin.waitForURL('**/permissions');
    // The Create view: 'New group' with no accesses unless changed.
    await admin.getByRole('link', { name: 'New group' }).click();
    await admin.waitForURL('**/permissions/create');
    const name = admin.getByRole('textbox', { name: 'Group' });
    await expect(name.inputValue()).resolves.toBe('New group');
    await name.fill(`${GROUP} draft`);
    await admin.getByRole('button', { name: 'Save' }).click();
    await snackbar(admin, 'Group created');
    await admin.waitForURL('**/permissions');

    // The Edit view: renamed and given an access in one save.
    await admin.getByRole('link', { name: `Edit ${GROUP} draft` }).click();
    await admin.getByText('Edit permission group').waitFor();
    await admin.getByRole('textbox', { name: 'Group' }).fill(GROUP);
    await admin.getByRole('checkbox', { name: 'view permissions' }).check();
    await screenshot(admin, 'people-group-edit');
    await admin.getByRole('button', { name: 'Save' }).click();
    await snackbar(admin, 'Group saved');
    await admin.waitForURL('**/permissions');
    const accesses = admin.getByRole('group', { name: `Accesses of ${GROUP}` });
    await expect(accesses.getByRole('checkbox', { name: 'view permissions' }).isChecked()).resolves.toBe(true);
    await admin.waitForLoadState('networkidle');
    await screenshot(admin, 'people-permissions');
  });

  it('the admin invites the colleague into that group from Team', async () => {
    await admin.getByRole('button', { name: 'Admin User' }).click();
    await admin.getByRole('menuitem', { name: 'Team' }).click();
    await admin.waitForURL('**/team');
    await admin.getByRole('cell', { name: ADMIN.email }).waitFor();
    await admin.getByRole('button', { name: 'Invite' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Invite a colleague' });
    await dialog.getByRole('combobox', { name: /Permission group/ }).click();
    await admin.getByRole('option', { name: GROUP }).click();
    await dialog.getByLabel('Email').fill(COLLEAGUE.email);
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await snackbar(admin, 'Invitation sent successfully');
  });

  it('the colleague follows the mailed link, joins and lands on the login screen', async () => {
    const joinPath = await mailedPath(COLLEAGUE.email, 'join');
    await colleague.goto(joinPath);
    await colleague.getByRole('heading', { name: 'Confirm invitation' }).waitFor();
    await colleague.getByLabel('First name').fill('Nina');
    await colleague.getByLabel('Last name').fill('Colleague');
    await colleague.getByLabel('Phone').fill('+44 1234 5678');
    await colleague.getByLabel('Password', { exact: true }).fill(COLLEAGUE.password);
    await colleague.getByLabel('Confirm Password').fill(COLLEAGUE.password);
    await screenshot(colleague, 'people-join');
    await colleague.getByRole('button', { name: 'Join' }).click();
    await colleague.waitForURL('**/login');
    await snackbar(colleague, 'Invitation confirmed successfully');

    // The same link works only once.
    const again = await colleague.request.post('/api/user_invite/', {
      data: {
        first_name: 'X',
        last_name: 'Y',
        phone: '',
        password: 'whatever-1',
        password2: 'whatever-1',
        invite_code: joinPath.split('/').pop(),
      },
    });
    expect(again.status()).toBe(400);
  });

  it('the admin sees the new colleague in Team, in the group', async () => {
    await admin.reload();
    const row = admin.getByRole('row').filter({ hasText: COLLEAGUE.email });
    await row.getByText('Nina Colleague').waitFor();
    await row.getByRole('combobox', { name: 'Permission Group: Nina Colleague' }).filter({ hasText: GROUP }).waitFor();
    await row.getByRole('button', { name: 'Deactivate' }).waitFor();
    await screenshot(admin, 'people-team');
  });

  it("the admin edits the colleague's profile in its Edit view", async () => {
    const row = admin.getByRole('row').filter({ hasText: COLLEAGUE.email });
    await row.getByRole('link', { name: 'Edit' }).click();
    await admin.getByText('Edit team member').waitFor();
    await expect(admin.getByRole('textbox', { name: 'Email' }).isDisabled()).resolves.toBe(true);
    await admin.getByRole('textbox', { name: 'Phone' }).fill('+44 1234 9999');
    await admin.getByRole('textbox', { name: 'Last name' }).fill('Colleague-Jones');
    await screenshot(admin, 'people-user-edit');
    await admin.getByRole('button', { name: 'Save' }).click();
    await snackbar(admin, 'Team member saved');
    await admin.waitForURL('**/team');
    await admin.getByRole('row').filter({ hasText: COLLEAGUE.email }).getByText('Nina Colleague-Jones').waitFor();
  });

  it('signed in, the colleague sees only what the group allows', async () => {
    await signIn(colleague, COLLEAGUE.email, COLLEAGUE.password);
    await colleague.getByRole('button', { name: 'Nina Colleague' }).click();
    await colleague.getByRole('menuitem', { name: 'Permissions' }).waitFor();
    await expect(colleague.getByRole('menuitem', { name: 'Team' }).count()).resolves.toBe(0);
    await colleague.getByRole('menuitem', { name: 'Permissions' }).click();
    await colleague.waitForURL('**/permissions');
    const accesses = colleague.getByRole('group', { name: `Accesses of ${GROUP}` });
    await expect(accesses.getByRole('checkbox', { name: 'view permissions' }).isChecked()).resolves.toBe(true);
    await expect(accesses.getByRole('checkbox', { name: 'view permissions' }).isDisabled()).resolves.toBe(true);
    await expect(colleague.getByRole('button', { name: 'New group' }).count()).resolves.toBe(0);

    // Campaigns is a greyed label in the side panel; Team is closed.
    await colleague.getByRole('button', { name: 'Open menu' }).click();
    await colleague.locator('li[aria-disabled="true"]', { hasText: 'Campaigns' }).waitFor();
    await colleague.keyboard.press('Escape');
    await colleague.goto('/team');
    await colleague
      .getByText(/not have the right permissions|Unauthorized|access denied/i)
      .first()
      .waitFor();

    // The server refuses what the screens do not offer.
    const token = await colleague.evaluate(
      () => JSON.parse(localStorage.getItem('auth') ?? '{}').access_token as string,
    );
    const headers = { authorization: `Bearer ${token}` };
    expect((await colleague.request.get('/api/groups/', { headers })).status()).toBe(200);
    expect((await colleague.request.post('/api/groups/', { headers, data: {} })).status()).toBe(403);
    expect((await colleague.request.get('/api/user/', { headers })).status()).toBe(403);
  });

  it('the colleague sees their account', async () => {
    await colleague.goto('/account');
    await colleague.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    await expect(colleague.getByLabel('Email').inputValue()).resolves.toBe(COLLEAGUE.email);
    await expect(colleague.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
    await colleague.getByLabel('Last name').fill('Colleague-Smith');
    await colleague.getByRole('button', { name: 'Save' }).click();
    await snackbar(colleague, 'Account data saved successfully');
    await colleague.getByRole('button', { name: 'Nina Colleague-Smith' }).waitFor();
    await screenshot(colleague, 'people-account');
    await colleague.getByRole('button', { name: 'Nina Colleague-Smith' }).click();
    await colleague.getByRole('menuitem', { name: 'Log out' }).click();
    await colleague.waitForURL('**/login');
  });

  it('the colleague resets a forgotten password through the mailed link', async () => {
    await colleague.getByRole('link', { name: 'Forgot password?' }).click();
    await colleague.waitForURL('**/password-reset');
    await colleague.getByLabel('Email').fill(COLLEAGUE.email);
    await colleague.getByRole('button', { name: 'Send reset link' }).click();
    await colleague
      .getByRole('alert')
      .filter({ hasText: 'Reset password link has been sent to your email' })
      .first()
      .waitFor();
    await screenshot(colleague, 'people-password-reset');

    const resetPath = await mailedPath(COLLEAGUE.email, 'confirm-password-reset');
    await colleague.goto(resetPath);
    await colleague.getByLabel('Password', { exact: true }).fill(COLLEAGUE.newPassword);
    await colleague.getByLabel('Confirm Password').fill(COLLEAGUE.newPassword);
    await screenshot(colleague, 'people-confirm-password-reset');
    await colleague.getByRole('button', { name: 'Save' }).click();
    await colleague.waitForURL('**/login');

    const old = await colleague.request.post('/api/token/', {
      data: { email: COLLEAGUE.email, password: COLLEAGUE.password },
    });
    expect(old.status()).toBe(401);
    await signIn(colleague, COLLEAGUE.email, COLLEAGUE.newPassword);
    await colleague.getByRole('button', { name: 'Nina Colleague-Smith' }).waitFor();
  });
});
