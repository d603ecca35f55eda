/**
 * Templates through the API on both databases: a folder using one, another overriding a threshold,
 * a template edit reaching every inheriting field in one transaction with one log entry naming the
 * folders, a refused edit changing nothing, link, reset, leave, delete, the preview's counts, and
 * who may do what (the permission matrix).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { call, createFolder, insertAccount, RULES_ADMIN } from '../rules/fixtures';

const cplTask = (cpl: string, is_active = true) => ({ name: 'trigger_cpl', values: { cpl }, is_active });
const taskOf = (
  rule: { rule_task: { name: string; values: Record<string, string>; is_active: boolean }[] },
  name: string,
) => rule.rule_task.find((t) => t.name === name)!;

eachDatabase((engine) => {
  describe(`rule templates on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    let scoped: TestUser;
    let reader: TestUser;
    let folderA: number;
    let folderB: number;
    let folderC: number;
    let lookalikeRule: number;
    let templateId: number;
    let ruleA: number;
    let ruleB: number;

    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith(RULES_ADMIN);
      const account = await insertAccount(api, { accountName: 'Shared Account' });
      folderA = (await createFolder(api, admin.token, account, { name: 'Alpha Advisers' })).id;
      folderB = (await createFolder(api, admin.token, account, { name: 'Bravo Wealth' })).id;
      const c = await createFolder(api, admin.token, account, { name: 'Charlie Planning' });
      folderC = c.id;
      lookalikeRule = c.rules[0]!.id;
      // Charlie's own rule does what the template will do, with its own threshold.
      await call(api, admin.token, 'PATCH', `/api/rule/${lookalikeRule}/`, { rule_task: [cplTask('65')] });
      scoped = await api.userWith(['read_rules', 'create_update_rules', 'view_logs']);
      // The scoped editor's group covers Alpha only.
      await api.dbh.sql.query(
        'update groups set rule_folder_ids = $1 where id in (select group_id from user_groups where user_id = $2)',
        [[folderA], scoped.id],
      );
      reader = await api.userWith(['read_rules']);
    });
    afterAll(() => api.close());

    const get = async (path: string, token = admin.token) => (await call(api, token, 'GET', path)).json();
    const lastLog = async () =>
      (await call(api, admin.token, 'GET', '/api/log/?ordering=-timestamp')).json().results[0];

    it('creates a template of the defaults and lists it', async () => {
      const created = await call(api, admin.token, 'POST', '/api/templates/', { name: 'CPL guard' });
      expect(created.statusCode, created.body).toBe(201);
      templateId = created.json().id;
      const edit = await call(api, admin.token, 'PATCH', `/api/templates/${templateId}/`, {
        rule_task: [cplTask('50')],
        is_active: true,
      });
      expect(edit.statusCode, edit.body).toBe(200);
      expect(taskOf(edit.json().values, 'trigger_cpl')).toMatchObject({ values: { cpl: '50' }, is_active: true });
      const list = await get('/api/templates/');
      expect(list.results).toContainEqual(expect.objectContaining({ id: templateId, name: 'CPL guard', folders: 0 }));
      expect((await lastLog()).action).toBe('Template updated');
    });

    it('refuses a name with a control character as a field error', async () => {
      const refused = await call(api, admin.token, 'POST', '/api/templates/', { name: '\u0000b' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ name: ['Field must not contain control characters'] });
    });

    it('two folders use it: their rules take its values and say they follow it', async () => {
      const a = await call(api, admin.token, 'POST', `/api/templates/${templateId}/folders/`, { folder: folderA });
      const b = await call(api, admin.token, 'POST', `/api/templates/${templateId}/folders/`, { folder: folderB });
      expect(a.statusCode, a.body).toBe(201);
      expect(b.statusCode, b.body).toBe(201);
      ruleA = a.json().id;
      ruleB = b.json().id;
      expect(a.json()).toMatchObject({
        name: 'CPL guard',
        is_active: true,
        template: { id: templateId, overrides: [] },
      });
      expect(taskOf(a.json(), 'trigger_cpl').values.cpl).toBe('50');
      const again = await call(api, admin.token, 'POST', `/api/templates/${templateId}/folders/`, { folder: folderA });
      expect(again.statusCode).toBe(400);
      expect(again.json().folder[0]).toMatch(/already follows/);
    });

    it('a folder changing the threshold overrides it; the template shows which fields each overrides', async () => {
      const patched = await call(api, admin.token, 'PATCH', `/api/rule/${ruleB}/`, { rule_task: [cplTask('80')] });
      expect(patched.json().template.overrides).toEqual(['task:trigger_cpl']);
      const template = await get(`/api/templates/${templateId}/`);
      expect(
        template.folders.map((f: { folder: { name: string }; overrides: string[] }) => [f.folder.name, f.overrides]),
      ).toEqual([
        ['Alpha Advisers', []],
        ['Bravo Wealth', ['task:trigger_cpl']],
      ]);
      expect(template.lookalikes).toEqual([
        expect.objectContaining({
          folder: { id: folderC, name: 'Charlie Planning' },
          differs: expect.arrayContaining(['task:trigger_cpl']),
        }),
      ]);
    });

    it('previews an edit: which rules change, which overrides shield, with the backtest per folder', async () => {
      const response = await call(api, admin.token, 'POST', `/api/templates/${templateId}/preview/`, {
        rule_task: [cplTask('40')],
        rule_schedule: { timezone: 'Europe/London' },
      });
      expect(response.statusCode, response.body).toBe(200);
      const preview = response.json();
      expect(preview, response.body).toMatchObject({ folders: 2, rules: 2, followers: 2 });
      const bravo = preview.changes.find((c: { folder: { name: string } }) => c.folder.name === 'Bravo Wealth');
      expect(bravo).toMatchObject({ fields: ['timezone'], kept: ['task:trigger_cpl'] });
      expect(preview.backtest.days).toBe(30);
      expect(preview.backtest.totals.folders).toBe(2);
      // Nothing was written.
      expect(taskOf(await get(`/api/rule/${ruleA}/`), 'trigger_cpl').values.cpl).toBe('50');
    });

    it('an edit reaches every inheriting field at once and writes one log entry naming the folders', async () => {
      const before = (await call(api, admin.token, 'GET', '/api/log/')).json().count;
      const response = await call(api, admin.token, 'PATCH', `/api/templates/${templateId}/`, {
        rule_task: [cplTask('40')],
        rule_schedule: { timezone: 'Europe/London' },
      });
      expect(response.statusCode, response.body).toBe(200);
      const a = await get(`/api/rule/${ruleA}/`);
      const b = await get(`/api/rule/${ruleB}/`);
      expect(taskOf(a, 'trigger_cpl').values.cpl).toBe('40');
      expect(a.rule_schedule.timezone).toBe('Europe/London');
      expect(taskOf(b, 'trigger_cpl').values.cpl).toBe('80');
      expect(b.rule_schedule.timezone).toBe('Europe/London');
      const after = (await call(api, admin.token, 'GET', '/api/log/')).json().count;
      expect(after - before).toBe(1);
      const entry = await lastLog();
      expect(entry.action).toBe('Template updated');
      expect(entry.changes_text).toMatch(/50 → 40/);
      expect(entry.changes_text).toMatch(/Alpha Advisers/);
      expect(entry.changes_text).toMatch(/Bravo Wealth \(keeps its own .*\)/);
    });

    it('an edit that would leave one follower invalid changes nothing anywhere', async () => {
      // Alpha keeps its rule on whatever the template says; switching the template's only task off
      // would leave Alpha on with no task.
      await call(api, admin.token, 'PATCH', `/api/rule/${ruleA}/`, { is_active: false });
      await call(api, admin.token, 'PATCH', `/api/rule/${ruleA}/`, { is_active: true });
      expect((await get(`/api/rule/${ruleA}/`)).template.overrides).toEqual(['is_active']);
      const response = await call(api, admin.token, 'PATCH', `/api/templates/${templateId}/`, {
        rule_task: [cplTask('40', false)],
        is_active: false,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().detail).toMatch(/Alpha Advisers/);
      const template = await get(`/api/templates/${templateId}/`);
      expect(taskOf(template.values, 'trigger_cpl').is_active).toBe(true);
      expect(template.values.is_active).toBe(true);
      expect(taskOf(await get(`/api/rule/${ruleB}/`), 'trigger_cpl').is_active).toBe(true);
      const reset = await call(api, admin.token, 'POST', `/api/rules/${ruleA}/reset_override/`, { field: 'is_active' });
      expect(reset.json().template.overrides).toEqual([]);
    });

    it('reset follows the template again; leaving keeps the values and stops following', async () => {
      const reset = await call(api, admin.token, 'POST', `/api/rules/${ruleB}/reset_override/`, {
        field: 'task:trigger_cpl',
      });
      expect(reset.statusCode, reset.body).toBe(200);
      expect(taskOf(reset.json(), 'trigger_cpl').values.cpl).toBe('40');
      expect(reset.json().template.overrides).not.toContain('task:trigger_cpl');
      const unknown = await call(api, admin.token, 'POST', `/api/rules/${ruleB}/reset_override/`, { field: 'colour' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().field).toEqual(['Unknown field']);

      const left = await call(api, admin.token, 'POST', `/api/rules/${ruleB}/leave_template/`);
      expect(left.json()).toMatchObject({ template: null });
      await call(api, admin.token, 'PATCH', `/api/templates/${templateId}/`, { rule_task: [cplTask('35')] });
      expect(taskOf(await get(`/api/rule/${ruleB}/`), 'trigger_cpl').values.cpl).toBe('40');
      expect(taskOf(await get(`/api/rule/${ruleA}/`), 'trigger_cpl').values.cpl).toBe('35');
    });

    it('links a lookalike keeping its values as overrides', async () => {
      const linked = await call(api, admin.token, 'POST', `/api/templates/${templateId}/link/`, {
        rule: lookalikeRule,
      });
      expect(linked.statusCode, linked.body).toBe(200);
      expect(taskOf(linked.json(), 'trigger_cpl').values.cpl).toBe('65');
      expect(linked.json().template.overrides).toContain('task:trigger_cpl');
      // Charlie follows it now; Bravo, which left, does what it does and is offered instead.
      expect((await get(`/api/templates/${templateId}/`)).lookalikes).toEqual([
        expect.objectContaining({
          folder: { id: folderB, name: 'Bravo Wealth' },
          rule: expect.objectContaining({ id: ruleB }),
        }),
      ]);
    });

    describe('who may do what', () => {
      it('a reader sees the template read-only and may change nothing', async () => {
        const template = await get(`/api/templates/${templateId}/`, reader.token);
        expect(template).toMatchObject({ can_edit: false, read_only_reason: 'You may read rules but not edit them.' });
        for (const [method, path, body] of [
          ['POST', '/api/templates/', { name: 'x' }],
          ['PATCH', `/api/templates/${templateId}/`, { name: 'x' }],
          ['POST', `/api/templates/${templateId}/folders/`, { folder: folderA }],
          ['POST', `/api/rules/${ruleA}/leave_template/`, undefined],
          ['DELETE', `/api/templates/${templateId}/`, undefined],
        ] as const)
          expect((await call(api, reader.token, method, path, body)).statusCode, `${method} ${path}`).toBe(403);
      });

      it('an editor of some of its folders sees why it is read-only, may not edit it, and overrides it in their folder', async () => {
        const template = await get(`/api/templates/${templateId}/`, scoped.token);
        expect(template.can_edit).toBe(false);
        expect(template.read_only_reason).toMatch(/Charlie Planning/);
        expect(template.read_only_reason).toMatch(/override it in your own folders/);
        expect(template.folders.map((f: { editable: boolean }) => f.editable)).toEqual([true, false]);
        const edit = await call(api, scoped.token, 'PATCH', `/api/templates/${templateId}/`, {
          rule_task: [cplTask('10')],
        });
        expect(edit.statusCode).toBe(403);
        expect(edit.json().detail).toMatch(/Charlie Planning/);
        const own = await call(api, scoped.token, 'PATCH', `/api/rule/${ruleA}/`, { rule_task: [cplTask('45')] });
        expect(own.statusCode, own.body).toBe(200);
        expect(own.json().template.overrides).toEqual(['task:trigger_cpl']);
        const other = await call(api, scoped.token, 'POST', `/api/rules/${lookalikeRule}/leave_template/`);
        expect(other.statusCode).toBe(403);
        const use = await call(api, scoped.token, 'POST', `/api/templates/${templateId}/folders/`, { folder: folderB });
        expect(use.statusCode).toBe(403);
      });

      it('an editor of every folder that uses it may edit and delete it; the folders keep their rules', async () => {
        const own = await call(api, scoped.token, 'POST', '/api/templates/', { name: 'Alpha only' });
        expect(own.statusCode, own.body).toBe(201);
        const id = own.json().id;
        const used = await call(api, scoped.token, 'POST', `/api/templates/${id}/folders/`, { folder: folderA });
        expect(used.statusCode, used.body).toBe(201);
        expect((await get(`/api/templates/${id}/`, scoped.token)).can_edit).toBe(true);
        const edit = await call(api, scoped.token, 'PATCH', `/api/templates/${id}/`, {
          rule_task: [cplTask('30', false)],
        });
        expect(edit.statusCode, edit.body).toBe(200);
        expect(taskOf(await get(`/api/rule/${used.json().id}/`), 'trigger_cpl').values.cpl).toBe('30');
        // Once a folder outside their groups uses it, it is theirs to read only.
        await call(api, admin.token, 'POST', `/api/templates/${id}/folders/`, { folder: folderC });
        const refused = await call(api, scoped.token, 'DELETE', `/api/templates/${id}/`);
        expect(refused.statusCode).toBe(403);
      });

      it('deleting a template leaves its folders their rules', async () => {
        const response = await call(api, admin.token, 'DELETE', `/api/templates/${templateId}/`);
        expect(response.statusCode).toBe(204);
        const a = await get(`/api/rule/${ruleA}/`);
        expect(a.template).toBeNull();
        expect(taskOf(a, 'trigger_cpl').values.cpl).toBe('45');
        expect((await lastLog()).changes_text).toMatch(/keep their rules: Alpha Advisers/);
      });
    });
  });
});
