/**
 * Trying a rule on history, end to end on a fresh `npm start` (the built-in Graph simulator, its
 * clock stopped, each account's history filled from its breakdowns at the first sync): in the rule
 * editor, "Try on history" refuses a rule with no task on, then replays the editor's unsaved
 * settings — "spend over $40 with no leads" on the Harbor Wealth campaigns, whose ads have history —
 * over the last 7 days and shows the totals, the pauses per day and the table of pauses, each with
 * its numbers and threshold, what the ad did after and the verdict. From there, and from the rule's
 * row in the general view, the impact report shows what the rule really did: its one turn-off (Run
 * now on the simulator's no-leads ad), the spend that avoided and how that is estimated.
 * Screenshots of both screens at a phone's and a desktop's width.
 */
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../support/waitUntil';
import { settled, signIn } from './support/browser';
import { adminApi, createNoLeadsRule, openProductWithSimulator, simStatus } from './support/engineScenario';
import { checkScreen, DESKTOP, PHONE } from './support/screenCheck';
import { ADMIN, ROOT } from './support/server';

const NO_LEADS_TASK = 'Turn off the ad if spend is above a value and leads are 0';

/** "$1,234.50" → 1234.5 */
const dollars = (text: string) => Number(text.replace(/[$,]/g, ''));

describe('a rule tried on history, then its impact report, in a real browser', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let simulator: string;
  let ruleId: number;
  let noLeadsAd: string;
  let ruleName: string;

  beforeAll(async () => {
    const opened = await openProductWithSimulator();
    ({ close, simulator } = opened);
    // Axe (the screens' checks) is added to the page as a script tag, which the app's CSP would refuse.
    await opened.page.context().close();
    const context = await opened.browser.newContext({
      baseURL: opened.product.url,
      viewport: DESKTOP,
      bypassCSP: true,
    });
    context.setDefaultNavigationTimeout(120_000);
    page = await context.newPage();
    const api = await adminApi(opened.product.url);
    let folderId: number;
    ({ ruleId, noLeadsAd, folderId } = await createNoLeadsRule(api, simulator, 'Harbor Backtest'));
    ruleName = (await api<{ name: string }>('GET', `rule/${ruleId}/`)).name;
    // The account's history is filled in the background after its first sync.
    await waitUntil(
      async () => (await api<{ readings: number }>('GET', `history/?folder=${folderId}`)).readings,
      "the account's history to be filled",
      { timeoutMs: 120_000, intervalMs: 1_000 },
    );
  });
  afterAll(() => close?.());

  /**
   * Holds the screen to the checks of every screen (support/screenCheck.ts) at a phone's and a
   * desktop's width, and keeps test-results/screenshots/<width>-<name>.png (as the other browser
   * tests do; docs/screenshots is refreshed from there by hand): of `part` whole (a window tall
   * enough to hold it), or of the whole page.
   */
  const checkAndKeep = async (name: string, primary: (page: Page) => Locator[], part?: () => Locator) => {
    const findings: string[] = [];
    for (const [size, width] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      await page.setViewportSize(size);
      await settled(page);
      findings.push(...(await checkScreen(page, name, width, primary(page))).map((f) => `${width}: ${f.problem}`));
      const file = path.join(ROOT, 'test-results', 'screenshots', `${width}-${name}.png`);
      if (part) {
        // As tall as its title, content and actions are, so nothing of it scrolls out of the picture.
        const height = await part().evaluate((el: { children: ArrayLike<{ scrollHeight: number }> }) =>
          Array.from(el.children).reduce((sum, child) => sum + child.scrollHeight, 0),
        );
        await page.setViewportSize({ width: size.width, height: height + 80 });
        await settled(page);
        await part().screenshot({ path: file });
      } else await page.screenshot({ path: file, fullPage: true });
    }
    await page.setViewportSize(DESKTOP);
    return findings;
  };

  const dialog = () => page.getByRole('dialog', { name: 'Try this rule on history' });

  it('Run now turns off the simulator’s no-leads ad: the rule’s one real turn-off', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.setViewportSize(DESKTOP);
    await page.goto(`/edit-rule/${ruleId}`);
    await page.getByRole('button', { name: /^Run now: / }).click();
    const run = page.getByRole('dialog');
    await run.getByRole('button', { name: 'Run now' }).click();
    await run.getByText(/^Ran "/).waitFor({ timeout: 60_000 });
    expect(await run.getByRole('alert').first().textContent()).toBe('1 turned off');
    await run.getByRole('button', { name: 'Close' }).click();
    expect(await simStatus(simulator, noLeadsAd)).toBe('PAUSED');
  });

  it('refuses to try a rule with no task on, and says so', async () => {
    await page.getByRole('switch', { name: `Turn on: ${NO_LEADS_TASK}` }).uncheck();
    await page.getByRole('button', { name: 'Try on history' }).click();
    await dialog()
      .getByText(/^History of .+ \(act_\d+\): \d+\/\d+\/\d{4} to \d+\/\d+\/\d{4}, \d+ ads/)
      .waitFor();
    await dialog().getByRole('button', { name: 'Run', exact: true }).click();
    await dialog().getByText('Turn on at least one task to try the rule on history.').waitFor();
    expect(await dialog().getByRole('table').count()).toBe(0);
    await dialog().getByRole('button', { name: 'Close' }).click();
    await page.getByRole('switch', { name: `Turn on: ${NO_LEADS_TASK}` }).check();
  });

  it('replays the unsaved settings over 7 days: totals, pauses per day and each pause with its numbers and verdict', async () => {
    // Unsaved: the Harbor Wealth campaigns instead of SS-W (whose scenario ad came after the history fill).
    const campaigns = page.getByRole('combobox', { name: 'Campaign name contains' });
    await campaigns.click();
    await campaigns.press('Backspace');
    await campaigns.fill('Harbor Wealth');
    await campaigns.press('Enter');
    await campaigns.press('Escape');
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isEnabled()).toBe(true);

    await page.getByRole('button', { name: 'Try on history' }).click();
    await dialog().getByRole('button', { name: 'Last 7 days' }).click();
    await dialog().getByRole('button', { name: 'Run', exact: true }).click();
    const table = dialog().getByRole('table', { name: 'Try this rule on history' });
    await table.waitFor({ timeout: 120_000 });

    const rows = table.locator('tbody tr');
    const count = await rows.count();
    expect(count).toBeGreaterThan(0);
    let made = 0;
    let converters = 0;
    let spentAfter = 0;
    let leadsAfter = 0;
    const verdicts = new Set<string>();
    for (let i = 0; i < count; i += 1) {
      const cells = rows.nth(i).locator('td');
      // When (in the rule's zone), the ad and its campaign, what triggered it, what it did after, the verdict.
      expect(await cells.nth(0).textContent()).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d\d [AP]M$/);
      expect(await cells.nth(1).textContent()).toContain('Harbor Wealth');
      const trigger = (await cells.nth(2).textContent()) ?? '';
      expect(trigger).toMatch(new RegExp(`^${NO_LEADS_TASK}Spend: \\$[\\d,]+\\.\\d\\d > \\$40\\.00Leads: 0`));
      expect(dollars(/Spend: (\S+) >/.exec(trigger)![1]!)).toBeGreaterThan(40);
      const after = /^(\$[\d,]+\.\d\d) spent, (\d+) leads?; final CPL (\$[\d,]+\.\d\d|—)$/.exec(
        (await cells.nth(3).textContent()) ?? '',
      );
      expect(after).not.toBeNull();
      const verdict = (await cells.nth(4).textContent()) ?? '';
      verdicts.add(verdict);
      // A converter went on to bring leads; waste did not.
      if (verdict === 'Would have paused a converter') expect(Number(after![2])).toBeGreaterThan(0);
      if (verdict === 'Stopped waste') expect(after![2]).toBe('0');
      if (verdict === 'Held') continue;
      made += 1;
      if (verdict === 'Would have paused a converter') converters += 1;
      spentAfter += dollars(after![1]!);
      leadsAfter += Number(after![2]);
    }
    expect(verdicts).toContain('Stopped waste');
    expect(verdicts).toContain('Would have paused a converter');

    // The totals are the table's: pauses made, converters among them, and what those went on to spend and bring.
    const total = async (label: string) =>
      (await dialog().getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]').textContent()) ?? '';
    expect(Number(await total('Pauses'))).toBe(made);
    expect(Number(await total('Converters paused'))).toBe(converters);
    expect(dollars(await total('Spend stopped (estimated)'))).toBeCloseTo(spentAfter, 2);
    expect(Number(await total('Leads lost (estimated)'))).toBe(leadsAfter);
    await dialog()
      .getByText(/^Estimated from the later history/)
      .waitFor();

    // The timeline: one bar per day of the span, its accessible summary the pauses of each day.
    const timeline = dialog().getByRole('img', { name: /^\d{1,2}\/\d{1,2}\/\d{4}: \d+/ });
    const perDay = ((await timeline.getAttribute('aria-label')) ?? '').split(', ').map((d) => Number(d.split(': ')[1]));
    expect(perDay.length).toBeGreaterThanOrEqual(7);
    expect(perDay.reduce((sum, n) => sum + n, 0)).toBe(count);

    expect(
      await checkAndKeep('backtest', () => [dialog().getByRole('button', { name: 'Run', exact: true })], dialog),
    ).toEqual([]);
  });

  it('goes on to the rule’s impact report: its real turn-off, the spend it avoided and how that is estimated', async () => {
    await dialog().getByRole('link', { name: 'Impact' }).click();
    // The editor holds unsaved changes: leaving asks first.
    await page.getByRole('dialog', { name: 'Leave the page?' }).getByRole('button', { name: 'Leave' }).click();
    await expectImpactOfTheRule();
  });

  it('reaches the same report from the rule’s row in the general view, and keeps its screenshots', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    const folder = page.getByRole('listitem', { name: 'Harbor Backtest' });
    await folder.getByRole('button', { name: 'Show the rules of Harbor Backtest' }).click();
    await folder.getByRole('link', { name: `Impact of rule ${ruleName}` }).click();
    await expectImpactOfTheRule();
    expect(await checkAndKeep('impact', (p) => [p.getByRole('button', { name: 'Export CSV' })])).toEqual([]);
  });

  async function expectImpactOfTheRule() {
    await page.getByRole('heading', { level: 1, name: `Impact of ${ruleName}` }).waitFor({ timeout: 60_000 });
    expect(new URL(page.url()).search).toBe(`?scope=rule&id=${ruleId}`);
    const total = async (label: string) =>
      (await page.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]').textContent()) ?? '';
    expect(await total('Turn-offs')).toBe('1');
    const row = page.getByRole('table').locator('tbody tr');
    expect(await row.count()).toBe(1);
    const cells = row.first().locator('td');
    expect(await cells.nth(1).textContent()).toContain(noLeadsAd);
    expect(await cells.nth(2).textContent()).toBe(`${ruleName}Harbor Backtest`);
    // The avoided spend in the row is the total's, and says how it was reckoned.
    const avoided = (await cells.nth(4).textContent()) ?? '';
    expect(avoided.startsWith(await total('Spend avoided (estimated)'))).toBe(true);
    await page.getByRole('region', { name: 'How these numbers are estimated' }).waitFor();
    expect(await page.getByRole('region', { name: 'How these numbers are estimated' }).textContent()).toMatch(
      /^How these numbers are estimatedSpend avoided is estimated per turn-off: the object’s spend per hour/,
    );
  }
});
