import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../server/db/schema/index';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import type { LogEntryDto } from '../../../shared/contracts';
import { call, cplTaskOn, createFolder, insertAccount, RULES_ADMIN, type Account } from '../rules/fixtures';

eachDatabase((engine) => {
  describe(`audit log API on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    let account: Account;
    const log = async (query = '') =>
      (await call(api, admin.token, 'GET', `/api/log/${query}`)).json() as {
        count: number;
        next: string | null;
        results: LogEntryDto[];
      };

    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith(RULES_ADMIN, { firstName: 'Dana', lastName: 'Scully' });
      account = await insertAccount(api, { accountName: 'Log Account' });
    });
    afterAll(() => api.close());

    it('records who created a folder and its first rule, with what', async () => {
      const folder = await createFolder(api, admin.token, account, {
        name: 'Logged Folder',
        extension: { external_credentials: { demio: { api_key: 'k-1234567890123', api_secret: 's-1234567890123' } } },
      });
      const entries = (await log(`?folder_id_in=${folder.id}&ordering=timestamp`)).results;
      expect(entries).toEqual([
        expect.objectContaining({
          actor: 'Dana Scully',
          action: 'Folder created',
          folder_name: 'Logged Folder',
          folder_id: folder.id,
          meta_ad_account_name: 'Log Account',
          rule_name: null,
          changes_text: `Name: Logged Folder; Type: EDM; Plan: solo; Ad account: Log Account (${account.adAccountId}); Webinar credentials: set`,
        }),
        expect.objectContaining({ action: 'Rule created', rule_name: 'New rule', rule_id: folder.rules[0]!.id }),
      ]);
      // The secrets never reach the log.
      expect(JSON.stringify(entries)).not.toContain('1234567890123');
    });

    it('describes a rule update as old → new per field', async () => {
      const folder = await createFolder(api, admin.token, account, { name: 'Update Log Folder' });
      const ruleId = folder.rules[0]!.id;
      const schedule = Array.from({ length: 7 }, (_, d) =>
        Array.from({ length: 24 }, (_, h) => [2, 7, 12, 17].includes(h) || (d === 1 && h === 3)),
      );
      await call(api, admin.token, 'PATCH', `/api/rule/${ruleId}/`, {
        ...cplTaskOn,
        name: 'Tight CPL',
        is_active: true,
        rule_filter: [{ name: 'campaign_name_contains', values: ['EDM', 'EP-W'], is_active: true }],
        rule_schedule: { schedule, timezone: 'UTC' },
      });
      const [entry] = (await log(`?rule_id_in=${ruleId}&ordering=-timestamp`)).results;
      expect(entry).toMatchObject({ action: 'Rule updated', rule_name: 'Tight CPL', folder_name: 'Update Log Folder' });
      expect(entry!.changes_text).toBe(
        'Name: New rule → Tight CPL; Active: off → on; Campaign name contains: EDM → EDM, EP-W; ' +
          'Turn off the ad if CPL is above a value: off → on, CPL — → 50; Time zone: America/New_York → UTC; Schedule: added Mon 3 AM',
      );
    });

    it('records duplicate, trash, restore and permanent delete, and finds them by search', async () => {
      const folder = await createFolder(api, admin.token, account, { name: 'Lifecycle Log' });
      const ruleId = folder.rules[0]!.id;
      const copy = (await call(api, admin.token, 'POST', `/api/rules/${ruleId}/duplicate_rule/`)).json();
      await call(api, admin.token, 'POST', `/api/rules/${copy.id}/move_to_trash/`);
      await call(api, admin.token, 'POST', `/api/rules/${copy.id}/restore/`);
      await call(api, admin.token, 'POST', `/api/rules/${copy.id}/move_to_trash/`);
      await call(api, admin.token, 'DELETE', `/api/rules/${copy.id}/`);
      await call(api, admin.token, 'PATCH', `/api/general_page/${folder.id}/`, { plan: 'team' });
      await call(api, admin.token, 'POST', `/api/folders/${folder.id}/move_to_trash/`);
      await call(api, admin.token, 'POST', `/api/folders/${folder.id}/restore/`);
      await call(api, admin.token, 'POST', `/api/folders/${folder.id}/move_to_trash/`);
      await call(api, admin.token, 'DELETE', `/api/trash_page/${folder.id}/`);

      const entries = (await log(`?folder_id_in=${folder.id}&ordering=timestamp,id&limit=100`)).results;
      expect(entries.map((e) => e.action)).toEqual([
        'Folder created',
        'Rule created',
        'Rule duplicated',
        'Rule moved to trash',
        'Rule restored',
        'Rule moved to trash',
        'Rule deleted',
        'Folder updated',
        'Folder moved to trash',
        'Folder restored',
        'Folder moved to trash',
        'Folder deleted',
      ]);
      expect(entries[2]).toMatchObject({
        rule_id: copy.id,
        rule_name: 'New rule (copy)',
        changes_text: `Copied from "New rule" (rule ${ruleId})`,
      });
      expect(entries[7]!.changes_text).toBe('Plan: solo → team');

      const found = await log('?search=lifecycle%20log&limit=100');
      expect(found.count).toBe(12);
      expect((await log(`?search=copied%20from&rule_id_in=${copy.id}`)).count).toBe(1);
    });

    it('filters by several ids, pages, and sorts by several columns with ad_account as the folder name', async () => {
      const a = await createFolder(api, admin.token, account, { name: 'AAA Sort' });
      const b = await createFolder(api, admin.token, account, { name: 'BBB Sort' });
      const both = await log(`?folder_id_in=${a.id},${b.id}&ordering=-ad_account,action&limit=3`);
      expect(both.count).toBe(4);
      expect(both.next).toContain('offset=3');
      expect(both.results.map((e) => [e.folder_name, e.action])).toEqual([
        ['BBB Sort', 'Folder created'],
        ['BBB Sort', 'Rule created'],
        ['AAA Sort', 'Folder created'],
      ]);
      const ascending = await log(`?folder_id_in=${a.id},${b.id}&ordering=ad_account,-action`);
      expect(ascending.results.map((e) => [e.folder_name, e.action])).toEqual([
        ['AAA Sort', 'Rule created'],
        ['AAA Sort', 'Folder created'],
        ['BBB Sort', 'Rule created'],
        ['BBB Sort', 'Folder created'],
      ]);
      expect((await log('?folder_id_in=abc')).count).toBe(0);
      expect((await log('?limit=2&offset=2')).results).toHaveLength(2);
    });

    it('searches every name and text of an entry, case-insensitively and literally', async () => {
      await api.dbh.db.insert(auditLog).values([
        { actor: 'Fox Mulder', action: 'Searched 1', folderName: 'Ursa folder', metaAdAccountName: 'Polaris Acct' },
        { actor: 'System', action: 'Searched 2', ruleName: 'Ursa_Major 100%', changesText: 'Name: a → b' },
        { actor: 'System', action: 'Searched 3', changesText: 'Plan: Quasar → Pulsar' },
      ]);
      const actions = async (search: string) =>
        (await log(`?search=${encodeURIComponent(search)}&ordering=action&limit=100`)).results
          .map((e) => e.action)
          .filter((a) => a.startsWith('Searched'));
      expect(await actions('fox mul')).toEqual(['Searched 1']);
      expect(await actions('URSA')).toEqual(['Searched 1', 'Searched 2']);
      expect(await actions('polaris')).toEqual(['Searched 1']);
      expect(await actions('_major 100%')).toEqual(['Searched 2']);
      expect(await actions('quasar → pul')).toEqual(['Searched 3']);
      expect(await actions('searched 3')).toEqual(['Searched 3']);
      // % and _ are not wildcards, and text spanning two columns is no match.
      expect(await actions('Ursa%folder')).toEqual([]);
      expect(await actions('Polaris Acct Searched')).toEqual([]);
      expect(await actions('folder Polaris')).toEqual([]);
    });

    it('pages a search that matches by several names and the text in any sort, each entry once', async () => {
      await api.dbh.db.insert(auditLog).values([
        { actor: 'Vega Lyra', action: 'Paged c', folderName: 'Deneb folder', metaAdAccountName: 'Vega Acct' },
        { actor: 'Deneb Altair', action: 'Paged a', folderName: 'Vega folder', ruleName: 'Vega rule' },
        { actor: 'System', action: 'Paged b', changesText: 'Name: Vega → Deneb' },
        { actor: 'Vega Lyra', action: 'Paged d', ruleName: 'Altair rule' },
        { actor: 'System', action: 'Paged e', folderName: 'Altair folder' },
        // Two folder names match: in the time sort, each name's entries are taken on their own.
        { actor: 'System', action: 'Paged f', folderName: 'Vega annex' },
      ]);
      for (const ordering of ['-actor', 'ad_account', '-action', 'rule_name', 'timestamp', '-timestamp']) {
        const all = (await log(`?search=vega&ordering=${ordering}&limit=100`)).results.map((e) => e.action);
        expect(all.toSorted()).toEqual(['Paged a', 'Paged b', 'Paged c', 'Paged d', 'Paged f']);
        const pages = [0, 1, 2, 3, 4].map((offset) =>
          log(`?search=vega&ordering=${ordering}&limit=1&offset=${offset}`),
        );
        expect((await Promise.all(pages)).map((p) => p.results[0]?.action)).toEqual(all);
      }
    });

    it('needs view_logs', async () => {
      const reader = await api.userWith(['read_rules']);
      expect((await call(api, reader.token, 'GET', '/api/log/')).statusCode).toBe(403);
      expect((await api.request(null, { method: 'GET', url: '/api/log/' })).statusCode).toBe(401);
    });
  });

  describe(`a log past its count cap on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    const page = async (query: string) =>
      (await call(api, admin.token, 'GET', `/api/log/${query}`)).json() as {
        count: number;
        count_is_estimate: boolean;
        count_is_lower_bound: boolean;
        next: string | null;
        previous: string | null;
        results: LogEntryDto[];
      };

    beforeAll(async () => {
      api = await createTestApi(engine, { config: { listCountCap: 5 } });
      admin = await api.userWith(RULES_ADMIN);
      await api.dbh.db
        .insert(auditLog)
        .values(Array.from({ length: 12 }, (_, i) => ({ action: `Capped ${i + 1}`, folderId: 4242 })));
      // The planner's statistics, as autovacuum keeps them on a live database.
      await api.dbh.sql.exec('analyze audit_log');
    });
    afterAll(() => api.close());

    it("answers the planner's estimate past the cap and still pages on to the end", async () => {
      const first = await page('?folder_id_in=4242&ordering=id&limit=4');
      expect(first).toMatchObject({ count_is_estimate: true, count_is_lower_bound: false, previous: null });
      expect(first.count).toBeGreaterThan(5);
      expect(first.results.map((e) => e.action)).toEqual(['Capped 1', 'Capped 2', 'Capped 3', 'Capped 4']);
      expect(first.next).toContain('offset=4');

      const middle = await page('?folder_id_in=4242&ordering=id&limit=4&offset=4');
      // Never below what the page proves: the rows up to its end and at least one more.
      expect(middle).toMatchObject({ count_is_estimate: true });
      expect(middle.count).toBeGreaterThanOrEqual(9);
      expect(middle.next).toContain('offset=8');

      const last = await page('?folder_id_in=4242&ordering=id&limit=4&offset=8');
      // The last page knows the exact total again, and has no next link.
      expect(last).toMatchObject({ count: 12, count_is_estimate: false, next: null });
      expect(last.results.map((e) => e.action)).toEqual(['Capped 9', 'Capped 10', 'Capped 11', 'Capped 12']);
    });

    it('counts exactly when the planner expects no more than the cap', async () => {
      const filtered = await page('?folder_id_in=4242&search=Capped 1&limit=2');
      // "Capped 1", "Capped 10", "Capped 11", "Capped 12".
      expect(filtered).toMatchObject({ count: 4, count_is_estimate: false });
      expect(filtered.next).toContain('offset=2');
    });
  });
});
