/**
 * Every screen at a phone's 390×844 and a desktop's 1280×800, on one fresh `npm start` (the
 * built-in Graph simulator, frozen clock, every real run held): no sideways scrolling of the page,
 * the screen's primary actions on screen and working, and no axe-core WCAG 2.1 A/AA violation.
 * Screenshots of each land in test-results/screenshots.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/browser';
import { adminApi, type AdminApi, createNoLeadsRule, openProductWithSimulator } from './support/engineScenario';
import { outbox } from './support/outbox';
import { checkScreen, DESKTOP, type Finding, PHONE } from './support/screenCheck';
import { ADMIN, type RunningProduct } from './support/server';

const MEMBER = { email: 'member@example.com', password: 'member-pass-1' };

describe('every screen on a phone and a desktop', () => {
  let product: RunningProduct;
  let browser: Browser;
  let close: (() => Promise<void>) | undefined;
  let api: AdminApi;
  let ruleId: number;
  let page: Page;

  /** Checks the screen on the phone, then on the desktop; `primary` are looked up afresh at each width. */
  async function bothWidths(screen: string, primary: (page: Page) => Locator[] = () => []): Promise<void> {
    const findings: Finding[] = [];
    await page.setViewportSize(PHONE);
    await page.waitForTimeout(200);
    findings.push(...(await checkScreen(page, screen, 'phone', primary(page))));
    await page.setViewportSize(DESKTOP);
    await page.waitForTimeout(200);
    findings.push(...(await checkScreen(page, screen, 'desktop', primary(page))));
    await page.setViewportSize(PHONE);
    if (findings.length)
      console.log(
        screen,
        JSON.stringify(
          findings.map((f) => `${f.width}: ${f.problem}`),
          null,
          1,
        ),
      );
    expect(findings.map((f) => `${f.width}: ${f.problem}`)).toEqual([]);
  }

  async function phoneContext(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ baseURL: product.url, viewport: PHONE, bypassCSP: true });
    return { context, page: await context.newPage() };
  }

  beforeAll(async () => {
    const opened = await openProductWithSimulator({ ENGINE_MAX_SHARE: '0.01' });
    ({ product, browser, close } = opened);
    await opened.page.context().close();
    api = await adminApi(product.url);
    ({ ruleId } = await createNoLeadsRule(api, opened.simulator, 'Harbor Phone Wealth'));
    ({ page } = await phoneContext());
  });
  afterAll(() => close?.());

  describe('signed out', () => {
    it('Login', async () => {
      await page.goto('/login');
      await page.getByRole('button', { name: 'Login' }).waitFor();
      await bothWidths('login', (p) => [
        p.getByRole('button', { name: 'Login' }),
        p.getByRole('link', { name: 'Forgot password?' }),
      ]);
    });

    it('Forgot password', async () => {
      await page.goto('/password-reset');
      await page.getByRole('button', { name: 'Send reset link' }).waitFor();
      await bothWidths('password-reset', (p) => [p.getByRole('button', { name: 'Send reset link' })]);
    });

    it('Privacy policy', async () => {
      await page.goto('/privacy-policy');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await bothWidths('privacy-policy');
    });

    it('Join with an unknown code', async () => {
      await page.goto('/join/not-a-real-code');
      await page.getByRole('button', { name: 'Join' }).waitFor();
      await bothWidths('join', (p) => [p.getByRole('button', { name: 'Join' })]);
    });
  });

  describe('signed in as the admin', () => {
    beforeAll(async () => {
      await page.setViewportSize(PHONE);
      await signIn(page, ADMIN.email, ADMIN.password);
      // A held run to review, and a trashed folder.
      await api('POST', `rules/${ruleId}/run_now/`, {});
      const spare = await api<{ id: number }>('POST', 'general_page/', {
        client_type: 'EDM',
        plan: 'solo',
        meta_ad_account_id: (await api<{ results: { ad_account_id: string }[] }>('GET', 'meta_ad_account/?limit=1'))
          .results[0]!.ad_account_id,
        name: 'Harbor Spare Folder',
        extension: { external_credentials: { demio: null } },
      });
      await api('POST', `folders/${spare.id}/move_to_trash/`, {});
    });

    it('General', async () => {
      await page.goto('/');
      const folder = page.getByRole('listitem', { name: 'Harbor Phone Wealth' });
      await folder.waitFor();
      await folder.getByRole('button', { name: 'Show the rules of Harbor Phone Wealth' }).click();
      await folder.getByTestId(`rule-${ruleId}`).waitFor();
      await bothWidths('general', (p) => [
        p.getByRole('button', { name: 'Create Folder' }),
        p.getByRole('button', { name: 'Admin User' }),
      ]);
    });

    it('Edit rule', async () => {
      await page.goto(`/edit-rule/${ruleId}`);
      await page.getByRole('button', { name: 'Save' }).waitFor();
      await bothWidths('edit-rule', (p) => [
        p.getByRole('button', { name: 'Save' }),
        p.getByRole('button', { name: /^Run now: / }),
      ]);
    });

    it('Activity', async () => {
      await page.goto(`/activity?rule_id=${ruleId}`);
      await page.getByRole('button', { name: /^Approve the held turn-offs/ }).waitFor({ timeout: 30_000 });
      await bothWidths('activity', (p) => [p.getByRole('button', { name: /^Approve the held turn-offs/ })]);
    });

    it('Log', async () => {
      await page.goto('/log');
      await page.getByRole('table').waitFor();
      await bothWidths('log', (p) => [p.getByRole('searchbox').or(p.getByRole('textbox', { name: /Search/ }))]);
    });

    it('Campaigns', async () => {
      await page.goto('/campaigns');
      await page.getByRole('table').waitFor({ timeout: 60_000 });
      await bothWidths('campaigns');
    });

    it('Trash', async () => {
      await page.goto('/trash/');
      await page.getByText('Harbor Spare Folder', { exact: true }).first().waitFor();
      await bothWidths('trash');
    });

    it('Account', async () => {
      await page.goto('/account');
      await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
      await bothWidths('account', (p) => [p.getByRole('button', { name: 'Save' }).first()]);
    });

    it('Team', async () => {
      await page.goto('/team');
      await page.getByRole('button', { name: 'Invite' }).waitFor();
      await bothWidths('team', (p) => [p.getByRole('button', { name: 'Invite' })]);
    });

    it('Permissions', async () => {
      await page.goto('/permissions');
      await page.getByRole('button', { name: 'New group' }).waitFor();
      await bothWidths('permissions', (p) => [p.getByRole('button', { name: 'New group' })]);
    });

    it('Not found', async () => {
      await page.goto('/no-such-screen');
      await page.waitForTimeout(1000);
      await bothWidths('not-found');
    });
  });

  describe('signed in as a member with few accesses', () => {
    it('Access denied', async () => {
      const group = await api<{ id: number }>('POST', 'groups/', {
        name: 'Log readers',
        group_access: { accesses: ['view_logs'] },
      });
      await api('POST', 'user_invite/send_invite_code/', { email: MEMBER.email, group_id: group.id });
      const mail = (await outbox(product.dataDir)).find((m) => m.to.includes(MEMBER.email))!;
      const code = new URL(mail.links[0]!).pathname.split('/').pop();
      const joined = await fetch(`${product.url}/api/user_invite/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          first_name: 'Mia',
          last_name: 'Member',
          phone: '',
          password: MEMBER.password,
          password2: MEMBER.password,
          invite_code: code,
        }),
      });
      expect(joined.status).toBe(201);
      const member = await phoneContext();
      page = member.page;
      await signIn(page, MEMBER.email, MEMBER.password);
      await page.goto('/team');
      await page.waitForTimeout(1500);
      await bothWidths('access-denied');
    });
  });
});
