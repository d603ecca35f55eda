/**
 * The simulator answers over HTTP the calls an agency tool makes, as Graph answers them (versions:
 * versions.test.ts): list edges of campaigns and ad sets, filtering, summary, updated_since, reads of several ids,
 * /me, field expansion, writes of names, budgets and statuses with Graph's refusals, and batches.
 * What it does not model it refuses by name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../../server/adplatform/simulator/index';
import { ACCOUNT_LIMIT_80004 } from '../graphBodies';

const TOKEN = 'fidelity-token';
const START = '2026-03-02T15:00:00Z';

describe('Graph as an agency tool sees it', () => {
  let sim: Simulator;
  let account: string;

  // biome-ignore lint/suspicious/noExplicitAny: assertions read Graph's JSON answers field by field
  type Json = Record<string, any>;
  const call = async (path: string, params: Record<string, string> = {}, method = 'GET', version = 'v25.0') => {
    const query = new URLSearchParams({ ...params, access_token: TOKEN });
    const prefix = version ? `/${version}` : '';
    const response =
      method === 'GET'
        ? await fetch(`${sim.url}${prefix}/${path}?${query}`)
        : await fetch(`${sim.url}${prefix}/${path}`, { method, body: query });
    return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
  };
  const ids = (body: Json) => (body.data as Json[]).map((row) => row.id as string).sort();
  const campaignsOf = () => [...sim.world.campaigns.values()].filter((c) => `act_${c.accountId}` === account);

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 5,
      start: START,
      speed: 0,
      accounts: 2,
      campaignsPerAccount: 10,
      adsPerCampaign: 3,
      accessToken: TOKEN,
    });
    account = `act_${sim.world.accounts[0]!.accountId}`;
  });
  afterAll(() => sim.close());

  describe('edges', () => {
    it('lists the ads and ad sets of one campaign, and the ads of one ad set', async () => {
      const campaign = campaignsOf()[0]!;
      const ads = await call(`${campaign.id}/ads`, { fields: 'campaign_id,adset_id', limit: '100' });
      const expected = [...sim.world.ads.values()].filter((ad) => ad.campaignId === campaign.id).map((ad) => ad.id);
      expect(ids(ads.body)).toEqual(expected.sort());
      const adsets = await call(`${campaign.id}/adsets`, { fields: 'campaign_id' });
      expect(adsets.body.data.map((s: Json) => s.campaign_id)).toEqual([campaign.id]);
      const ofAdset = await call(`${adsets.body.data[0].id}/ads`);
      expect(ids(ofAdset.body)).toEqual(expected.sort());
    });

    it('lists every ad set of an account with its budget and targeting', async () => {
      const { body } = await call(`${account}/adsets`, {
        fields: 'daily_budget,lifetime_budget,budget_remaining,targeting,campaign{daily_budget,lifetime_budget}',
        limit: '100',
      });
      expect(body.data).toHaveLength(campaignsOf().length);
      for (const adset of body.data) {
        const ownBudget = adset.daily_budget ?? adset.lifetime_budget;
        const campaignBudget = adset.campaign.daily_budget ?? adset.campaign.lifetime_budget;
        expect(Boolean(ownBudget) !== Boolean(campaignBudget), 'the ad set or its campaign has the budget').toBe(true);
        expect(adset.targeting).toMatchObject({ age_min: 55, geo_locations: { countries: ['US'] } });
      }
      expect(body.data.some((adset: Json) => adset.lifetime_budget)).toBe(true);
      expect(body.data.some((adset: Json) => adset.campaign.daily_budget)).toBe(true);
    });

    it('refuses an edge that does not exist on the node, and one Graph has that the simulator does not model', async () => {
      const ad = [...sim.world.ads.values()][0]!;
      const none = await call(`${ad.id}/ads`);
      expect(none.body.error.message).toBe('(#100) Tried accessing nonexisting field (ads) on node type (Ad)');
      const unmodelled = await call(`${account}/adcreatives`);
      expect(unmodelled.body.error.message).toContain('does not model the edge /adcreatives');
    });
  });

  describe('list parameters', () => {
    it('filters the ads of an account by campaign.id with EQUAL, IN and NOT_IN', async () => {
      const [first, second] = campaignsOf();
      const filtered = (filter: unknown) =>
        call(`${account}/ads`, { filtering: JSON.stringify(filter), fields: 'campaign_id', limit: '500' });
      const equal = await filtered([{ field: 'campaign.id', operator: 'EQUAL', value: first!.id }]);
      expect(new Set(equal.body.data.map((ad: Json) => ad.campaign_id))).toEqual(new Set([first!.id]));
      expect(equal.body.data).toHaveLength(3);
      const inList = await filtered([{ field: 'campaign.id', operator: 'IN', value: [first!.id, second!.id] }]);
      expect(inList.body.data).toHaveLength(6);
      const all = await call(`${account}/ads`, { limit: '500' });
      const notIn = await filtered([{ field: 'campaign.id', operator: 'NOT_IN', value: [first!.id] }]);
      expect(notIn.body.data).toHaveLength(all.body.data.length - 3);
    });

    it('filters by name with CONTAIN and by times with GREATER_THAN, and refuses what it does not model by name', async () => {
      const contain = await call(`${account}/campaigns`, {
        filtering: JSON.stringify([{ field: 'name', operator: 'CONTAIN', value: 'harbor wealth' }]),
        fields: 'name',
      });
      expect(contain.body.data.length).toBeGreaterThan(0);
      for (const c of contain.body.data) expect(c.name).toMatch(/Harbor Wealth/);
      const later = await call(`${account}/ads`, {
        filtering: JSON.stringify([{ field: 'ad.created_time', operator: 'GREATER_THAN', value: 4_102_444_800 }]),
      });
      expect(later.body.data).toEqual([]);
      const unknownField = await call(`${account}/ads`, {
        filtering: JSON.stringify([{ field: 'campaign.idx', operator: 'EQUAL', value: '1' }]),
      });
      expect(unknownField.status).toBe(400);
      expect(unknownField.body.error.message).toContain('Filtering field campaign.idx is invalid');
      const unmodelled = await call(`${account}/ads`, {
        filtering: JSON.stringify([{ field: 'campaign.id', operator: 'ANY', value: ['1'] }]),
      });
      expect(unmodelled.body.error.message).toContain('does not model the filtering operator ANY');
    });

    it('adds total_count with summary=true, the same on every page', async () => {
      const first = await call(`${account}/ads`, { summary: 'true', limit: '4' });
      const all = await call(`${account}/ads`, { limit: '500' });
      expect(first.body.summary).toEqual({ total_count: all.body.data.length });
      expect(first.body.data).toHaveLength(4);
      const next = await fetch(first.body.paging.next);
      expect(((await next.json()) as Json).summary).toEqual({ total_count: all.body.data.length });
    });

    it('lists only what changed since updated_since', async () => {
      const ad = [...sim.world.ads.values()].find((a) => `act_${a.accountId}` === account)!;
      const since = String(Math.floor(sim.clock.now() / 1000));
      expect((await call(`${account}/ads`, { updated_since: since })).body.data).toEqual([]);
      sim.advanceHours(1);
      await call(ad.id, { name: 'Renamed - Video' }, 'POST');
      const changed = await call(`${account}/ads`, { updated_since: since, fields: 'name' });
      expect(changed.body.data).toEqual([{ id: ad.id, name: 'Renamed - Video' }]);
    });

    it('refuses a parameter it does not model, naming it', async () => {
      const preset = await call(`${account}/ads`, { date_preset: 'last_7d' });
      expect(preset.body.error.message).toContain('does not model param date_preset on edge /ads');
      const unknown = await call(`${account}/campaigns`, { sort: 'name_ascending' });
      expect(unknown.body.error.message).toContain('Unknown param sort');
    });
  });

  describe('nodes', () => {
    it('answers /me and its ad accounts', async () => {
      const me = await call('me');
      expect(me.body).toEqual({ id: expect.stringMatching(/^\d+$/), name: expect.any(String) });
      const email = await call('me', { fields: 'email' });
      expect(email.body.error.message).toContain('does not answer field (email) on node type (User)');
      const expanded = await call('me', { fields: 'adaccounts.limit(1){name}' });
      expect(expanded.body.adaccounts.data).toEqual([{ id: account, name: 'Harbor Wealth Advisors' }]);
      expect(expanded.body.adaccounts.paging.next).toContain('/me/adaccounts?');
    });

    it('reads several ids in one call, and refuses the call when one does not exist (#803)', async () => {
      const [a, b] = campaignsOf();
      const { body } = await call('', { ids: `${a!.id},${b!.id},${account}`, fields: 'name' });
      expect(body).toEqual({
        [a!.id]: { id: a!.id, name: a!.name },
        [b!.id]: { id: b!.id, name: b!.name },
        [account]: { id: account, name: 'Harbor Wealth Advisors' },
      });
      const missing = await call('', { ids: `${a!.id},404404`, fields: 'name' });
      expect(missing.body.error).toMatchObject({
        code: 803,
        message: '(#803) Some of the aliases you requested do not exist: 404404',
      });
    });

    it('expands parents and nested edges with modifiers in fields', async () => {
      const campaign = campaignsOf()[0]!;
      const ad = [...sim.world.ads.values()].find((a) => a.campaignId === campaign.id)!;
      const read = await call(ad.id, { fields: 'name,campaign{name,status},adset{id}' });
      expect(read.body).toEqual({
        id: ad.id,
        name: ad.name,
        campaign: { id: campaign.id, name: campaign.name, status: sim.inspect(campaign.id).status },
        adset: { id: ad.adsetId },
      });
      const nested = await call(campaign.id, { fields: 'ads.limit(2){name,adset{name}}' });
      expect(nested.body.ads.data).toHaveLength(2);
      expect(nested.body.ads.data[0].adset.name).toContain('Age 55+');
      expect(nested.body.ads.paging.next).toContain(`/${campaign.id}/ads?`);
    });

    it('answers insights inside fields as the insights edge would', async () => {
      const { campaignId } = sim.scenario('spend_no_leads');
      const expanded = await call(campaignId, { fields: 'name,insights.date_preset(last_7d){spend,actions}' });
      const direct = await call(`${campaignId}/insights`, { date_preset: 'last_7d', fields: 'spend,actions' });
      expect(expanded.body.insights.data).toEqual(direct.body.data);
      const bad = await call(campaignId, { fields: 'insights.date_preset(last_9d){spend}' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('date_preset');
    });

    it('refuses a field syntax error and modifiers on a plain field', async () => {
      expect((await call(account, { fields: 'name{' })).body.error.message).toContain('Syntax error in param fields');
      expect((await call(account, { fields: 'name.limit(2)' })).body.error.message).toContain('takes no modifiers');
    });
  });

  describe('writes', () => {
    const campaignWith = (budget: 'daily' | 'lifetime' | 'none') =>
      campaignsOf().find((c) =>
        budget === 'daily'
          ? c.dailyBudgetCents !== undefined
          : budget === 'lifetime'
            ? c.lifetimeBudgetCents !== undefined
            : c.dailyBudgetCents === undefined && c.lifetimeBudgetCents === undefined,
      )!;

    it('writes a name and a daily budget and reads them back', async () => {
      const campaign = campaignWith('daily');
      const write = await call(campaign.id, { name: 'EDM - Renamed', daily_budget: '12345' }, 'POST');
      expect(write.body).toEqual({ success: true });
      const read = await call(campaign.id, { fields: 'name,daily_budget' });
      expect(read.body).toEqual({ id: campaign.id, name: 'EDM - Renamed', daily_budget: '12345' });
      expect(sim.writes.at(-1)).toMatchObject({
        id: campaign.id,
        changed: { name: 'EDM - Renamed', daily_budget: '12345' },
      });
    });

    it('writes an ad set budget only where the campaign has none, as Graph refuses it (1885621)', async () => {
      const cbo = campaignWith('daily');
      const cboAdset = [...sim.world.adsets.values()].find((s) => s.campaignId === cbo.id)!;
      const refused = await call(cboAdset.id, { daily_budget: '5000' }, 'POST');
      expect(refused.body.error).toMatchObject({ code: 100, message: 'Invalid parameter', error_subcode: 1885621 });
      const abo = campaignWith('none');
      const aboAdset = [...sim.world.adsets.values()].find((s) => s.campaignId === abo.id)!;
      const kind = aboAdset.lifetimeBudgetCents === undefined ? 'daily_budget' : 'lifetime_budget';
      expect((await call(aboAdset.id, { [kind]: '7000' }, 'POST')).body).toEqual({ success: true });
      expect((await call(aboAdset.id, { fields: kind })).body[kind]).toBe('7000');
    });

    it('refuses a budget that is too low, a switch of budget type, and a budget on an ad', async () => {
      const campaign = campaignWith('daily');
      const low = await call(campaign.id, { daily_budget: '50' }, 'POST');
      expect(low.body.error).toMatchObject({ code: 100, error_user_title: 'Budget Is Too Low' });
      const lifetime = await call(campaign.id, { lifetime_budget: '500000' }, 'POST');
      expect(lifetime.body.error.error_user_title).toBe("Can't Switch Budget Type");
      const ad = [...sim.world.ads.values()][0]!;
      const adBudget = await call(ad.id, { daily_budget: '5000' }, 'POST');
      expect(adBudget.body.error.message).toContain('Unknown param daily_budget on a write to Ad');
    });

    it('refuses read-only and unmodelled fields by name rather than dropping them', async () => {
      const campaign = campaignWith('daily');
      const readOnly = await call(campaign.id, { name: 'X', effective_status: 'ACTIVE' }, 'POST');
      expect(readOnly.body.error.message).toContain('effective_status');
      const unmodelled = await call(campaign.id, { spend_cap: '100000' }, 'POST');
      expect(unmodelled.body.error.message).toContain('does not model param spend_cap');
      expect((await call(campaign.id, { fields: 'name' })).body.name).not.toBe('X');
    });

    it('deletes an ad, which then reads as missing', async () => {
      const ad = [...sim.world.ads.values()].find((a) => `act_${a.accountId}` !== account)!;
      expect((await call(ad.id, {}, 'DELETE')).body).toEqual({ success: true });
      expect((await call(ad.id)).body.error).toMatchObject({ code: 100, error_subcode: 33 });
    });
  });

  describe('batch and limits', () => {
    it('answers each batch item as its own call, and refuses item dependencies by name', async () => {
      const campaign = campaignsOf()[1]!;
      const batch = [
        { method: 'GET', relative_url: `${campaign.id}?fields=name` },
        { method: 'POST', relative_url: campaign.id, body: 'status=PAUSED', name: 'pause' },
        { method: 'GET', relative_url: `${campaign.id}?fields=status`, depends_on: 'pause' },
      ];
      const { body } = await call('', { batch: JSON.stringify(batch) }, 'POST');
      expect(body.map((item: Json) => item.code)).toEqual([200, 200, 400]);
      expect(JSON.parse(body[0].body)).toEqual({ id: campaign.id, name: campaign.name });
      expect(JSON.parse(body[2].body).error.message).toContain('batch item field depends_on');
      expect(sim.inspect(campaign.id).status).toBe('PAUSED');
    });

    it('sends 80004 as Graph does once an ad account is over its quota', async () => {
      const small = await startSimulator({ seed: 2, start: START, speed: 0, accounts: 1, accountQuota: 2 });
      try {
        const act = `act_${small.world.accounts[0]!.accountId}`;
        let last: Response | undefined;
        for (let i = 0; i < 3; i += 1) last = await fetch(`${small.url}/v25.0/${act}/campaigns?access_token=t`);
        expect(last!.status).toBe(400);
        expect(await last!.json()).toEqual({
          error: { ...ACCOUNT_LIMIT_80004.body.error, fbtrace_id: expect.any(String) },
        });
        const insights = await fetch(`${small.url}/v25.0/${act}/insights?access_token=t`);
        const usage = JSON.parse(insights.headers.get('x-business-use-case-usage')!);
        expect(usage[small.world.accounts[0]!.accountId][0].type).toBe('ads_insights');
      } finally {
        await small.close();
      }
    });
  });
});
