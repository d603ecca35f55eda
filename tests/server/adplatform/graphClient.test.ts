/**
 * The Graph client against the simulator over real HTTP: paging, batches, insights, sticky pauses,
 * and every injected fault (retried with growing back-off, typed error after the last try, no
 * duplicate writes). Waits go through an injected sleep that records them, so nothing here waits.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GraphClient, type GraphClientOptions } from '../../../server/adplatform/graphClient';
import {
  GraphApiError,
  GraphAuthError,
  GraphNotFoundError,
  GraphRateLimitError,
  GraphTimeoutError,
} from '../../../server/adplatform/errors';
import { insightMetrics } from '../../../server/adplatform/insightValues';
import { startSimulator, type Simulator } from '../../../server/adplatform/simulator/index';

const START = '2026-03-02T15:00:00Z';

describe('Graph client against the simulator', () => {
  let sim: Simulator;
  let sleeps: number[] = [];

  const client = (options: Partial<GraphClientOptions> = {}) =>
    new GraphClient({
      baseUrl: sim.url,
      apiVersion: 'v25.0',
      accessToken: 'test-token',
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      backoff: { baseMs: 1000, maxMs: 30_000 },
      // Generous: on a loaded machine an answer slower than 2 s was taken for a timeout and retried,
      // and the sleeps the tests read were the retry's. The timeout tests set their own.
      timeoutMs: 10_000,
      ...options,
    });

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 7,
      start: START,
      speed: 0,
      accounts: 3,
      campaignsPerAccount: 14,
      adsPerCampaign: 3,
      accessToken: 'test-token',
    });
  });
  afterAll(() => sim.close());
  afterEach(() => {
    sim.clearFaults();
    sleeps = [];
  });

  const firstAccount = () => `act_${sim.world.accounts[0]!.accountId}`;

  describe('reads', () => {
    it('lists the ad accounts with their own time zones', async () => {
      const accounts = await client().listAdAccounts();
      expect(accounts).toHaveLength(3);
      expect(accounts[0]).toMatchObject({
        id: `act_${accounts[0]!.account_id}`,
        name: 'Harbor Wealth Advisors',
        timezone_name: 'America/New_York',
        currency: 'USD',
      });
      expect(new Set(accounts.map((a) => a.timezone_name)).size).toBe(3);
    });

    it('follows cursor paging to the last page', async () => {
      const c = client({ pageSize: 3 });
      const before = sim.requests.length;
      const campaigns = await c.listCampaigns(firstAccount());
      const expected = [...sim.world.campaigns.values()].filter((x) => `act_${x.accountId}` === firstAccount());
      expect(campaigns.map((x) => x.id).sort()).toEqual(expected.map((x) => x.id).sort());
      expect(new Set(campaigns.map((x) => x.id)).size).toBe(campaigns.length);
      expect(sim.requests.length - before).toBe(Math.ceil(expected.length / 3));
    });

    it('reads campaigns and their ads in one call, the same as the two lists', async () => {
      const [campaigns, ads] = await Promise.all([
        client().listCampaigns(firstAccount()),
        client().listAds(firstAccount()),
      ]);
      const before = sim.requests.length;
      const both = await client().listCampaignsWithAds(firstAccount());
      expect(sim.requests.length - before).toBe(1);
      const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
      expect(byId(both.campaigns)).toEqual(byId(campaigns));
      expect(byId(both.ads)).toEqual(byId(ads));
    });

    it('reads the rest of a campaign whose ads do not fit in its nested page', async () => {
      const small = client({ pageSize: 2 });
      const ads = await client().listAds(firstAccount());
      const counted = sim.requests.length;
      await small.listCampaigns(firstAccount());
      const campaignPages = sim.requests.length - counted;
      const adsPerCampaign = new Map<string, number>();
      for (const ad of ads) adsPerCampaign.set(ad.campaign_id, (adsPerCampaign.get(ad.campaign_id) ?? 0) + 1);
      const restPages = [...adsPerCampaign.values()].reduce((n, count) => n + Math.ceil(Math.max(0, count - 2) / 2), 0);
      expect(restPages).toBeGreaterThan(0);

      const before = sim.requests.length;
      const both = await small.listCampaignsWithAds(firstAccount());
      expect(both.ads.map((a) => a.id).sort()).toEqual(ads.map((a) => a.id).sort());
      expect(sim.requests.length - before).toBe(campaignPages + restPages);
    });

    it('accepts an account id with or without act_', async () => {
      const digits = sim.world.accounts[1]!.accountId;
      const [withPrefix, without] = await Promise.all([client().listAds(`act_${digits}`), client().listAds(digits)]);
      expect(without).toEqual(withPrefix);
      expect(withPrefix[0]).toEqual(
        expect.objectContaining({
          status: expect.any(String),
          effective_status: expect.any(String),
          campaign_id: expect.any(String),
          adset_id: expect.any(String),
        }),
      );
    });

    it('returns lifetime ad-level insights of a whole account in one call, metrics as strings', async () => {
      const before = sim.requests.length;
      const rows = await client().getInsights(firstAccount(), { level: 'ad' });
      expect(sim.requests.length - before).toBe(1);
      expect(rows.length).toBeGreaterThan(10);
      for (const row of rows) {
        expect(typeof row.spend).toBe('string');
        expect(typeof row.inline_link_clicks).toBe('string');
        expect(row.ad_id).toMatch(/^\d+$/);
        for (const action of row.actions ?? []) expect(typeof action.value).toBe('string');
      }
    });

    it('adds ad rows up to the campaign row', async () => {
      const [ads, campaigns] = await Promise.all([
        client().getInsights(firstAccount(), { level: 'ad' }),
        client().getInsights(firstAccount(), { level: 'campaign' }),
      ]);
      const campaign = campaigns[0]!;
      const mine = ads.filter((row) => row.campaign_id === campaign.campaign_id).map(insightMetrics);
      const total = insightMetrics(campaign);
      expect(total.spend).toBeCloseTo(
        mine.reduce((sum, m) => sum + m.spend, 0),
        2,
      );
      expect(total.leads).toBe(mine.reduce((sum, m) => sum + m.leads, 0));
      expect(total.linkClicks).toBe(mine.reduce((sum, m) => sum + m.linkClicks, 0));
    });

    it('filters insights by campaign and by time range', async () => {
      const { campaignId } = sim.scenario('spend_no_leads');
      const lifetime = await client().getInsights(firstAccount(), { level: 'campaign', campaignIds: [campaignId] });
      expect(lifetime.map((r) => r.campaign_id)).toEqual([campaignId]);
      const today = await client().getInsights(firstAccount(), {
        level: 'campaign',
        campaignIds: [campaignId],
        timeRange: { since: '2026-03-02', until: '2026-03-02' },
      });
      expect(Number(today[0]!.spend)).toBeGreaterThan(0);
      expect(Number(today[0]!.spend)).toBeLessThan(Number(lifetime[0]!.spend));
    });

    it('reads one campaign and answers a missing object with a typed not-found error', async () => {
      const { campaignId } = sim.scenario('cpl_climbs');
      expect(await client().getCampaign(campaignId)).toMatchObject({
        id: campaignId,
        status: 'ACTIVE',
        name: expect.stringContaining('RP-W'),
      });
      const error = await client()
        .getCampaign('999999999')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GraphNotFoundError);
      expect(error).toMatchObject({ code: 100, subcode: 33, fbtraceId: expect.any(String) });
      expect(sleeps).toEqual([]);
    });

    it('refuses a wrong token with a typed auth error and no retry', async () => {
      const error = await client({ accessToken: 'wrong' })
        .listAdAccounts()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GraphAuthError);
      expect((error as GraphAuthError).code).toBe(190);
      expect(sleeps).toEqual([]);
    });
  });

  describe('simulated time and status changes', () => {
    it('grows spend, clicks and leads with time, and a pause sticks', async () => {
      const { adIds } = sim.scenario('seminar_fills');
      const adId = adIds[0]!;
      const spendOf = () => Number(sim.inspect(adId).settled.spend);
      const before = spendOf();
      sim.advanceHours(2);
      expect(spendOf()).toBeCloseTo(before + 6, 2); // $3 an hour

      const [result] = await client().setStatuses([{ id: adId, status: 'PAUSED' }]);
      expect(result).toEqual({ id: adId, ok: true });
      const paused = spendOf();
      sim.advanceHours(5);
      expect(spendOf()).toBe(paused);
      expect(sim.inspect(adId)).toMatchObject({ status: 'PAUSED', effective_status: 'PAUSED' });
      const ads = await client().listAds(firstAccount());
      expect(ads.find((a) => a.id === adId)).toMatchObject({ status: 'PAUSED', effective_status: 'PAUSED' });

      await client().setStatuses([{ id: adId, status: 'ACTIVE' }]);
      sim.advanceHours(1);
      expect(spendOf()).toBeCloseTo(paused + 3, 2);
    });

    it('makes the scenario metrics cross their thresholds over time', async () => {
      const cpl = () => insightMetrics(sim.inspect(sim.scenario('cpl_climbs').adIds[0]!).lifetime as never).cpl!;
      const early = cpl();
      sim.advanceHours(48);
      expect(cpl()).toBeGreaterThan(early);
      const noLeads = insightMetrics(sim.inspect(sim.scenario('spend_no_leads').adIds[0]!).lifetime as never);
      expect(noLeads.spend).toBeGreaterThan(50);
      expect(noLeads.leads).toBe(0);
      const noClicks = insightMetrics(sim.inspect(sim.scenario('no_link_clicks').adIds[0]!).lifetime as never);
      expect(noClicks.clicks).toBeGreaterThan(0);
      expect(noClicks.linkClicks).toBe(0);
      const seminar = await client().getInsights(firstAccount(), {
        level: 'campaign',
        campaignIds: [sim.scenario('seminar_fills').campaignId],
      });
      expect(insightMetrics(seminar[0]).leads).toBeGreaterThanOrEqual(40);
      const website = insightMetrics(sim.inspect(sim.scenario('website_cpl_high').adIds[0]!).lifetime as never);
      expect(website.websiteLeads).toBe(website.leads);
      expect(website.websiteCpl).toBeGreaterThan(60);
    });

    it('changes 120 statuses in three batch calls of at most 50', async () => {
      const scenarioAds = new Set([...sim.world.scenarios.values()].flatMap((s) => s.adIds));
      const ids = [...sim.world.ads.keys()].filter((id) => !scenarioAds.has(id)).slice(0, 120);
      expect(ids).toHaveLength(120);
      const before = sim.requests.length;
      const results = await client().setStatuses(ids.map((id) => ({ id, status: 'PAUSED' })));
      expect(results.every((r) => r.ok)).toBe(true);
      const calls = sim.requests.slice(before);
      expect(calls.map((r) => r.batchSize)).toEqual([50, 50, 20]);
      expect(ids.every((id) => sim.inspect(id).status === 'PAUSED')).toBe(true);
      await client().setStatuses(ids.map((id) => ({ id, status: 'ACTIVE' })));
    });

    it('reports a refused item without failing the others', async () => {
      const good = [...sim.world.ads.values()][3]!.id;
      const results = await client().setStatuses([
        { id: good, status: 'PAUSED' },
        { id: '404404404', status: 'PAUSED' },
      ]);
      expect(results[0]).toEqual({ id: good, ok: true });
      expect(results[1]).toMatchObject({
        id: '404404404',
        ok: false,
        error: expect.stringContaining('does not exist'),
      });
      await client().setStatuses([{ id: good, status: 'ACTIVE' }]);
    });
  });

  describe('faults', () => {
    for (const code of [4, 17, 32, 613, 80004]) {
      it(`retries rate-limit code ${code} with growing back-off and then succeeds`, async () => {
        sim.addFault({ kind: 'rate_limit', code, count: 3, match: { path: 'adaccounts' } });
        const accounts = await client().listAdAccounts();
        expect(accounts).toHaveLength(3);
        expect(sleeps).toEqual([750, 1500, 3000]); // jitter 0.5 of 1 s, 2 s, 4 s ceilings
      });
    }

    it('throws a typed rate-limit error after the last try', async () => {
      sim.addFault({ kind: 'rate_limit', code: 613, count: 0, match: { path: 'campaigns' } });
      const error = await client({ maxAttempts: 4 })
        .listCampaigns(firstAccount())
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GraphRateLimitError);
      expect(error).toMatchObject({ code: 613, subcode: 1487742, transient: true });
      expect(sleeps).toHaveLength(3);
      const tries = sim.requests.filter((r) => r.fault === 'rate_limit' && r.path.endsWith('campaigns'));
      expect(tries.length).toBeGreaterThanOrEqual(4);
    });

    it('waits at least as long as the platform says access takes to return', async () => {
      sim.addFault({ kind: 'rate_limit', code: 80004, count: 1, regainMinutes: 2, match: { path: 'insights' } });
      await client().getInsights(firstAccount(), { level: 'campaign' });
      expect(sleeps).toEqual([120_000]);
    });

    it('gives up at once when the platform asks for a longer wait than allowed', async () => {
      sim.addFault({ kind: 'rate_limit', code: 17, count: 1, regainMinutes: 60, match: { path: 'insights' } });
      const error = await client({ maxWaitMs: 10 * 60_000 })
        .getInsights(firstAccount(), { level: 'ad' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GraphRateLimitError);
      expect((error as GraphRateLimitError).retryAfterMs).toBe(3_600_000);
      expect(sleeps).toEqual([]);
    });

    it('retries 500 and 503 answers', async () => {
      sim.addFault({ kind: 'server_error', status: 500, count: 1, match: { path: 'adaccounts' } });
      sim.addFault({ kind: 'server_error', status: 503, count: 1, match: { path: 'adaccounts' } });
      expect(await client().listAdAccounts()).toHaveLength(3);
      expect(sleeps).toEqual([750, 1500]);
    });

    it('throws a typed server error after the last try', async () => {
      sim.addFault({ kind: 'server_error', status: 500, count: 0, match: { path: 'adaccounts' } });
      const error = await client({ maxAttempts: 3 })
        .listAdAccounts()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GraphApiError);
      expect(error).toMatchObject({ httpStatus: 500, code: 1, transient: true });
      expect(sleeps).toHaveLength(2);
    });

    it('waits out a slow answer that is within the timeout', async () => {
      sim.addFault({ kind: 'slow', ms: 200, count: 1, match: { path: 'adaccounts' } });
      expect(await client({ timeoutMs: 5000 }).listAdAccounts()).toHaveLength(3);
      expect(sleeps).toEqual([]);
    });

    it('retries a read that times out, and throws a typed timeout after the last try', async () => {
      sim.addFault({ kind: 'timeout', count: 1, match: { path: 'adaccounts' } });
      expect(await client({ timeoutMs: 300 }).listAdAccounts()).toHaveLength(3);
      expect(sleeps).toEqual([750]);

      sleeps = [];
      sim.addFault({ kind: 'timeout', count: 2, match: { path: 'adaccounts' } });
      const error = await client({ timeoutMs: 300, maxAttempts: 2 })
        .listAdAccounts()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GraphTimeoutError);
      expect(sleeps).toEqual([750]);
    });

    it('slows down when the usage headers report high usage', async () => {
      sim.addFault({ kind: 'usage', pct: 95, count: 1, match: { path: 'adaccounts' } });
      const c = client({ usage: { highWaterPct: 90, maxSlowdownMs: 10_000 } });
      await c.listAdAccounts();
      await c.listAdAccounts();
      expect(sleeps).toEqual([5000]);
    });

    it('stops calling an ad account the usage headers say is blocked until access returns', async () => {
      sim.addFault({ kind: 'usage', pct: 100, regainMinutes: 3, count: 1, match: { path: 'campaigns' } });
      const c = client();
      await c.listCampaigns(firstAccount());
      await c.listCampaigns(firstAccount());
      expect(sleeps).toHaveLength(1);
      expect(sleeps[0]).toBeGreaterThan(170_000);
      expect(sleeps[0]).toBeLessThanOrEqual(180_000);
    });
  });

  describe('writes are never duplicated', () => {
    let mark = 0;
    beforeEach(() => {
      mark = sim.writes.length;
    });
    const writesOf = (id: string) => sim.writes.slice(mark).filter((w) => w.id === id);
    const someAds = (from: number, count: number) =>
      [...sim.world.ads.values()]
        .filter((ad) => sim.inspect(ad.id).status === 'ACTIVE')
        .slice(from, from + count)
        .map((ad) => ad.id);

    it('reads back a batch whose answer timed out after it was applied, and does not send it again', async () => {
      const ids = someAds(20, 3);
      sim.addFault({ kind: 'timeout', applyFirst: true, count: 1, match: { method: 'POST', target: 'request' } });
      const results = await client({ timeoutMs: 300 }).setStatuses(ids.map((id) => ({ id, status: 'PAUSED' })));
      expect(results.every((r) => r.ok)).toBe(true);
      for (const id of ids) expect(writesOf(id)).toHaveLength(1);
    });

    it('reads back a batch answered with a 500 after it was applied, and does not send it again', async () => {
      const ids = someAds(30, 2);
      sim.addFault({ kind: 'server_error', applyFirst: true, count: 1, match: { method: 'POST', target: 'request' } });
      const results = await client().setStatuses(ids.map((id) => ({ id, status: 'PAUSED' })));
      expect(results.every((r) => r.ok)).toBe(true);
      for (const id of ids) expect(writesOf(id)).toHaveLength(1);
    });

    it('sends again a write that timed out before it was applied — once', async () => {
      const [id] = someAds(40, 1);
      sim.addFault({ kind: 'timeout', count: 1, match: { method: 'POST', target: 'request' } });
      const [result] = await client({ timeoutMs: 300 }).setStatuses([{ id: id!, status: 'PAUSED' }]);
      expect(result).toEqual({ id, ok: true });
      expect(writesOf(id!)).toHaveLength(1);
      expect(sim.inspect(id!).status).toBe('PAUSED');
    });

    it('re-sends only the batch items the platform refused for rate limits', async () => {
      const ids = someAds(50, 4);
      sim.addFault({ kind: 'rate_limit', code: 613, count: 2, match: { method: 'POST', target: 'batch_item' } });
      const before = sim.requests.length;
      const results = await client().setStatuses(ids.map((id) => ({ id, status: 'PAUSED' })));
      expect(results.every((r) => r.ok)).toBe(true);
      expect(sim.requests.slice(before).map((r) => r.batchSize)).toEqual([4, 2]);
      for (const id of ids) expect(writesOf(id)).toHaveLength(1);
    });

    it('reports every item as failed, with the reason, when the platform keeps refusing', async () => {
      const ids = someAds(60, 2);
      sim.addFault({ kind: 'rate_limit', code: 17, count: 0, match: { method: 'POST', target: 'batch_item' } });
      const results = await client({ maxAttempts: 3 }).setStatuses(ids.map((id) => ({ id, status: 'PAUSED' })));
      expect(results).toEqual(ids.map((id) => ({ id, ok: false, error: '(#17) User request limit reached' })));
      for (const id of ids) expect(writesOf(id)).toHaveLength(0);
    });
  });
});
