import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signIn } from './support/browser';
import { openProduct } from './support/product';
import { ADMIN, type RunningProduct } from './support/server';

describe('a newcomer signs in to a fresh `npm start`', () => {
  let product: RunningProduct;
  let page: Page;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ product, page, close } = await openProduct());
  });
  afterAll(() => close?.());

  it('sends an unauthenticated visitor to the login screen', async () => {
    await page.goto('/team');
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await expect(page.title()).resolves.toMatch(/^Ad Rules Console/);
    await screenshot(page, 'login');
  });

  it('shows a wrong password as the server detail below the form', async () => {
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.locator('input[type=password]').fill('not-the-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('No active account found with the given credentials').waitFor();
  });

  it('signs in through the form and shows the signed-in shell', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByText('Admin User').waitFor();
    await page
      .getByRole('button', { name: /open menu|menu/i })
      .first()
      .click();
    await page.getByRole('link', { name: 'Campaigns' }).waitFor();
    await screenshot(page, 'shell-with-side-panel');
    await page.keyboard.press('Escape');
  });

  it('keeps the session across a reload', async () => {
    await page.reload();
    await page.getByText('Admin User').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('auth') ?? 'null'));
    expect(stored).toMatchObject({ isAuthenticated: true, user: { email: ADMIN.email } });
  });

  it('sends a signed-in user who opens /login back to /', async () => {
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('logs out from the user menu and lands on the login screen', async () => {
    await page.getByText('Admin User').click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('auth') ?? 'null'));
    expect(stored?.access_token ?? null).toBeNull();
    await page.goto('/');
    await page.waitForURL('**/login');
  });

  it('keeps every record across a restart: the same admin signs in, no new password is printed', async () => {
    await product.restart({ ADMIN_PASSWORD: '' });
    expect(product.output()).not.toMatch(/Created the admin account/);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByText('Admin User').waitFor();
  });
});
