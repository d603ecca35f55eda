/**
 * A business connected from the app, end to end on a fresh `npm start` with the Graph simulator:
 * the simulator issues a system user's token for a business reaching two of its ad accounts; the
 * admin opens Meta connections from the side panel (the built-in simulator token listed read-only),
 * gives a token Meta refuses and reads why under the field, then the right one and sees the ad
 * accounts it reaches, the token nowhere on the page. Once the token is revoked, the next sync's
 * health check marks the connection and the folder of an account it serves. Screenshots at both widths.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/browser';
import { adminApi, openProductWithSimulator, type AdminApi } from './support/engineScenario';
import { checkBothWidths, DESKTOP } from './support/screenCheck';
import { ADMIN } from './support/server';

interface IssuedToken {
  token: string;
  business: { name: string };
}

describe('connecting a business from the app', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let api: AdminApi;
  let simulator: string;
  let issued: IssuedToken;
  let reached: { ad_account_id: string; account_name: string }[];

  beforeAll(async () => {
    const opened = await openProductWithSimulator({ SIMULATOR_SCENARIOS: 'none' });
    ({ close, simulator } = opened);
    // Axe (the screens' checks) is added to the page as a script tag, which the app's CSP would refuse.
    await opened.page.context().close();
    const context = await opened.browser.newContext({
      baseURL: opened.product.url,
      viewport: DESKTOP,
      bypassCSP: true,
    });
    page = await context.newPage();
    api = await adminApi(opened.product.url);
    const { results } = await api<{ results: { ad_account_id: string; account_name: string }[] }>(
      'GET',
      'meta_ad_account/?limit=400',
    );
    reached = results.slice(0, 2);
    const response = await fetch(`${simulator}/__sim/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        system_user: 'Rules Robot',
        business: 'Northwind Advisors',
        accounts: reached.map((a) => a.ad_account_id),
        expires_in_days: 60,
      }),
    });
    expect(response.status).toBe(201);
    issued = (await response.json()) as IssuedToken;
    await api('POST', 'general_page/', {
      client_type: 'EDM',
      plan: 'solo',
      meta_ad_account_id: reached[0]!.ad_account_id,
      name: 'Northwind folder',
      extension: { external_credentials: { demio: null } },
    });
  });
  afterAll(() => close?.());

  it('adds the connection with a simulator-issued token and lists the ad accounts it reaches', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Meta connections' }).click();
    await page.waitForURL('**/meta_connections');
    await page.getByText('Built-in: the Graph simulator').waitFor();
    await page.getByRole('link', { name: 'Add connection' }).click();
    await page.waitForURL('**/meta_connections/create');

    const token = page.getByLabel('System-user token');
    await token.fill('EAAnot-a-token-meta-issued');
    await page.getByRole('button', { name: 'Add connection' }).click();
    // Under the field, and in the snackbar.
    const refused = 'Meta refused this token: Invalid OAuth access token - Cannot parse access token';
    await page.getByRole('alert').getByText(refused, { exact: true }).waitFor();
    const helper = page.locator(`[id="${await token.getAttribute('aria-describedby')}"]`);
    expect(await helper.textContent()).toBe(refused);
    expect(await checkBothWidths(page, 'meta-connection-refused', (p) => [p.getByLabel('System-user token')])).toEqual(
      [],
    );

    await page.setViewportSize(DESKTOP);
    await token.fill(issued.token);
    await page.getByRole('button', { name: 'Add connection' }).click();
    await page.waitForURL(/\/meta_connections\/\d+\/show$/);
    await page.getByRole('heading', { name: 'Ad accounts it reaches (2)' }).waitFor();
    for (const account of reached) {
      await page.getByText(account.account_name, { exact: true }).waitFor();
      await page.getByText(account.ad_account_id, { exact: true }).waitFor();
    }
    await page.getByText('Rules Robot').waitFor();
    expect(await page.content()).not.toContain(issued.token);
    expect(await checkBothWidths(page, 'meta-connection-show')).toEqual([]);

    await page.setViewportSize(DESKTOP);
    await page.getByRole('link', { name: 'Meta connections' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Northwind Advisors' });
    await row.getByText('Working').waitFor();
    await expect(row.getByRole('cell').nth(4).textContent()).resolves.toBe('2');
    expect(
      await checkBothWidths(page, 'meta-connections', (p) => [p.getByRole('link', { name: 'Add connection' })]),
    ).toEqual([]);
  });

  it('shows a revoked token on the connection and on the folder of an account it serves', async () => {
    expect((await fetch(`${simulator}/__sim/tokens/${issued.token}`, { method: 'DELETE' })).status).toBe(200);
    // A sync runs the health check after it (as every CAMPAIGN_SYNC_MINUTES).
    await api('POST', 'campaigns/sync/', {});
    await page.setViewportSize(DESKTOP);
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'Northwind Advisors' });
    await row.getByText('Not working').waitFor();
    expect(await checkBothWidths(page, 'meta-connections-revoked')).toEqual([]);

    await page.goto('/');
    const badge = page.getByText('Ad account unhealthy: its rules are held');
    await badge.waitFor();
    await badge.hover();
    await page
      .getByRole('tooltip')
      .getByText(/Token: Error validating access token/)
      .waitFor();
  });
});
