/**
 * The rule engine's API against the Graph simulator over real HTTP: Preview touches nothing,
 * Run now pauses ads in the simulator, the rule log lists why (filters, search, ordering, paging),
 * Undo turns the ad back on and exempts it, and permissions are enforced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../server/adplatform/simulator/index';
import { createRuleEngineService } from '../../../server/run/requestedRuns';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { quietLog, seedAccount, seedRule, startFrozenSimulator } from '../run/support';

eachDatabase((engine) => {
  describe(`rule engine API on ${engine}`, () => {
    let api: TestApi;
    let sim: Simulator;
    let editor: TestUser;
    let viewer: TestUser;
    let noLeadsAd: string;
    let ruleId: number;
    let folderId: number;
    let adAccountId: string;

    beforeAll(async () => {
      const world = await startFrozenSimulator();
      sim = world.sim;
      api = await createTestApi(engine, {
        services: (dbh) => ({
          ruleEngine: createRuleEngineService({ db: dbh.db, client: world.client, log: quietLog }),
        }),
      });
      await seedAccount(api.dbh.db, world.home);
      // The scenario ad has spent about $60 with no lead; the threshold is $40.
      const seeded = await seedRule(api.dbh.db, world.home.adAccountId, {
        folderName: 'Harbor folder',
        ruleName: 'No leads after $40',
        contains: ['SS-W'],
        tasks: { spend_cpl_no_leads: { spend: '40' } },
      });
      ruleId = seeded.rule.id;
      folderId = seeded.folder.id;
      adAccountId = world.home.adAccountId;
      noLeadsAd = sim.scenario('spend_no_leads').adIds[0]!;
      editor = await api.userWith(['create_update_rules', 'read_rules', 'view_logs'], {
        firstName: 'Eda',
        lastName: 'Editor',
      });
      viewer = await api.userWith(['view_logs', 'read_rules']);
    });
    afterAll(async () => {
      await api.close();
      await sim.close();
    });

    const get = (user: TestUser, url: string) => api.request(user.token, { method: 'GET', url });
    const post = (user: TestUser, url: string) => api.request(user.token, { method: 'POST', url });

    it('previews what the rule would turn off and why, without touching anything', async () => {
      const response = await get(editor, `/api/rules/${ruleId}/preview/`);
      expect(response.statusCode, response.body).toBe(200);
      const preview = response.json();
      expect(preview.rule).toEqual({ id: ruleId, name: 'No leads after $40' });
      expect(preview.results).toEqual([
        expect.objectContaining({
          action: 'turn_off_ad',
          ad_id: noLeadsAd,
          task: 'spend_cpl_no_leads',
          reason: expect.objectContaining({ Leads: '0' }),
        }),
      ]);
      expect(preview.results[0].reason.Spend).toMatch(/^\$\d+\.\d\d > \$40\.00$/);
      // Names to read before ids, and the total the count is a part of.
      const ad = sim.inspect(noLeadsAd);
      expect(preview.results[0].ad_name).toBe(ad.name);
      expect(preview.results[0].campaign_name).toBe(sim.inspect(preview.results[0].campaign_id).name);
      expect(preview.delivering).toBeGreaterThanOrEqual(preview.count);
      expect(preview.delivering).toBeGreaterThan(1);
      expect(sim.writes).toEqual([]);
      expect(sim.inspect(noLeadsAd).status).toBe('ACTIVE');
    });

    it('runs now: the ad is paused in the simulator and the rule log says why', async () => {
      const response = await post(editor, `/api/rules/${ruleId}/run_now/`);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ status: 'done', turned_off: 1, failed: 0 });
      expect(sim.inspect(noLeadsAd).status).toBe('PAUSED');

      const log = await get(viewer, `/api/rule_log/?rule_id_in=${ruleId}`);
      expect(log.statusCode).toBe(200);
      expect(log.json()).toMatchObject({ count: 1, next: null, previous: null });
      const [entry] = log.json().results;
      expect(entry).toMatchObject({
        action: 'turn_off_ad',
        ad_id: noLeadsAd,
        rule: {
          id: ruleId,
          name: 'No leads after $40',
          folder: { id: folderId, name: 'Harbor folder', meta_ad_account: { account_name: 'Harbor Wealth Advisors' } },
        },
        reason: { Leads: '0', Run: 'Run now by Eda Editor' },
      });
      expect(Object.keys(entry.reason).slice(0, 2)).toEqual(['Spend', 'Leads']);

      const again = await post(editor, `/api/rules/${ruleId}/run_now/`);
      expect(again.json()).toMatchObject({ turned_off: 0 });
    });

    it('filters the rule log by rule, folder, ad and search, and pages it', async () => {
      const other = await seedRule(api.dbh.db, (await seedAccount(api.dbh.db)).adAccountId, {
        folderName: 'Other folder',
      });
      await api.dbh.sql.query(
        `insert into rule_activity (rule_id, folder_id, action, ad_id, reason) values ($1, $2, 'error', null, '{"Error":"(#17) User request limit reached"}'), ($1, $2, 'turn_off_ad', '555', '{"CPL":"$80.00 > $50.00"}')`,
        [other.rule.id, other.folder.id],
      );
      const ids = async (query: string) =>
        (await get(viewer, `/api/rule_log/?${query}`))
          .json()
          .results.map((r: { ad_id: string | null; action: string }) => r.ad_id ?? r.action);
      expect(await ids(`folder_id_in=${folderId}`)).toEqual([noLeadsAd]);
      expect(await ids(`folder_id_in=${other.folder.id},${folderId}&ordering=client_account`)).toEqual([
        noLeadsAd,
        'error',
        '555',
      ]);
      expect(await ids(`ad_id_in=555,${noLeadsAd}&ordering=-client_account`)).toEqual(['555', noLeadsAd]);
      expect(await ids(`rule_id_in=${other.rule.id}&search=limit reached`)).toEqual(['error']);
      expect(await ids(`rule_id_in=${other.rule.id}&search=other fold`)).toEqual(['555', 'error']);
      expect(await ids('rule_id_in=abc')).toEqual([]);
      const paged = (
        await get(viewer, `/api/rule_log/?folder_id_in=${other.folder.id}&limit=1&offset=1&ordering=created_at`)
      ).json();
      expect(paged.count).toBe(2);
      expect(paged.next).toBeNull();
      expect(paged.previous).toMatch(/limit=1/);
      expect(paged.results).toHaveLength(1);
    });

    it('searches and sorts by the folder, rule and ad account names as they are now', async () => {
      const account = await seedAccount(api.dbh.db, { accountName: 'Aardvark Capital' });
      const renamed = await seedRule(api.dbh.db, account.adAccountId, {
        folderName: 'Aardvark folder',
        ruleName: 'Aardvark rule',
      });
      await api.dbh.sql.query(
        `insert into rule_activity (rule_id, folder_id, action, ad_id, reason) values ($1, $2, 'turn_off_ad', '777', '{}')`,
        [renamed.rule.id, renamed.folder.id],
      );
      const first = async (query: string) =>
        (await get(viewer, `/api/rule_log/?${query}`)).json().results[0]?.ad_id as string | undefined;
      expect(await first('ordering=client_account')).toBe('777');
      expect(await first('ordering=rule')).toBe('777');

      await api.dbh.sql.query(`update folders set name = 'Zz renamed folder' where id = $1`, [renamed.folder.id]);
      await api.dbh.sql.query(`update rules set name = 'Zz renamed rule' where id = $1`, [renamed.rule.id]);
      await api.dbh.sql.query(`update meta_ad_accounts set account_name = 'Quokka Capital' where ad_account_id = $1`, [
        account.adAccountId,
      ]);
      expect(await first('search=zz RENAMED fold')).toBe('777');
      expect(await first('search=Zz renamed rule')).toBe('777');
      expect(await first('search=Quokka')).toBe('777');
      expect(await first('search=Aardvark')).toBeUndefined();
      const [entry] = (await get(viewer, '/api/rule_log/?search=Zz renamed rule')).json().results;
      expect(entry.rule).toMatchObject({ name: 'Zz renamed rule', folder: { name: 'Zz renamed folder' } });
      expect(await first('ordering=-client_account')).toBe('777');
      expect(await first('ordering=-rule')).toBe('777');
      expect(await first('ordering=client_account')).not.toBe('777');

      // A rule deleted for good leaves its entries in the folder they were written in.
      await api.dbh.sql.query('delete from rules where id = $1', [renamed.rule.id]);
      expect(await first('search=Zz renamed fold')).toBe('777');
      expect(await first(`folder_id_in=${renamed.folder.id}`)).toBe('777');
      expect(await first('ordering=-client_account')).toBe('777');
      expect(await first('search=Zz renamed rule')).toBeUndefined();

      // A folder deleted for good leaves its entries without one: after every named folder in the
      // folder sort, before them backwards, and pages run on across that boundary.
      await api.dbh.sql.query('delete from folders where id = $1', [renamed.folder.id]);
      const sorted = (await get(viewer, '/api/rule_log/?ordering=client_account&limit=1000')).json().results as {
        id: number;
        ad_id: string;
        rule: unknown;
      }[];
      expect(sorted.at(-1)).toMatchObject({ ad_id: '777', rule: null });
      expect(await first('ordering=-client_account')).toBe('777');
      const page = async (offset: number) =>
        (await get(viewer, `/api/rule_log/?ordering=client_account&limit=2&offset=${offset}`))
          .json()
          .results.map((r: { id: number }) => r.id);
      expect(await page(sorted.length - 3)).toEqual(sorted.slice(-3, -1).map((r) => r.id));
      expect(await page(sorted.length - 2)).toEqual(sorted.slice(-2).map((r) => r.id));
      expect(await page(sorted.length - 1)).toEqual([sorted.at(-1)!.id]);
      expect(await page(sorted.length)).toEqual([]);
    });

    it('undoes a turn-off: the ad runs again, the undo is its own entry, and the rule leaves the ad alone', async () => {
      const [entry] = (await get(viewer, `/api/rule_log/?ad_id_in=${noLeadsAd}`)).json().results;
      const undo = await post(editor, `/api/rule_log/${entry.id}/undo/`);
      expect(undo.statusCode, undo.body).toBe(200);
      expect(undo.json()).toMatchObject({
        action: 'turn_on_ad',
        ad_id: noLeadsAd,
        reason: { Undo: `of entry #${entry.id} by Eda Editor` },
      });
      expect(sim.inspect(noLeadsAd).status).toBe('ACTIVE');
      expect((await post(editor, `/api/rule_log/${entry.id}/undo/`)).json()).toEqual({
        detail: 'This action was already undone.',
      });

      const log = (await get(viewer, `/api/rule_log/?ad_id_in=${noLeadsAd}`)).json().results;
      expect(log.map((r: { action: string; exempt: boolean }) => [r.action, r.exempt])).toEqual([
        ['turn_on_ad', true],
        ['turn_off_ad', true],
      ]);
      expect(log[1].undone_at).not.toBeNull();

      expect((await get(viewer, `/api/rules/${ruleId}/exemptions/`)).json().results).toEqual([
        { object_id: noLeadsAd, created_at: expect.any(String) },
      ]);
      expect((await get(editor, `/api/rules/${ruleId}/preview/`)).json()).toMatchObject({
        results: [],
        exempt: [noLeadsAd],
      });
      expect((await post(editor, `/api/rules/${ruleId}/run_now/`)).json()).toMatchObject({ turned_off: 0 });
      expect(sim.inspect(noLeadsAd).status).toBe('ACTIVE');

      // Removing the exemption lets the rule act on the ad again.
      const removed = await api.request(editor.token, {
        method: 'DELETE',
        url: `/api/rules/${ruleId}/exemptions/${noLeadsAd}/`,
      });
      expect(removed.statusCode).toBe(204);
      expect((await get(viewer, `/api/rule_log/?ad_id_in=${noLeadsAd}`)).json().results[0]).toMatchObject({
        action: 'turn_on_ad',
        exempt: false,
      });
      expect((await post(editor, `/api/rules/${ruleId}/run_now/`)).json()).toMatchObject({ turned_off: 1 });
      expect(sim.inspect(noLeadsAd).status).toBe('PAUSED');
    });

    it('refuses an undo of anything but a turn-off, and unknown entries', async () => {
      const [error] = (await get(viewer, '/api/rule_log/?search=limit reached')).json().results;
      expect((await post(editor, `/api/rule_log/${error.id}/undo/`)).json()).toEqual({
        detail: 'Only a turn-off can be undone.',
      });
      expect((await post(editor, '/api/rule_log/999999/undo/')).statusCode).toBe(404);
      expect((await post(editor, '/api/rule_log/abc/undo/')).statusCode).toBe(404);
      expect((await post(editor, '/api/rules/999999/run_now/')).statusCode).toBe(404);
    });

    it("answers a rule's conflicts and the platform's health of its ad account, 404 for unknown ones", async () => {
      const conflicts = await get(viewer, `/api/rules/${ruleId}/conflicts/`);
      expect(conflicts.statusCode, conflicts.body).toBe(200);
      expect(conflicts.json()).toEqual([]);
      expect((await get(viewer, '/api/rules/999999/conflicts/')).statusCode).toBe(404);

      const health = await get(viewer, '/api/platform_health/');
      expect(health.statusCode, health.body).toBe(200);
      const account = health.json().accounts.find((a: { ad_account_id: string }) => a.ad_account_id === adAccountId);
      expect(account).toBeDefined();
      const one = await get(viewer, `/api/platform_health/${adAccountId}/`);
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json()).toEqual(account);
      expect((await get(viewer, '/api/platform_health/act_404/')).statusCode).toBe(404);
    });

    it('enforces permissions on every call', async () => {
      const nobody = await api.userWith([]);
      expect((await get(nobody, '/api/rule_log/')).statusCode).toBe(403);
      expect((await api.request(null, { method: 'GET', url: '/api/rule_log/' })).statusCode).toBe(401);
      expect((await post(viewer, `/api/rules/${ruleId}/run_now/`)).statusCode).toBe(403);
      expect((await get(viewer, `/api/rules/${ruleId}/preview/`)).statusCode).toBe(403);
      expect((await post(viewer, '/api/rule_log/1/undo/')).statusCode).toBe(403);
      expect(
        (await api.request(viewer.token, { method: 'DELETE', url: `/api/rules/${ruleId}/exemptions/1/` })).statusCode,
      ).toBe(403);
      expect(sim.writes.every((w) => w.id === noLeadsAd)).toBe(true);
    });
  });

  describe(`rule log search past the count cap on ${engine}`, () => {
    let api: TestApi;
    let viewer: TestUser;

    beforeAll(async () => {
      api = await createTestApi(engine, { config: { listCountCap: 2 } });
      viewer = await api.userWith(['view_logs', 'read_rules']);
      const account = await seedAccount(api.dbh.db);
      const { rule, folder } = await seedRule(api.dbh.db, account.adAccountId, { folderName: 'Cap folder' });
      await api.dbh.sql.query(
        `insert into rule_activity (rule_id, folder_id, action, ad_id, reason)
         select $1, $2, 'turn_off_ad', (900 + n)::text, jsonb_build_object('Ad', 'Zebra crossing ' || n) from generate_series(1, 4) as n`,
        [rule.id, folder.id],
      );
    });
    afterAll(() => api.close());

    it('finds every entry holding the text, however many there are', async () => {
      const all = (
        await api.request(viewer.token, { method: 'GET', url: '/api/rule_log/?search=zebra crossing' })
      ).json();
      expect(all.results.map((r: { ad_id: string }) => r.ad_id)).toEqual(['904', '903', '902', '901']);
      expect(all.count).toBe(4);
      const one = (
        await api.request(viewer.token, { method: 'GET', url: '/api/rule_log/?search=zebra crossing 3' })
      ).json();
      expect(one.results.map((r: { ad_id: string }) => r.ad_id)).toEqual(['903']);
    });

    it('finds the entries of the rules named by a word more than a thousand rules hold, and only theirs', async () => {
      const account = await seedAccount(api.dbh.db);
      const { folder, rule } = await seedRule(api.dbh.db, account.adAccountId, { folderName: 'Walrus folder' });
      await api.dbh.sql.query(
        `with named as (
           insert into rules (folder_id, name, schedule, alert_schedule)
           select $1, 'Walrus rule ' || n, '[]', '[]' from generate_series(1, 1001) as n returning id, name)
         insert into rule_activity (rule_id, folder_id, action, ad_id)
         select id, $1, 'turn_off_ad', '77' || split_part(name, ' ', 3) from named
         where name in ('Walrus rule 1', 'Walrus rule 1001')`,
        [folder.id],
      );
      // The folder's own rule is not named so: its entry is not found.
      await api.dbh.sql.query(
        `insert into rule_activity (rule_id, folder_id, action, ad_id) values ($1, $2, 'turn_off_ad', '7799')`,
        [rule.id, folder.id],
      );
      const found = (
        await api.request(viewer.token, { method: 'GET', url: '/api/rule_log/?search=walrus rule&ordering=ad_id' })
      ).json();
      expect(found.results.map((r: { ad_id: string }) => r.ad_id)).toEqual(['771', '771001']);
    });
  });
});
