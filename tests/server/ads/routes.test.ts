/**
 * The ads list against the Graph simulator: after the engine has read an account every ad shows
 * whether it is on and why not — turned off by a rule (which, when, the run), paused by a person,
 * paused by Meta, its campaign off — with today's numbers and what the last run read; the filters
 * find them; Turn back on is the Activity's Undo for each (on again, exempt from the rule) and is
 * guarded as Undo is. The campaigns list shows its campaigns' states the same way.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../server/adplatform/simulator/index';
import type { GraphClient } from '../../../server/adplatform/graphClient';
import { CampaignSync } from '../../../server/campaigns/sync';
import { groups, ruleActivity, userGroups } from '../../../server/db/schema/index';
import { createRuleEngineService } from '../../../server/run/requestedRuns';
import type { AdDto } from '../../../shared/ads';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { quietLog, seedAccount, seedRule, startFrozenSimulator } from '../run/support';

const HOUR = 3_600_000;

eachDatabase((engine) => {
  describe(`ads list on ${engine}`, () => {
    let api: TestApi;
    let sim: Simulator;
    let client: GraphClient;
    let editor: TestUser;
    let viewer: TestUser;
    let ruleId: number;
    let folderId: number;
    let noLeadsAd: string;
    let personAd: string;
    let metaAd: string;
    let homeAccount: string;
    // The engine reads in hours of its own, before the real clock: the history keeps the first
    // reading of each hour, and the list's "today" is the real one.
    let clock = Date.now() - 5 * HOUR;

    beforeAll(async () => {
      const world = await startFrozenSimulator();
      sim = world.sim;
      client = world.client;
      api = await createTestApi(engine, {
        services: (dbh) => ({
          ruleEngine: createRuleEngineService({
            db: dbh.db,
            client: world.client,
            log: quietLog,
            now: () => new Date(clock),
            limits: { maxShare: 1, maxActions: 1000 },
          }),
        }),
      });
      await seedAccount(api.dbh.db, world.home);
      homeAccount = world.home.adAccountId;
      const seeded = await seedRule(api.dbh.db, world.home.adAccountId, {
        folderName: 'Harbor folder',
        ruleName: 'No leads after $40',
        contains: ['SS-W'],
        tasks: { spend_cpl_no_leads: { spend: '40' } },
      });
      ruleId = seeded.rule.id;
      folderId = seeded.folder.id;
      noLeadsAd = sim.scenario('spend_no_leads').adIds[0]!;
      personAd = sim.scenario('steady_converter').adIds[0]!;
      metaAd = sim.scenario('cpl_climbs').adIds[0]!;
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
    const ads = async (query = '') => {
      const response = await get(viewer, `/api/ads/?limit=100${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { count: number; results: AdDto[] };
    };
    const adOf = async (adId: string) => (await ads(`&ad_id=${adId}`)).results[0]!;
    const idsOf = async (query: string) => (await ads(query)).results.map((ad) => ad.id).sort();
    const readAgain = async (path: 'preview' | 'run_now') => {
      clock += HOUR;
      const response = await api.request(editor.token, {
        method: path === 'preview' ? 'GET' : 'POST',
        url: `/api/rules/${ruleId}/${path}/`,
      });
      expect(response.statusCode, response.body).toBe(200);
    };

    it('lists no ad before the engine read the account', async () => {
      expect(await ads()).toMatchObject({ count: 0, results: [] });
    });

    it('lists the ads a read found, on, with their campaign, folder and today’s numbers', async () => {
      await readAgain('preview');
      const list = await ads();
      expect(list.count).toBeGreaterThan(3);
      const ad = list.results.find((a) => a.id === noLeadsAd)!;
      expect(ad).toMatchObject({
        name: sim.inspect(noLeadsAd).name,
        campaign: { id: sim.scenario('spend_no_leads').campaignId },
        folder: { id: folderId, name: 'Harbor folder' },
        state: { on: true, reason: 'on', rule: null, run_id: null },
        last_judged: null,
      });
      expect(ad.campaign.name).toContain('SS-W');
      // First read today: all its numbers are today's.
      expect(ad.today).toMatchObject({ leads: 0, cpl: null });
      expect(ad.today!.spend).toBeGreaterThan(40);
      // By name, ties by id: pages never overlap.
      const names = list.results.map((a) => a.name);
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    });

    it('says a rule turned the ad off, which, when and in which run, with what the run read', async () => {
      await readAgain('run_now');
      const ad = await adOf(noLeadsAd);
      const [entry] = await api.dbh.db.select().from(ruleActivity).where(eq(ruleActivity.adId, noLeadsAd));
      expect(entry).toMatchObject({ action: 'turn_off_ad' });
      expect(ad.state).toEqual({
        on: false,
        reason: 'rule',
        at: new Date(entry!.createdAt).toISOString(),
        rule: { id: ruleId, name: 'No leads after $40' },
        run_id: entry!.runId,
        entry_id: entry!.id,
        detail: null,
      });
      expect(ad.last_judged).toMatchObject({
        run_id: entry!.runId,
        rule: { id: ruleId, name: 'No leads after $40' },
        leads: 0,
        cpl: null,
      });
      expect(ad.last_judged!.spend).toBeGreaterThan(40);
    });

    it('says a person paused an ad, and Meta another, with Meta’s words', async () => {
      // As a person in Ads Manager, and Meta after a policy review; the next reads see them.
      await client.setStatuses([{ id: personAd, status: 'PAUSED' }]);
      sim.pauseByMeta(metaAd, 'policy');
      await readAgain('run_now');
      expect((await adOf(personAd)).state).toMatchObject({ on: false, reason: 'person', rule: null });
      const meta = await adOf(metaAd);
      expect(meta.state).toMatchObject({ on: false, reason: 'meta', rule: null, run_id: null });
      expect(meta.state.detail).toContain('Advertising Standards');
      expect(meta.state.at).not.toBeNull();
    });

    it('filters by status, reason, rule, run, folder, campaign and search', async () => {
      const all = await idsOf('');
      const off = await idsOf('&status=off');
      expect(off).toEqual(expect.arrayContaining([noLeadsAd, personAd, metaAd]));
      const on = await idsOf('&status=on');
      expect(on).not.toContain(noLeadsAd);
      expect([...on, ...off].sort()).toEqual(all);
      expect(await idsOf('&reason=rule')).toEqual([noLeadsAd]);
      expect(await idsOf('&reason=meta,person')).toEqual([metaAd, personAd].sort());
      expect(await idsOf(`&rule_id=${ruleId}`)).toEqual([noLeadsAd]);
      expect(await idsOf('&rule_id=999999')).toEqual([]);

      const runId = (await adOf(noLeadsAd)).state.run_id;
      const ofRun = await idsOf(`&run_id=${runId}`);
      expect(ofRun).toContain(noLeadsAd);
      // The rule looks at SS-W campaigns only.
      for (const ad of (await ads(`&run_id=${runId}`)).results) expect(ad.campaign.name).toContain('SS-W');

      expect(await idsOf(`&folder_id=${folderId}`)).toEqual(all);
      expect(await idsOf('&folder_id=999999')).toEqual([]);
      const campaignId = sim.scenario('spend_no_leads').campaignId;
      const ofCampaign = await ads(`&campaign_id=${campaignId}`);
      expect(ofCampaign.results.map((a) => a.id)).toContain(noLeadsAd);
      for (const ad of ofCampaign.results) expect(ad.campaign.id).toBe(campaignId);
      expect(await idsOf(`&search=${noLeadsAd}`)).toEqual([noLeadsAd]);
      const name = String(sim.inspect(personAd).name);
      expect(await idsOf(`&search=${encodeURIComponent(name.toUpperCase())}`)).toContain(personAd);

      // Off first when sorted by status, the rule's turn-off before all; paging keeps the order.
      const byStatus = (await ads('&ordering=status')).results;
      expect(byStatus[0]!.id).toBe(noLeadsAd);
      expect(byStatus.at(-1)!.state.reason).toBe('on');
      const paged = [...(await get(viewer, '/api/ads/?ordering=status&limit=2')).json().results];
      const second = await get(viewer, '/api/ads/?ordering=status&limit=2&offset=2');
      paged.push(...second.json().results);
      expect(paged.map((a) => a.id)).toEqual(byStatus.slice(0, 4).map((a) => a.id));
      expect(second.json().count).toBe(all.length);
      const past = (await get(viewer, '/api/ads/?limit=10&offset=500')).json();
      expect(past).toMatchObject({ count: all.length, results: [] });

      const bad = await get(viewer, '/api/ads/?status=maybe&reason=bored');
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json()).sort()).toEqual(['reason', 'status']);
    });

    it('lets only view_logs list the ads, and only create_update_rules turn them on, as Undo', async () => {
      const outsider = await api.userWith(['read_rules', 'add_edit_campaigns']);
      expect((await get(outsider, '/api/ads/')).statusCode).toBe(403);
      const body = { ids: [noLeadsAd] };
      const refused = await api.request(viewer.token, { method: 'POST', url: '/api/ads/turn_on/', payload: body });
      expect(refused.statusCode).toBe(403);
      const undoRefused = await api.request(viewer.token, { method: 'POST', url: '/api/rule_log/1/undo/' });
      expect(undoRefused.statusCode).toBe(403);
      expect(sim.inspect(noLeadsAd).status).toBe('PAUSED');
      const empty = await api.request(editor.token, { method: 'POST', url: '/api/ads/turn_on/', payload: { ids: [] } });
      expect(empty.statusCode).toBe(400);
    });

    it('leaves off an ad whose turn-off is outside the person’s folders, as Undo refuses it', async () => {
      const scoped = await api.userWith(['create_update_rules', 'view_logs']);
      const [membership] = await api.dbh.db.select().from(userGroups).where(eq(userGroups.userId, scoped.id));
      const elsewhere = await seedRule(api.dbh.db, homeAccount, { folderName: 'Elsewhere folder' });
      await api.dbh.db
        .update(groups)
        .set({ ruleFolderIds: [elsewhere.folder.id] })
        .where(eq(groups.id, membership!.groupId));
      const response = await api.request(scoped.token, {
        method: 'POST',
        url: '/api/ads/turn_on/',
        payload: { ids: [noLeadsAd] },
      });
      expect(response.statusCode, response.body).toBe(200);
      const [result] = response.json().results;
      expect(result).toMatchObject({ ad_id: noLeadsAd, result: 'failed' });
      expect(result.detail).toBe('Your permission group may edit rules only in: Elsewhere folder.');
      expect(sim.inspect(noLeadsAd).status).toBe('PAUSED');
      const undo = await api.request(scoped.token, {
        method: 'POST',
        url: `/api/rule_log/${(await adOf(noLeadsAd)).state.entry_id}/undo/`,
      });
      expect(undo.statusCode).toBe(403);
      expect(undo.json().detail).toBe(result.detail);
    });

    it('turns back on the ads a rule turned off, each exempt from its rule, and leaves the others', async () => {
      const response = await api.request(editor.token, {
        method: 'POST',
        url: '/api/ads/turn_on/',
        payload: { ids: [noLeadsAd, personAd, metaAd] },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        turned_on: 1,
        detail: '1 ad turned back on; 2 left as they were.',
        results: [
          { ad_id: noLeadsAd, result: 'turned_on' },
          { ad_id: personAd, result: 'skipped' },
          { ad_id: metaAd, result: 'skipped' },
        ],
      });
      expect(sim.inspect(noLeadsAd).status).toBe('ACTIVE');
      expect(sim.inspect(personAd).status).toBe('PAUSED');
      // The Undo's entry and exemption, exactly as the Activity's Undo leaves them.
      const entries = await api.dbh.db.select().from(ruleActivity).where(eq(ruleActivity.adId, noLeadsAd));
      expect(entries.find((e) => e.action === 'turn_off_ad')!.undoneAt).not.toBeNull();
      expect(entries.find((e) => e.action === 'turn_on_ad')).toMatchObject({
        ruleId,
        actorId: editor.id,
        reason: { Exempt: 'the rule leaves this object alone until the exemption is removed' },
      });
      const exemptions = await get(editor, `/api/rules/${ruleId}/exemptions/`);
      expect(exemptions.json().results.map((e: { object_id: string }) => e.object_id)).toEqual([noLeadsAd]);
      expect((await adOf(noLeadsAd)).state).toMatchObject({ on: true, reason: 'on' });

      // Once on, there is nothing left to turn on; the next run leaves it alone.
      const again = await api.request(editor.token, {
        method: 'POST',
        url: '/api/ads/turn_on/',
        payload: { ids: [noLeadsAd] },
      });
      expect(again.json()).toMatchObject({ turned_on: 0, results: [{ result: 'skipped' }] });
      await readAgain('run_now');
      expect((await adOf(noLeadsAd)).state.reason).toBe('on');
    });

    it('shows each campaign’s state in the campaigns list, and an ad under a campaign a rule turned off', async () => {
      await new CampaignSync(api.dbh.db, client).syncAll();
      const campaignId = sim.scenario('spend_no_leads').campaignId;
      const paused = sim.scenario('steady_converter').campaignId;
      await client.setStatuses([{ id: paused, status: 'PAUSED' }]);
      await new CampaignSync(api.dbh.db, client).refreshCampaign(paused);
      // A rule turns the campaign off after the sync read it.
      const [entry] = await api.dbh.db
        .insert(ruleActivity)
        .values({ ruleId, folderId, action: 'turn_off_campaign', adId: campaignId, objectType: 'campaign', runId: 7 })
        .returning();
      const admin = await api.userWith(['add_edit_campaigns']);
      const response = await api.request(admin.token, { method: 'GET', url: '/api/campaigns/?limit=100' });
      expect(response.statusCode, response.body).toBe(200);
      const states = new Map<string, unknown>(
        response.json().results.map((c: { campaign_id: string; state: unknown }) => [c.campaign_id, c.state]),
      );
      expect(states.get(campaignId)).toEqual({
        on: false,
        reason: 'rule',
        at: new Date(entry!.createdAt).toISOString(),
        rule: { id: ruleId, name: 'No leads after $40' },
        run_id: 7,
        entry_id: entry!.id,
        detail: null,
      });
      expect(states.get(paused)).toMatchObject({ on: false, reason: 'person' });
      // The others as the platform has them.
      const others = [...states.entries()].filter(([id]) => id !== campaignId && id !== paused);
      expect(others.some(([, state]) => (state as { on: boolean }).on)).toBe(true);
      const expected: Record<string, object> = {
        ACTIVE: { on: true, reason: 'on' },
        PAUSED: { on: false, reason: 'person' },
      };
      for (const [id, state] of others)
        expect(state).toMatchObject(expected[sim.inspect(id).status] ?? { on: false, reason: 'platform' });

      const ad = await adOf(noLeadsAd);
      expect(ad.state).toMatchObject({ on: false, reason: 'campaign' });
      expect(ad.campaign.state).toMatchObject({ reason: 'rule', rule: { name: 'No leads after $40' } });
      expect(await idsOf('&reason=campaign')).toContain(noLeadsAd);
    });
  });
});
