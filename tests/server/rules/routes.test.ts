import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folders, ruleItems } from '../../../server/db/schema/index';
import { createCredentialCipher } from '../../../server/rules/credentials';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { call, cplTaskOn, createFolder, folderPayload, insertAccount, RULES_ADMIN, type Account } from './fixtures';

const defaultDay = Array.from({ length: 24 }, (_, h) => [2, 7, 12, 17].includes(h));

eachDatabase((engine) => {
  describe(`folders API on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    let account: Account;
    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith(RULES_ADMIN);
      account = await insertAccount(api, { accountName: 'Blue Harbor Ads' });
    });
    afterAll(() => api.close());

    it('creates a folder with its first rule of the defaults', async () => {
      const folder = await createFolder(api, admin.token, account, {
        name: 'Created Folder',
        client_type: 'DLM',
        plan: 'elite',
      });
      expect(folder).toMatchObject({
        name: 'Created Folder',
        client_type: 'DLM',
        plan: 'elite',
        meta_ad_account: {
          ad_account_id: account.adAccountId,
          account_name: 'Blue Harbor Ads',
          timezone_name: 'America/New_York',
        },
        extension: { external_credentials: { demio: null } },
        rules_count: 1,
        active_rules_count: 0,
        is_deleted: false,
      });
      expect(folder.rules).toEqual([expect.objectContaining({ name: 'New rule', is_active: false })]);

      const rule = (await call(api, admin.token, 'GET', `/api/rule/${folder.rules[0]!.id}/`)).json();
      expect(rule.rule_filter).toEqual([
        expect.objectContaining({
          name: 'campaign_name_contains',
          type: 'rule_filter',
          values: ['EDM'],
          is_active: true,
        }),
        expect.objectContaining({
          name: 'campaign_name_not_contains',
          type: 'rule_filter',
          values: [],
          is_active: false,
        }),
      ]);
      expect(rule.rule_task.map((t: { name: string }) => t.name)).toEqual([
        'campaign_leads',
        'trigger_cpl',
        'website_cpl',
        'spend_cpl_no_leads',
        'spend_no_links_clicks',
        'spend_ctr_no_leads',
        'spend_cpc_no_leads',
        // After the seven specified tasks, the tasks on what a lead became, off until set.
        'cost_per_attendee',
        'show_up_rate',
        'cost_per_stage',
      ]);
      expect(rule.rule_task.slice(7).every((t: { is_active: boolean }) => !t.is_active)).toBe(true);
      expect(rule.rule_task.find((t: { name: string }) => t.name === 'spend_ctr_no_leads')).toMatchObject({
        values: { spend: '', ctr: '' },
        is_active: false,
      });
      expect(rule.rule_schedule).toEqual({
        schedule: Array.from({ length: 7 }, () => defaultDay),
        timezone: 'America/New_York',
      });
      expect(rule.rule_alert_schedule).toEqual({ schedule: Array.from({ length: 24 }, (_, h) => h === 7) });
    });

    it('keeps webinar credentials encrypted and shows them masked', async () => {
      const demio = { api_key: 'key-1234567890-ABCD', api_secret: 'secret-0987654321-WXYZ' };
      const folder = await createFolder(api, admin.token, account, { extension: { external_credentials: { demio } } });
      expect(folder.extension.external_credentials.demio).toEqual({
        api_key: '********ABCD',
        api_secret: '********WXYZ',
      });
      const [row] = await api.dbh.db.select().from(folders).where(eq(folders.id, folder.id));
      expect(row!.demioCredentials).toBeTruthy();
      expect(row!.demioCredentials).not.toContain('ABCD');
      expect(row!.demioCredentials).not.toContain('key-1234567890');

      // Sending the masks back keeps the secrets; a new value replaces one; null clears them.
      const kept = await call(api, admin.token, 'PATCH', `/api/general_page/${folder.id}/`, {
        ...folderPayload(account, { name: 'Renamed' }),
        extension: {
          external_credentials: { demio: { api_key: '********ABCD', api_secret: 'new-secret-value-7777' } },
        },
      });
      expect(kept.statusCode).toBe(200);
      expect(kept.json().extension.external_credentials.demio).toEqual({
        api_key: '********ABCD',
        api_secret: '********7777',
      });
      const cleared = await call(api, admin.token, 'PATCH', `/api/general_page/${folder.id}/`, {
        extension: { external_credentials: { demio: { api_key: '', api_secret: '' } } },
      });
      expect(cleared.json().extension.external_credentials.demio).toBeNull();
      const [after] = await api.dbh.db.select().from(folders).where(eq(folders.id, folder.id));
      expect(after!.demioCredentials).toBeNull();
    });

    it('says when stored credentials no longer open with the key, and never saves their masks back', async () => {
      const demio = { api_key: 'key-1234567890-ABCD', api_secret: 'secret-0987654321-WXYZ' };
      const folder = await createFolder(api, admin.token, account, { extension: { external_credentials: { demio } } });
      // Written under another key (CREDENTIALS_KEY changed since).
      const foreign = createCredentialCipher('another-key-of-at-least-32-bytes-long!').encrypt(demio);
      await api.dbh.db.update(folders).set({ demioCredentials: foreign }).where(eq(folders.id, folder.id));

      const needsReentry = {
        external_credentials: { demio: null },
        credentials_error:
          "Webinar credentials: needs re-entry (this server's key cannot read the stored ones). Enter them again.",
      };
      const shown = (await call(api, admin.token, 'GET', `/api/general_page/${folder.id}/`)).json();
      expect(shown.extension).toEqual(needsReentry);
      const listed = (await call(api, admin.token, 'GET', '/api/general_page/?limit=100')).json();
      expect(listed.results.find((f: { id: number }) => f.id === folder.id).extension).toEqual(needsReentry);
      const masked = await call(api, admin.token, 'PATCH', `/api/general_page/${folder.id}/`, {
        extension: { external_credentials: { demio: { api_key: '********ABCD', api_secret: '********WXYZ' } } },
      });
      expect(masked.statusCode).toBe(400);
      expect(masked.json()).toEqual({ extension: [needsReentry.credentials_error] });
      const [untouched] = await api.dbh.db.select().from(folders).where(eq(folders.id, folder.id));
      expect(untouched!.demioCredentials).toBe(foreign);

      const renamed = await call(api, admin.token, 'PATCH', `/api/general_page/${folder.id}/`, {
        name: 'Still unreadable',
      });
      expect(renamed.statusCode).toBe(200);
      const entered = await call(api, admin.token, 'PATCH', `/api/general_page/${folder.id}/`, {
        extension: {
          external_credentials: { demio: { api_key: 'fresh-key-0000-QRST', api_secret: 'fresh-secret-1111-UVWX' } },
        },
      });
      expect(entered.json().extension).toEqual({
        external_credentials: { demio: { api_key: '********QRST', api_secret: '********UVWX' } },
      });
    });

    it('answers missing folder fields with "This field is required" each', async () => {
      const response = await call(api, admin.token, 'POST', '/api/general_page/', { name: '  ' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        client_type: ['This field is required'],
        plan: ['This field is required'],
        meta_ad_account_id: ['This field is required'],
        name: ['This field is required'],
      });
    });

    it('refuses an unknown type, plan or ad account and half-filled credentials', async () => {
      const bad = await call(
        api,
        admin.token,
        'POST',
        '/api/general_page/',
        folderPayload(account, { client_type: 'XYZ', plan: 'gold' }),
      );
      expect(bad.json()).toEqual({
        client_type: ['Select a value from the list'],
        plan: ['Select a value from the list'],
      });
      const noAccount = await call(
        api,
        admin.token,
        'POST',
        '/api/general_page/',
        folderPayload({ ...account, adAccountId: 'act_nope' }),
      );
      expect(noAccount.statusCode).toBe(400);
      expect(noAccount.json()).toEqual({ meta_ad_account_id: ['Select an ad account from the list'] });
      const half = await call(api, admin.token, 'POST', '/api/general_page/', {
        ...folderPayload(account),
        extension: { external_credentials: { demio: { api_key: 'only-a-key', api_secret: '' } } },
      });
      expect(half.statusCode).toBe(400);
      expect(half.json()).toEqual({ 'extension.external_credentials.demio.api_secret': ['Field is required'] });
    });

    it('enforces read_rules to list and create_update_rules to change folders', async () => {
      const reader = await api.userWith(['read_rules']);
      const nobody = await api.userWith([]);
      const folder = await createFolder(api, admin.token, account);
      expect((await call(api, nobody.token, 'GET', '/api/general_page/')).statusCode).toBe(403);
      expect((await api.request(null, { method: 'GET', url: '/api/general_page/' })).statusCode).toBe(401);
      expect((await call(api, reader.token, 'GET', '/api/general_page/')).statusCode).toBe(200);
      expect((await call(api, reader.token, 'POST', '/api/general_page/', folderPayload(account))).statusCode).toBe(
        403,
      );
      expect(
        (await call(api, reader.token, 'PATCH', `/api/general_page/${folder.id}/`, { name: 'x' })).statusCode,
      ).toBe(403);
      expect((await call(api, reader.token, 'POST', `/api/folders/${folder.id}/move_to_trash/`)).statusCode).toBe(403);
      const trashOnly = await api.userWith(['create_update_rules']);
      expect((await call(api, trashOnly.token, 'POST', `/api/folders/${folder.id}/restore/`)).statusCode).toBe(403);
    });

    it('updates a folder and answers 404 for unknown ones', async () => {
      const other = await insertAccount(api, { accountName: 'Second Account' });
      const folder = await createFolder(api, admin.token, account, { name: 'Before' });
      const response = await call(api, admin.token, 'PATCH', `/api/general_page/${folder.id}/`, {
        ...folderPayload(other, { name: 'After', plan: 'quick_start' }),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        name: 'After',
        plan: 'quick_start',
        meta_ad_account: { account_name: 'Second Account' },
      });
      const invalid = await call(api, admin.token, 'PATCH', `/api/general_page/${folder.id}/`, { name: '' });
      expect(invalid.json()).toEqual({ name: ['This field is required'] });
      expect((await call(api, admin.token, 'PATCH', '/api/general_page/999999/', { name: 'x' })).statusCode).toBe(404);
      expect((await call(api, admin.token, 'GET', '/api/general_page/abc/')).statusCode).toBe(404);
    });

    describe('list', () => {
      let listApi: TestApi;
      let user: TestUser;
      beforeAll(async () => {
        listApi = await createTestApi(engine);
        user = await listApi.userWith(['read_rules', 'create_update_rules']);
        const harbor = await insertAccount(listApi, { accountName: 'Harbor Media' });
        const summit = await insertAccount(listApi, { accountName: 'Summit 100% Ads' });
        for (let i = 1; i <= 25; i += 1) {
          await createFolder(listApi, user.token, i % 2 ? harbor : summit, {
            name: `Client ${String(i).padStart(2, '0')}`,
          });
        }
      });
      afterAll(() => listApi.close());

      it('pages 20 folders at a time, oldest first, with next links', async () => {
        const first = (
          await call(listApi, user.token, 'GET', '/api/general_page/?limit=20&offset=0&ordering=created_at')
        ).json();
        expect(first.count).toBe(25);
        expect(first.results).toHaveLength(20);
        expect(first.results[0].name).toBe('Client 01');
        expect(first.next).toContain('offset=20');
        expect(first.previous).toBeNull();
        const second = (
          await call(listApi, user.token, 'GET', '/api/general_page/?limit=20&offset=20&ordering=created_at')
        ).json();
        expect(second.results.map((f: { name: string }) => f.name)).toEqual([
          'Client 21',
          'Client 22',
          'Client 23',
          'Client 24',
          'Client 25',
        ]);
        expect(second.next).toBeNull();
      });

      it("pages any sort, the folder's own columns or its ad account's", async () => {
        const names = async (query: string) =>
          (await call(listApi, user.token, 'GET', `/api/general_page/?${query}`))
            .json()
            .results.map((f: { name: string }) => f.name);
        expect(await names('limit=5&offset=5&ordering=-name')).toEqual([
          'Client 20',
          'Client 19',
          'Client 18',
          'Client 17',
          'Client 16',
        ]);
        // Harbor Media holds the odd clients, Summit 100% Ads the even ones.
        expect(await names('limit=4&offset=11&ordering=ad_account')).toEqual([
          'Client 23',
          'Client 25',
          'Client 02',
          'Client 04',
        ]);
        expect(await names('limit=3&offset=24&ordering=-created_at')).toEqual(['Client 01']);
        expect(await names('limit=3&offset=30&ordering=-created_at')).toEqual([]);
      });

      it('searches folder names and ad account names, literally', async () => {
        const byName = (await call(listApi, user.token, 'GET', '/api/general_page/?search=client%2007')).json();
        expect(byName.results.map((f: { name: string }) => f.name)).toEqual(['Client 07']);
        const byAccount = (await call(listApi, user.token, 'GET', '/api/general_page/?search=summit')).json();
        expect(byAccount.count).toBe(12);
        const percent = (await call(listApi, user.token, 'GET', '/api/general_page/?search=100%25')).json();
        expect(percent.count).toBe(12);
        const none = (await call(listApi, user.token, 'GET', '/api/general_page/?search=_')).json();
        expect(none.count).toBe(0);
      });

      it('counts rules and active rules per folder and orders descending on request', async () => {
        const list = (await call(listApi, user.token, 'GET', '/api/general_page/?ordering=-created_at&limit=1')).json();
        const folder = list.results[0];
        expect(folder.name).toBe('Client 25');
        const ruleId = folder.rules[0].id;
        await call(listApi, user.token, 'POST', '/api/rule/', { folder: folder.id });
        await call(listApi, user.token, 'PATCH', `/api/rule/${ruleId}/`, { ...cplTaskOn, is_active: true });
        const after = (await call(listApi, user.token, 'GET', '/api/general_page/?ordering=-created_at&limit=1')).json()
          .results[0];
        expect(after).toMatchObject({ rules_count: 2, active_rules_count: 1 });
      });

      it('flags on each active rule how it works against another of its folder, in the list and the folder', async () => {
        const harbor = await insertAccount(listApi, { accountName: 'Conflict Media' });
        const folder = await createFolder(listApi, user.token, harbor, { name: 'Conflicting Rules' });
        const reviving = folder.rules[0]!.id;
        const stricter = (await call(listApi, user.token, 'POST', '/api/rule/', { folder: folder.id })).json().id;
        const idle = (await call(listApi, user.token, 'POST', '/api/rule/', { folder: folder.id })).json().id;
        await call(listApi, user.token, 'PATCH', `/api/rule/${reviving}/`, {
          ...cplTaskOn,
          is_active: true,
          name: 'Revives',
          judging: { revive_hours: 72 },
        });
        await call(listApi, user.token, 'PATCH', `/api/rule/${stricter}/`, {
          rule_task: [{ name: 'trigger_cpl', values: { cpl: '30' }, is_active: true }],
          is_active: true,
          name: 'Stricter',
        });
        const expected = [
          '"Revives" turns back on ads that "Stricter" turns off (Turn off the ad if CPL is above a value)',
          'Same campaigns, "Turn off the ad if CPL is above a value": cpl 50 in "Revives", cpl 30 in "Stricter"',
        ];
        const conflictsOf = (rows: { id: number; conflicts?: string[] }[]) =>
          Object.fromEntries(rows.map((r) => [r.id, r.conflicts]));
        const listed = (await call(listApi, user.token, 'GET', '/api/general_page/?search=Conflicting')).json();
        const one = (await call(listApi, user.token, 'GET', `/api/general_page/${folder.id}/`)).json();
        for (const rows of [listed.results[0].rules, one.rules])
          expect(conflictsOf(rows)).toEqual({ [reviving]: expected, [stricter]: expected, [idle]: undefined });
      });
    });

    describe('trash and restore', () => {
      it('moves a folder and its rules to the trash, and restoring brings back every rule', async () => {
        const folder = await createFolder(api, admin.token, account, { name: 'Trash Me Folder' });
        const second = (
          await call(api, admin.token, 'POST', `/api/rules/${folder.rules[0]!.id}/duplicate_rule/`)
        ).json();
        // One rule trashed on its own first: restoring the folder restores it too (docs/screens.md#states-and-transitions).
        await call(api, admin.token, 'POST', `/api/rules/${second.id}/move_to_trash/`);
        const trashed = await call(api, admin.token, 'POST', `/api/folders/${folder.id}/move_to_trash/`);
        expect(trashed.statusCode).toBe(200);
        expect(trashed.json().is_deleted).toBe(true);

        const live = (await call(api, admin.token, 'GET', '/api/general_page/?search=Trash%20Me')).json();
        expect(live.count).toBe(0);
        const trash = (await call(api, admin.token, 'GET', '/api/trash_page/?search=Trash%20Me')).json();
        expect(trash.results).toEqual([
          expect.objectContaining({
            id: folder.id,
            is_deleted: true,
            rules: [expect.objectContaining({ is_deleted: true }), expect.objectContaining({ is_deleted: true })],
          }),
        ]);

        const restored = await call(api, admin.token, 'POST', `/api/folders/${folder.id}/restore/`);
        expect(restored.json()).toMatchObject({ is_deleted: false, rules_count: 2 });
        expect((await call(api, admin.token, 'GET', '/api/trash_page/?search=Trash%20Me')).json().count).toBe(0);
      });

      it('deletes a folder for good only from the trash', async () => {
        const folder = await createFolder(api, admin.token, account, { name: 'Gone Folder' });
        const refused = await call(api, admin.token, 'DELETE', `/api/trash_page/${folder.id}/`);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toEqual({ detail: 'Move the folder to the trash before deleting it.' });
        await call(api, admin.token, 'POST', `/api/folders/${folder.id}/move_to_trash/`);
        expect((await call(api, admin.token, 'DELETE', `/api/trash_page/${folder.id}/`)).statusCode).toBe(204);
        expect((await call(api, admin.token, 'GET', `/api/general_page/${folder.id}/`)).statusCode).toBe(404);
        expect((await call(api, admin.token, 'GET', `/api/rule/${folder.rules[0]!.id}/`)).statusCode).toBe(404);
        const items = await api.dbh.db.select().from(ruleItems).where(eq(ruleItems.ruleId, folder.rules[0]!.id));
        expect(items).toEqual([]);
      });

      it('lists live folders holding trashed rules with only those rules, newest first, paged by 10', async () => {
        const folder = await createFolder(api, admin.token, account, { name: 'Half Trashed' });
        const keep = folder.rules[0]!;
        const copy = (await call(api, admin.token, 'POST', `/api/rules/${keep.id}/duplicate_rule/`)).json();
        await call(api, admin.token, 'POST', `/api/rules/${copy.id}/move_to_trash/`);
        const trash = (await call(api, admin.token, 'GET', '/api/trash_page/')).json();
        expect(trash.results[0]).toMatchObject({
          id: folder.id,
          is_deleted: false,
          rules: [{ id: copy.id, is_deleted: true }],
        });
        expect(trash.results[0].trashed_at).toEqual(expect.any(String));
        const byRuleName = (await call(api, admin.token, 'GET', '/api/trash_page/?search=(copy)')).json();
        expect(byRuleName.results.map((f: { id: number }) => f.id)).toContain(folder.id);
        const paged = (await call(api, admin.token, 'GET', '/api/trash_page/?limit=1&offset=0')).json();
        expect(paged.results).toHaveLength(1);
      });

      it('pages the trash in every order as the whole list has it, with its total on every page', async () => {
        for (const name of ['Trash Page A', 'Trash Page B', 'Trash Page C']) {
          const folder = await createFolder(api, admin.token, account, { name });
          await call(api, admin.token, 'POST', `/api/folders/${folder.id}/move_to_trash/`);
        }
        for (const ordering of ['', '-trashed_at', 'trashed_at', '-deleted_at', 'name', '-name', 'created_at']) {
          const whole = (await call(api, admin.token, 'GET', `/api/trash_page/?limit=100&ordering=${ordering}`)).json();
          expect(whole.count, ordering).toBeGreaterThanOrEqual(3);
          const times = whole.results.map((f: { trashed_at: string }) => Date.parse(f.trashed_at));
          if (ordering === '' || ordering.endsWith('trashed_at') || ordering === '-deleted_at')
            expect(times, ordering).toEqual([...times].sort((a, b) => (ordering === 'trashed_at' ? a - b : b - a)));
          for (let offset = 0; offset < whole.count; offset += 2) {
            const page = (
              await call(api, admin.token, 'GET', `/api/trash_page/?limit=2&offset=${offset}&ordering=${ordering}`)
            ).json();
            expect(page.count, `${ordering} at ${offset}`).toBe(whole.count);
            expect(
              page.results.map((f: { id: number }) => f.id),
              `${ordering} at ${offset}`,
            ).toEqual(whole.results.slice(offset, offset + 2).map((f: { id: number }) => f.id));
          }
        }
      });

      it('needs delete_rules for the trash list, restores and permanent deletes', async () => {
        const editor = await api.userWith(['read_rules', 'create_update_rules']);
        const folder = await createFolder(api, admin.token, account);
        await call(api, editor.token, 'POST', `/api/rules/${folder.rules[0]!.id}/move_to_trash/`);
        expect((await call(api, editor.token, 'GET', '/api/trash_page/')).statusCode).toBe(403);
        expect((await call(api, editor.token, 'POST', `/api/rules/${folder.rules[0]!.id}/restore/`)).statusCode).toBe(
          403,
        );
        expect((await call(api, editor.token, 'DELETE', `/api/rules/${folder.rules[0]!.id}/`)).statusCode).toBe(403);
        expect((await call(api, editor.token, 'DELETE', `/api/trash_page/${folder.id}/`)).statusCode).toBe(403);
      });
    });
  });

  describe(`rules API on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    let account: Account;
    let folderId: number;
    let ruleId: number;
    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith(RULES_ADMIN);
      account = await insertAccount(api);
      const folder = await createFolder(api, admin.token, account, { name: 'Rules Folder' });
      folderId = folder.id;
      ruleId = folder.rules[0]!.id;
    });
    afterAll(() => api.close());

    it('saves changed items, schedules and the name', async () => {
      const schedule = Array.from({ length: 7 }, (_, d) => Array.from({ length: 24 }, (_, h) => d === 1 && h === 3));
      const response = await call(api, admin.token, 'PATCH', `/api/rule/${ruleId}/`, {
        name: 'EP-W: Pause ad CPL > $40',
        rule_filter: [{ name: 'campaign_name_contains', values: ['EDM', 'EP-W'], is_active: true }],
        rule_task: [
          { name: 'website_cpl', values: { cpl: '40' }, is_active: true },
          { name: 'spend_ctr_no_leads', values: { spend: 25, ctr: '0.5' }, is_active: false },
        ],
        rule_schedule: { schedule, timezone: 'Europe/Berlin' },
        rule_alert_schedule: { schedule: Array.from({ length: 24 }, (_, h) => h === 9) },
      });
      expect(response.statusCode, response.body).toBe(200);
      const rule = response.json();
      expect(rule.name).toBe('EP-W: Pause ad CPL > $40');
      expect(rule.rule_filter[0].values).toEqual(['EDM', 'EP-W']);
      expect(rule.rule_task.find((t: { name: string }) => t.name === 'website_cpl')).toMatchObject({
        values: { cpl: '40' },
        is_active: true,
      });
      expect(rule.rule_task.find((t: { name: string }) => t.name === 'spend_ctr_no_leads')).toMatchObject({
        values: { spend: '25', ctr: '0.5' },
      });
      expect(rule.rule_task.find((t: { name: string }) => t.name === 'trigger_cpl')).toMatchObject({
        values: { cpl: '' },
        is_active: false,
      });
      expect(rule.rule_schedule).toEqual({ schedule, timezone: 'Europe/Berlin' });
      expect(rule.rule_alert_schedule.schedule[9]).toBe(true);
      expect((await call(api, admin.token, 'GET', `/api/rule/${ruleId}/`)).json()).toEqual(rule);
    });

    it('puts invalid values under their item and value', async () => {
      const response = await call(api, admin.token, 'PATCH', `/api/rule/${ruleId}/`, {
        rule_filter: [{ name: 'campaign_name_contains', values: [] }],
        rule_task: [
          { name: 'trigger_cpl', values: { cpl: 'abc' }, is_active: true },
          { name: 'campaign_leads', values: { leads: '2.5' } },
          { name: 'spend_cpc_no_leads', values: { spend: '10', cpc: '' }, is_active: true },
          { name: 'spend_ctr_no_leads', values: { spend: '10', ctr: '' } },
        ],
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        rule_filter: { campaign_name_contains: ['Field is required'] },
        rule_task: {
          trigger_cpl: { cpl: ['Field must be a number'] },
          campaign_leads: { leads: ['Field must be an integer'] },
          spend_cpc_no_leads: { cpc: ['Field is required'] },
        },
      });
    });

    it('checks the values of the tasks on what a lead became like the others, and saves valid ones', async () => {
      const refused = await call(api, admin.token, 'PATCH', `/api/rule/${ruleId}/`, {
        rule_task: [
          { name: 'cost_per_attendee', values: { cost: '0', min_registrations: '0' }, is_active: true },
          { name: 'show_up_rate', values: { rate: '150', min_registrations: '' }, is_active: true },
          { name: 'cost_per_stage', values: { stage: 'lost', cost: '50', min_leads: '2.5' }, is_active: true },
        ],
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        rule_task: {
          cost_per_attendee: {
            cost: ['Must be greater than 0'],
            min_registrations: ['Must be a whole number of at least 1'],
          },
          show_up_rate: { rate: ['Must be more than 0 and at most 100'], min_registrations: ['Field is required'] },
          cost_per_stage: {
            stage: ['Choose a stage: qualified, booked, attended, won'],
            min_leads: ['Field must be an integer'],
          },
        },
      });
      const saved = await call(api, admin.token, 'PATCH', `/api/rule/${ruleId}/`, {
        rule_task: [
          { name: 'cost_per_stage', values: { stage: ' booked ', cost: 120, min_leads: '10' }, is_active: true },
        ],
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().rule_task.find((t: { name: string }) => t.name === 'cost_per_stage')).toMatchObject({
        values: { stage: 'booked', cost: '120', min_leads: '10' },
        is_active: true,
      });
    });

    it('refuses malformed schedules, unknown time zones and unknown items', async () => {
      const shape = await call(api, admin.token, 'PATCH', `/api/rule/${ruleId}/`, {
        rule_schedule: { schedule: [[true]], timezone: 'Mars/Olympus' },
        rule_alert_schedule: { schedule: [true, false] },
      });
      expect(shape.statusCode).toBe(400);
      expect(shape.json()).toEqual({
        'rule_schedule.schedule': ['The schedule must be 7 days of 24 hours'],
        'rule_schedule.timezone': ['Unknown time zone'],
        'rule_alert_schedule.schedule': ['The alert schedule must be 24 hours'],
      });
      const unknown = await call(api, admin.token, 'PATCH', `/api/rule/${ruleId}/`, {
        rule_task: [{ name: 'drop_table', values: {} }],
      });
      expect(unknown.json()).toEqual({ rule_task: { drop_table: { non_field_errors: ['Unknown task'] } } });
      const wrongType = await call(api, admin.token, 'PATCH', `/api/rule/${ruleId}/`, { is_active: 'yes' });
      expect(wrongType.json()).toEqual({ is_active: ['Must be true or false'] });
    });

    it('refuses to activate a rule without an active task, then activates a complete one', async () => {
      const folder = await createFolder(api, admin.token, account, { name: 'Activation Folder' });
      const id = folder.rules[0]!.id;
      const refused = await call(api, admin.token, 'PATCH', `/api/rule/${id}/`, { is_active: true });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        rule_task: { non_field_errors: ['Turn on at least one task to activate the rule'] },
      });
      expect((await call(api, admin.token, 'GET', `/api/rule/${id}/`)).json().is_active).toBe(false);

      const notContains = await call(api, admin.token, 'PATCH', `/api/rule/${id}/`, {
        ...cplTaskOn,
        rule_filter: [{ name: 'campaign_name_not_contains', values: [], is_active: true }],
        is_active: true,
      });
      expect(notContains.json()).toEqual({ rule_filter: { campaign_name_not_contains: ['Field is required'] } });

      const ok = await call(api, admin.token, 'PATCH', `/api/rule/${id}/`, { ...cplTaskOn, is_active: true });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().is_active).toBe(true);
      // An active rule stays complete: switching its only task off is refused.
      const off = await call(api, admin.token, 'PATCH', `/api/rule/${id}/`, {
        rule_task: [{ name: 'trigger_cpl', is_active: false }],
      });
      expect(off.statusCode).toBe(400);
      expect(off.json().rule_task.non_field_errors).toEqual(['Turn on at least one task to activate the rule']);
    });

    it('enforces permissions on reading and changing rules', async () => {
      const reader = await api.userWith(['read_rules']);
      const nobody = await api.userWith(['view_logs']);
      expect((await call(api, nobody.token, 'GET', `/api/rule/${ruleId}/`)).statusCode).toBe(403);
      expect((await call(api, nobody.token, 'GET', '/api/rule/get_timezones/')).statusCode).toBe(403);
      expect((await call(api, reader.token, 'GET', `/api/rule/${ruleId}/`)).statusCode).toBe(200);
      for (const [method, url] of [
        ['PATCH', `/api/rule/${ruleId}/`],
        ['POST', '/api/rule/'],
        ['POST', `/api/rules/${ruleId}/duplicate_rule/`],
        ['POST', `/api/rules/${ruleId}/move_to_trash/`],
      ] as const) {
        expect((await call(api, reader.token, method, url, { folder: folderId, name: 'x' })).statusCode, url).toBe(403);
      }
    });

    it('answers 404 for unknown rules and ids that are not numbers', async () => {
      expect((await call(api, admin.token, 'GET', '/api/rule/999999/')).statusCode).toBe(404);
      expect((await call(api, admin.token, 'GET', '/api/rule/abc/')).json()).toEqual({ detail: 'Not found.' });
      expect((await call(api, admin.token, 'PATCH', '/api/rule/999999/', { name: 'x' })).statusCode).toBe(404);
      expect((await call(api, admin.token, 'POST', '/api/rules/999999/duplicate_rule/')).statusCode).toBe(404);
    });

    it('duplicates a rule as an inactive copy with the same items and schedules', async () => {
      const folder = await createFolder(api, admin.token, account, { name: 'Duplicate Folder' });
      const source = folder.rules[0]!.id;
      await call(api, admin.token, 'PATCH', `/api/rule/${source}/`, {
        ...cplTaskOn,
        is_active: true,
        name: 'Original',
      });
      const response = await call(api, admin.token, 'POST', `/api/rules/${source}/duplicate_rule/`);
      expect(response.statusCode).toBe(201);
      const copy = response.json();
      const original = (await call(api, admin.token, 'GET', `/api/rule/${source}/`)).json();
      expect(copy.id).not.toBe(source);
      expect(copy).toMatchObject({ name: 'Original (copy)', is_active: false, rule_schedule: original.rule_schedule });
      const strip = (items: { id?: number }[]) => items.map(({ id: _id, ...rest }) => rest);
      expect(strip(copy.rule_task)).toEqual(strip(original.rule_task));
      expect(strip(copy.rule_filter)).toEqual(strip(original.rule_filter));
      const list = (await call(api, admin.token, 'GET', '/api/general_page/?search=Duplicate%20Folder')).json();
      expect(list.results[0].rules.map((r: { name: string }) => r.name)).toEqual(['Original', 'Original (copy)']);
    });

    it('adds a rule of the defaults to a folder, and refuses a missing or trashed folder', async () => {
      const folder = await createFolder(api, admin.token, account, { name: 'Fresh Rules Folder' });
      const created = await call(api, admin.token, 'POST', '/api/rule/', { folder: folder.id });
      expect(created.statusCode).toBe(201);
      // Each new rule of a folder gets a name none of its rules has.
      expect(created.json()).toMatchObject({ name: 'New rule 2', is_active: false, folder: { id: folder.id } });
      const third = await call(api, admin.token, 'POST', '/api/rule/', { folder: folder.id });
      expect(third.json().name).toBe('New rule 3');
      expect((await call(api, admin.token, 'POST', '/api/rule/', {})).json()).toEqual({
        folder: ['Field is required'],
      });
      expect((await call(api, admin.token, 'POST', '/api/rule/', { folder: 999999 })).json()).toEqual({
        folder: ['Folder not found'],
      });
    });

    it('trashes, restores and deletes a rule for good only from the trash', async () => {
      const folder = await createFolder(api, admin.token, account, { name: 'Lifecycle Folder' });
      const id = folder.rules[0]!.id;
      const refused = await call(api, admin.token, 'DELETE', `/api/rules/${id}/`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ detail: 'Move the rule to the trash before deleting it.' });

      expect((await call(api, admin.token, 'POST', `/api/rules/${id}/move_to_trash/`)).json().is_deleted).toBe(true);
      const listed = (await call(api, admin.token, 'GET', '/api/general_page/?search=Lifecycle')).json().results[0];
      expect(listed).toMatchObject({ rules: [], rules_count: 0 });
      const edit = await call(api, admin.token, 'PATCH', `/api/rule/${id}/`, { name: 'x' });
      expect(edit.json()).toEqual({ detail: 'This rule is in the trash. Restore it before changing it.' });

      const restored = await call(api, admin.token, 'POST', `/api/rules/${id}/restore/`, { is_deleted: false });
      expect(restored.json().is_deleted).toBe(false);
      await call(api, admin.token, 'POST', `/api/rules/${id}/move_to_trash/`);
      expect((await call(api, admin.token, 'DELETE', `/api/rules/${id}/`)).statusCode).toBe(204);
      expect((await call(api, admin.token, 'GET', `/api/rule/${id}/`)).statusCode).toBe(404);
    });

    it('restoring a rule of a trashed folder brings the folder back with that rule only', async () => {
      const folder = await createFolder(api, admin.token, account, { name: 'Comeback Folder' });
      const first = folder.rules[0]!.id;
      const second = (await call(api, admin.token, 'POST', `/api/rules/${first}/duplicate_rule/`)).json().id;
      await call(api, admin.token, 'POST', `/api/folders/${folder.id}/move_to_trash/`);
      await call(api, admin.token, 'POST', `/api/rules/${second}/restore/`);
      const listed = (await call(api, admin.token, 'GET', '/api/general_page/?search=Comeback')).json().results[0];
      expect(listed.rules.map((r: { id: number }) => r.id)).toEqual([second]);
      const trash = (await call(api, admin.token, 'GET', '/api/trash_page/?search=Comeback')).json().results[0];
      expect(trash.rules.map((r: { id: number }) => r.id)).toEqual([first]);
    });

    it('lists IANA time zones with titles', async () => {
      const zones = (await call(api, admin.token, 'GET', '/api/rule/get_timezones/')).json();
      expect(zones).toContainEqual({ title: '(UTC+00:00) UTC', value: 'UTC' });
      expect(zones).toContainEqual({
        title: expect.stringMatching(/^\(UTC-0[45]:00\) America\/New_York$/),
        value: 'America/New_York',
      });
      expect(zones.length).toBeGreaterThan(300);
    });
  });
});
