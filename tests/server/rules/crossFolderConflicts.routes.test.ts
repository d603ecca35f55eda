/**
 * Conflicts across folders through the API: two folders on one ad account whose rules pull the same
 * budgets both ways are flagged on each rule — by GET /api/rules/{id}/conflicts/ (the editor) and on
 * the general view's rule rows, even when the other folder is not on the page — naming the other
 * rule and its folder; a folder on another account, a trashed folder and an inactive rule never are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { call, createFolder, insertAccount, RULES_ADMIN, type Account } from './fixtures';

const cheap = { match: 'all', conditions: [{ metric: 'cpl', window: 'last_3_days', op: '<', value: 30 }] };
const raise = { kind: 'raise_budget', level: 'adset', change: { percent: 20 }, floor: null, ceiling: null };
const lower = { kind: 'lower_budget', level: 'adset', change: { percent: 20 }, floor: null, ceiling: null };
const DETAIL =
  '"Scale winners" (folder "Cross Team A") raises budgets that "Trim spenders" (folder "Cross Team B") lowers';

interface Conflict {
  rule_id: number;
  other_rule_id: number;
  other_rule_name: string;
  other_folder_id: number;
  other_folder_name: string;
  kind: string;
  detail: string;
}
interface FolderRow {
  id: number;
  name: string;
  rules: { id: number; conflicts?: string[]; other_folder_conflicts?: Conflict[] }[];
}

eachDatabase((engine) => {
  describe(`conflicts across the folders of one ad account on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    let reader: TestUser;
    let shared: Account;
    const folderA = { id: 0, rule: 0 };
    const folderB = { id: 0, rule: 0 };
    const elsewhere = { id: 0, rule: 0 };

    /** A folder on `account` whose first rule is active with cheap-CPL conditions and `action`. */
    const folderWithRule = async (account: Account, name: string, ruleName: string, action: unknown) => {
      const folder = await createFolder(api, admin.token, account, { name });
      const rule = folder.rules[0]!.id;
      const saved = await call(api, admin.token, 'PATCH', `/api/rule/${rule}/`, {
        name: ruleName,
        conditions: cheap,
        action,
        is_active: true,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      return { id: folder.id, rule };
    };

    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith(RULES_ADMIN);
      reader = await api.userWith(['read_rules']);
      shared = await insertAccount(api, { accountName: 'Cross Shared Ads' });
      Object.assign(folderA, await folderWithRule(shared, 'Cross Team A', 'Scale winners', raise));
      Object.assign(folderB, await folderWithRule(shared, 'Cross Team B', 'Trim spenders', lower));
      const other = await insertAccount(api, { accountName: 'Cross Other Ads' });
      Object.assign(elsewhere, await folderWithRule(other, 'Cross Elsewhere', 'Trim elsewhere', lower));
    });
    afterAll(() => api.close());

    const conflictsOf = async (ruleId: number, user = reader) => {
      const response = await call(api, user.token, 'GET', `/api/rules/${ruleId}/conflicts/`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as Conflict[];
    };
    const listed = async (search: string) => {
      const response = await call(api, reader.token, 'GET', `/api/general_page/?search=${encodeURIComponent(search)}`);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { results: FolderRow[] }).results;
    };

    it('answers each rule its conflict with the rule of the other folder, naming that rule and folder', async () => {
      expect(await conflictsOf(folderA.rule)).toEqual([
        {
          rule_id: folderA.rule,
          rule_name: 'Scale winners',
          folder_id: folderA.id,
          folder_name: 'Cross Team A',
          other_rule_id: folderB.rule,
          other_rule_name: 'Trim spenders',
          other_folder_id: folderB.id,
          other_folder_name: 'Cross Team B',
          kind: 'opposite_budgets',
          detail: DETAIL,
        },
      ]);
      expect(await conflictsOf(folderB.rule)).toEqual([
        expect.objectContaining({ other_rule_id: folderA.rule, other_folder_name: 'Cross Team A', detail: DETAIL }),
      ]);
      // The same action on another ad account pulls other budgets.
      expect(await conflictsOf(elsewhere.rule)).toEqual([]);
    });

    it('flags them on the general view’s rule rows, the other folder on the page or not', async () => {
      const both = await listed('Cross Team');
      const rowOf = (rows: FolderRow[], id: number) => rows.find((f) => f.id === id)!.rules[0]!;
      for (const [rows, folder, other] of [
        [both, folderA, folderB],
        [both, folderB, folderA],
        [await listed('Cross Team A'), folderA, folderB],
      ] as const) {
        const row = rowOf(rows, folder.id);
        expect(row.conflicts).toBeUndefined();
        expect(row.other_folder_conflicts).toEqual([
          expect.objectContaining({ other_rule_id: other.rule, other_folder_id: other.id, kind: 'opposite_budgets' }),
        ]);
      }
      const one = (await call(api, reader.token, 'GET', `/api/general_page/${folderA.id}/`)).json() as FolderRow;
      expect(one.rules[0]!.other_folder_conflicts?.map((c) => c.other_folder_name)).toEqual(['Cross Team B']);
      expect(rowOf(await listed('Cross Elsewhere'), elsewhere.id).other_folder_conflicts).toBeUndefined();
    });

    it('drops the conflict while the other rule is off, and when its folder goes to the trash', async () => {
      await call(api, admin.token, 'PATCH', `/api/rule/${folderB.rule}/`, { is_active: false });
      expect(await conflictsOf(folderA.rule)).toEqual([]);
      await call(api, admin.token, 'PATCH', `/api/rule/${folderB.rule}/`, { is_active: true });
      expect(await conflictsOf(folderA.rule)).toHaveLength(1);

      const trashed = await call(api, admin.token, 'POST', `/api/folders/${folderB.id}/move_to_trash/`);
      expect(trashed.statusCode, trashed.body).toBeLessThan(300);
      expect(await conflictsOf(folderA.rule)).toEqual([]);
      expect(await conflictsOf(folderB.rule)).toEqual([]);
      expect((await listed('Cross Team A'))[0]!.rules[0]!.other_folder_conflicts).toBeUndefined();
    });

    it('needs read_rules, and answers 404 for an unknown rule', async () => {
      const outsider = await api.userWith(['view_logs']);
      expect((await call(api, outsider.token, 'GET', `/api/rules/${folderA.rule}/conflicts/`)).statusCode).toBe(403);
      expect((await call(api, reader.token, 'GET', '/api/rules/999999/conflicts/')).statusCode).toBe(404);
    });
  });
});
