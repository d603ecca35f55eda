/**
 * Conflicts across folders in a real browser, on a fresh `npm start` (ad accounts from the built-in
 * Graph simulator): two folders on one ad account — a client's two teams — whose rules pull the same
 * ad set budgets both ways. The general view flags each rule with the other rule and its folder (a
 * link to it); the rule editor lists the conflict under "rules of other folders", naming the other
 * rule and folder, and its link opens that rule's editor, which names the first. Screenshots at
 * 1280 and 390 px: docs/screenshots/conflicts-cross-folder-{1280,390}.png (the editor's card) and
 * test-results/screenshots/conflicts-cross-folder-general-{1280,390}.png.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/browser';
import { adminApi, openProductWithSimulator, type AdminApi } from './support/engineScenario';
import { DESKTOP, pageOverflow, PHONE } from './support/screenCheck';
import { ADMIN, ROOT } from './support/server';

const TEAM_A = 'Harbor Wealth — Planning team';
const TEAM_B = 'Harbor Wealth — Growth team';
const RAISES = 'Scale cheap ad sets';
const LOWERS = 'Trim dear ad sets';
const cheap = { match: 'all', conditions: [{ metric: 'cpl', window: 'last_3_days', op: '<', value: 30 }] };

describe('conflicts across two folders of one ad account in a real browser', () => {
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let api: AdminApi;
  const ruleOf: Record<string, number> = {};

  /** A folder on `account` whose first rule, named `ruleName`, is active and changes ad set budgets `kind`. */
  const folderWithBudgetRule = async (account: string, name: string, ruleName: string, kind: string) => {
    const folder = await api<{ id: number; rules: { id: number }[] }>('POST', 'general_page/', {
      client_type: 'EDM',
      plan: 'solo',
      meta_ad_account_id: account,
      name,
      extension: { external_credentials: { demio: null } },
    });
    const ruleId = folder.rules[0]!.id;
    await api('PATCH', `rule/${ruleId}/`, {
      name: ruleName,
      conditions: cheap,
      action: { kind, level: 'adset', change: { percent: 20 }, floor: null, ceiling: null },
      is_active: true,
    });
    ruleOf[ruleName] = ruleId;
  };

  /** Shoots `part` at 1280 and at 390 px into `dir`/`name`-<width>.png; the page never scrolls sideways. */
  const bothWidths = async (dir: string, name: string, part: () => Locator) => {
    await mkdir(dir, { recursive: true });
    for (const [size, width] of [
      [DESKTOP, 1280],
      [PHONE, 390],
    ] as const) {
      await page.setViewportSize(size);
      await part().waitFor();
      // From the top of the page, where the editor's sticky toolbar covers nothing.
      await page.evaluate('window.scrollTo(0, 0)');
      const box = (await part().boundingBox())!;
      await page.screenshot({
        path: path.join(dir, `${name}-${width}.png`),
        fullPage: true,
        clip: { x: 0, y: Math.max(0, box.y - 8), width: size.width, height: box.height + 16 },
      });
      expect(await pageOverflow(page), `${name} at ${width} px: the page scrolls sideways`).toBe(0);
    }
    await page.setViewportSize(DESKTOP);
  };

  beforeAll(async () => {
    const opened = await openProductWithSimulator();
    ({ page, close } = opened);
    api = await adminApi(opened.product.url);
    const accounts = await api<{ results: { ad_account_id: string }[] }>('GET', 'meta_ad_account/?limit=400');
    const shared = accounts.results[0]!.ad_account_id;
    await folderWithBudgetRule(shared, TEAM_A, RAISES, 'raise_budget');
    await folderWithBudgetRule(shared, TEAM_B, LOWERS, 'lower_budget');
  });
  afterAll(() => close?.());

  const folderRow = (name: string) => page.getByRole('listitem', { name });
  /** The link naming another folder's rule: on a rule row's chip, or in the editor. */
  const linkTo = (within: Locator, ruleName: string, folderName: string) =>
    within.getByRole('link', { name: `Conflicts with rule “${ruleName}” in folder “${folderName}”` });

  it('flags each rule on the general view with the rule and folder it works against', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.setViewportSize(DESKTOP);
    for (const name of [TEAM_A, TEAM_B])
      await folderRow(name)
        .getByRole('button', { name: `Show the rules of ${name}` })
        .click();
    await folderRow(TEAM_A).getByRole('link', { name: RAISES, exact: true }).waitFor();
    const chipA = linkTo(folderRow(TEAM_A), LOWERS, TEAM_B);
    const chipB = linkTo(folderRow(TEAM_B), RAISES, TEAM_A);
    await chipA.waitFor();
    await chipB.waitFor();
    expect(await chipA.getAttribute('href')).toBe(`/edit-rule/${ruleOf[LOWERS]}`);
    await bothWidths(path.join(ROOT, 'test-results', 'screenshots'), 'conflicts-cross-folder-general', () =>
      page.getByRole('list', { name: 'General' }),
    );
  });

  it('lists the conflict in the rule editor with the other folder’s name, and its link opens that rule', async () => {
    await page.goto(`/edit-rule/${ruleOf[RAISES]}`);
    const card = page.getByRole('alert').filter({ hasText: 'rule of another folder on the same ad account' });
    await card.waitFor();
    expect(await card.textContent()).toContain(
      `"${RAISES}" (folder "${TEAM_A}") raises budgets that "${LOWERS}" (folder "${TEAM_B}") lowers`,
    );
    await bothWidths(path.join(ROOT, 'docs', 'screenshots'), 'conflicts-cross-folder', () =>
      page.getByRole('alert').filter({ hasText: 'rule of another folder on the same ad account' }),
    );

    await linkTo(card, LOWERS, TEAM_B).click();
    await page.waitForURL(`**/edit-rule/${ruleOf[LOWERS]}`);
    await linkTo(page.getByRole('alert'), RAISES, TEAM_A).waitFor();
  });
});
