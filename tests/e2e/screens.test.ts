/**
 * Every screen at a phone's 390×844 and a desktop's 1280×800, on one fresh `npm start` (the
 * built-in Graph simulator, frozen clock, every real run held): no sideways scrolling of the page,
 * the screen's primary actions on screen and working, and no axe-core WCAG 2.1 A/AA violation.
 * Screenshots of each land in test-results/screenshots.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled, signIn } from './support/browser';
import { adminApi, type AdminApi, createNoLeadsRule, openProductWithSimulator } from './support/engineScenario';
import { joinFromInvitation, outbox } from './support/outbox';
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
    await settled(page);
    findings.push(...(await checkScreen(page, screen, 'phone', primary(page))));
    await page.setViewportSize(DESKTOP);
    await settled(page);
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
    // The first load of a fresh start can be slow on a busy machine.
    context.setDefaultNavigationTimeout(120_000);
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
      await bothWidths('privacy-policy', (p) => [p.getByRole('link', { name: 'Back to Ad Rules Console' })]);
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
      // Two held runs to decide (one from its mail, one in Activity), and a trashed folder.
      for (const _ of [1, 2]) {
        const run = await api<{ status: string; detail: string }>('POST', `rules/${ruleId}/run_now/`, {});
        expect(run.status, run.detail).toBe('held');
      }
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
      // On the phone the rule's actions are behind its menu, and they work from there.
      await folder.getByRole('button', { name: 'Actions for New rule' }).click();
      await page.getByRole('menuitem', { name: 'Preview what New rule would turn off' }).click();
      const preview = page.getByRole('dialog', { name: /Preview/ });
      await preview
        .getByText(/would turn off/)
        .first()
        .waitFor({ timeout: 30_000 });
      await preview.getByRole('button', { name: 'Close' }).click();
      await preview.waitFor({ state: 'detached' });
    });

    it('Edit rule', async () => {
      await page.goto(`/edit-rule/${ruleId}`);
      await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
      await bothWidths('edit-rule', (p) => [
        p.getByRole('button', { name: 'Save', exact: true }),
        p.getByRole('button', { name: /^Run now: / }),
        p.locator('label').filter({ hasText: /^Active$/ }),
      ]);
      // The Active switch saves and switches on in one go, from the phone (a held run is approved
      // only while its rule is on).
      await page.getByRole('switch', { name: 'Active' }).click();
      await page.getByText('Rule saved and switched on').waitFor();
      expect(await page.getByRole('switch', { name: 'Active' }).isChecked()).toBe(true);
    });

    it('Held run, from the link in its alert mail: Dismiss on the phone', async () => {
      const held = (await outbox(product.dataDir)).filter((m) => m.subject.startsWith('Held for approval'));
      expect(held.length).toBe(2);
      const link = new URL(held[0]!.links[0]!);
      expect(link.pathname).toBe(`/edit-rule/${ruleId}`);
      await page.goto(link.pathname + link.search);
      const runId = link.searchParams.get('run')!;
      const detail = page.getByTestId(`run-detail-${runId}`);
      const dismiss = detail.getByRole('button', { name: `Dismiss the held changes of run ${runId}` });
      await dismiss.waitFor();
      await bothWidths('held-run', (p) => [
        p.getByTestId(`run-detail-${runId}`).getByRole('button', { name: /^Dismiss the held/ }),
        p.getByTestId(`run-detail-${runId}`).getByRole('button', { name: /^Approve the held/ }),
      ]);
      await dismiss.click();
      await page.getByText('Dismissed: nothing is turned off.').waitFor();
      await detail.getByText(/^Dismissed by Admin User/).waitFor();
    });

    it('Activity: Approve on the phone', async () => {
      await page.goto(`/activity?rule_id=${ruleId}`);
      const approve = page.getByRole('button', { name: /^Approve the held changes/ }).first();
      await approve.waitFor({ timeout: 30_000 });
      await page.getByText('Held run, dismissed').waitFor();
      await bothWidths('activity', (p) => [p.getByRole('button', { name: /^Approve the held changes/ })]);
      await approve.click();
      await page
        .getByRole('dialog', { name: 'Carry out the held changes?' })
        .getByRole('button', { name: 'Approve' })
        .click();
      await page.getByText(/^Approved: \d+ turned off$/).waitFor({ timeout: 30_000 });
      await page.getByText('Held run, approved').waitFor();
    });

    it('Log', async () => {
      await page.goto('/log');
      await page.getByRole('table').waitFor();
      await bothWidths('log', (p) => [p.getByRole('searchbox').or(p.getByRole('textbox', { name: /Search/ }))]);
    });

    it('Campaigns', async () => {
      await page.goto('/campaigns');
      // A table on a desktop, a card per campaign on a phone.
      await page
        .getByRole('table')
        .or(page.getByRole('list', { name: 'Campaigns' }))
        .waitFor({ timeout: 60_000 });
      await bothWidths('campaigns');
    });

    it('Trash', async () => {
      await page.goto('/trash/');
      await page.getByText('Harbor Spare Folder', { exact: true }).first().waitFor();
      await bothWidths('trash');
      await page.getByRole('button', { name: 'Actions for Harbor Spare Folder' }).click();
      await page.getByRole('menuitem', { name: 'Restore Harbor Spare Folder' }).click();
      await page.getByText('Restored', { exact: true }).waitFor();
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
      await page.getByRole('button', { name: 'Invite' }).click();
      await page.getByRole('dialog', { name: 'Invite a colleague' }).waitFor();
      await page.keyboard.press('Escape');
    });

    it('Permissions', async () => {
      await page.goto('/permissions');
      await page.getByRole('link', { name: 'New group' }).waitFor();
      await bothWidths('permissions', (p) => [p.getByRole('link', { name: 'New group' })]);
    });

    it('Not found', async () => {
      await page.goto('/no-such-screen');
      await page.getByRole('heading', { name: 'Page not found' }).first().waitFor();
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
      await joinFromInvitation(product, MEMBER.email, MEMBER.password);
      const member = await phoneContext();
      page = member.page;
      await signIn(page, MEMBER.email, MEMBER.password);
      await page.goto('/team');
      await page.getByRole('heading', { name: 'Access denied' }).first().waitFor();
      await bothWidths('access-denied');
    });
  });
});
