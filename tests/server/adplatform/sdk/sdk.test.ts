/**
 * The simulator driven through Meta's own Node SDK (facebook-nodejs-business-sdk, a client nobody
 * here wrote), the way an agency tool uses it: cursors, edges, filtering, insights with breakdowns,
 * time increments and attribution windows, async reports, updates through SDK objects, batches,
 * and errors surfacing as FacebookRequestError with Graph's codes. The SDK's base URL is its
 * static getter FacebookAdsApi.GRAPH, redefined for the simulator; its crash reporter stays off.
 */
import {
  Ad,
  AdAccount,
  AdReportRun,
  AdSet,
  Campaign,
  FacebookAdsApi,
  FacebookAdsApiBatch,
  User,
} from 'facebook-nodejs-business-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../../server/adplatform/simulator/index';

const TOKEN = 'sdk-token';
const START = '2026-03-02T15:00:00Z';

// biome-ignore lint/suspicious/noExplicitAny: the SDK's objects and cursors are loosely typed records
type Json = Record<string, any>;
type Cursor = Json[] & { hasNext(): boolean; next(): Promise<Cursor>; summary?: Json };

/** Every item of a listing, page by page through Cursor.next(). */
async function drain(first: unknown): Promise<Json[]> {
  let cursor = first as Cursor;
  const items = [...cursor];
  while (cursor.hasNext()) {
    cursor = await cursor.next();
    items.push(...cursor);
  }
  return items;
}

const data = (object: Json) => object._data as Json;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: Json) => error,
  );

describe('the simulator through facebook-nodejs-business-sdk', () => {
  let sim: Simulator;
  let account: AdAccount;
  let accountId: string;
  const setVersion = (version: string) =>
    Object.defineProperty(FacebookAdsApi, 'VERSION', { get: () => version, configurable: true });

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 9,
      start: START,
      speed: 0,
      accounts: 2,
      campaignsPerAccount: 8,
      adsPerCampaign: 3,
      accessToken: TOKEN,
    });
    Object.defineProperty(FacebookAdsApi, 'GRAPH', { get: () => sim.url, configurable: true });
    setVersion('v25.0');
    FacebookAdsApi.init(TOKEN, 'en_US', false);
    accountId = `act_${sim.world.accounts[0]!.accountId}`;
    account = new AdAccount(accountId);
  });
  afterAll(() => sim.close());
  afterEach(() => {
    sim.clearFaults();
    setVersion('v25.0');
  });

  const campaignsOfAccount = () => [...sim.world.campaigns.values()].filter((c) => `act_${c.accountId}` === accountId);

  describe('listing', () => {
    it("lists the user's ad accounts one page at a time with Cursor.next()", async () => {
      const accounts = await drain(await new User('me').getAdAccounts(['name', 'timezone_name'], { limit: 1 }));
      expect(accounts.map((a) => data(a).name)).toEqual(sim.world.accounts.map((a) => a.name));
      expect(accounts[0]).toBeInstanceOf(AdAccount);
    });

    it('pages through campaigns with a summary total_count that matches what it pages through', async () => {
      const first = (await account.getCampaigns(['name', 'effective_status'], { limit: 3, summary: true })) as Cursor;
      const campaigns = await drain(first);
      expect(first.summary).toEqual({ total_count: campaigns.length });
      expect(new Set(campaigns.map((c) => data(c).id)).size).toBe(campaigns.length);
      expect(campaigns.map((c) => data(c).id).sort()).toEqual(
        campaignsOfAccount()
          .map((c) => c.id)
          .sort(),
      );
    });

    it("follows a campaign's edges to its ad sets and ads, and an ad set's to its ads", async () => {
      const campaign = campaignsOfAccount()[0]!;
      const adsets = await drain(await new Campaign(campaign.id).getAdSets(['name', 'daily_budget', 'targeting']));
      expect(adsets).toHaveLength(1);
      expect(data(adsets[0]!).targeting).toMatchObject({ age_min: 55, age_max: 65 });
      const ads = await drain(await new Campaign(campaign.id).getAds(['name', 'adset_id']));
      const adsOfAdset = await drain(await new AdSet(data(adsets[0]!).id).getAds(['name']));
      expect(ads.map((a) => data(a).id).sort()).toEqual(adsOfAdset.map((a) => data(a).id).sort());
      expect(ads).toHaveLength(3);
      expect(ads.every((a) => data(a).adset_id === data(adsets[0]!).id)).toBe(true);
    });

    it("filters an account's ads by campaign.id and by effective_status", async () => {
      const campaign = campaignsOfAccount()[1]!;
      const filtered = await drain(
        await account.getAds(['campaign_id'], {
          filtering: [{ field: 'campaign.id', operator: 'EQUAL', value: campaign.id }],
        }),
      );
      expect(filtered.map((a) => data(a).campaign_id)).toEqual([campaign.id, campaign.id, campaign.id]);
      const paused = await drain(
        await account.getAds(['effective_status'], { effective_status: ['PAUSED', 'CAMPAIGN_PAUSED'] }),
      );
      for (const ad of paused) expect(['PAUSED', 'CAMPAIGN_PAUSED']).toContain(data(ad).effective_status);
    });

    it('reads an ad with its campaign expanded in the same call', async () => {
      const ad = [...sim.world.ads.values()].find((a) => `act_${a.accountId}` === accountId)!;
      const read = await new Ad(ad.id).get(['name', 'campaign{name,status}']);
      expect(data(read).campaign).toEqual({
        id: ad.campaignId,
        name: sim.world.campaigns.get(ad.campaignId)!.name,
        status: sim.inspect(ad.campaignId).status,
      });
    });
  });

  describe('insights', () => {
    const range = { since: '2026-02-23', until: '2026-03-01' };

    it('answers one row per day with time_increment=1, days adding up to the whole range', async () => {
      const { campaignId } = sim.scenario('steady_converter');
      const campaign = new Campaign(campaignId);
      const days = await drain(
        await campaign.getInsights(['spend', 'impressions'], { time_range: range, time_increment: 1 }),
      );
      const whole = await drain(await campaign.getInsights(['spend', 'impressions'], { time_range: range }));
      expect(days.length).toBeGreaterThan(1);
      expect(new Set(days.map((d) => data(d).date_start)).size).toBe(days.length);
      const sum = (rows: Json[], field: string) => rows.reduce((total, row) => total + Number(data(row)[field]), 0);
      expect(sum(days, 'spend')).toBeCloseTo(sum(whole, 'spend'), 2);
      expect(sum(days, 'impressions')).toBe(sum(whole, 'impressions'));
    });

    it('breaks a day down by hour of the advertiser time zone, the hours adding up to the day', async () => {
      const { campaignId } = sim.scenario('steady_converter');
      const day = { since: '2026-03-01', until: '2026-03-01' };
      const campaign = new Campaign(campaignId);
      const hours = await drain(
        await campaign.getInsights(['spend'], {
          time_range: day,
          breakdowns: ['hourly_stats_aggregated_by_advertiser_time_zone'],
          limit: 100,
        }),
      );
      const [total] = await drain(await campaign.getInsights(['spend'], { time_range: day }));
      expect(hours.length).toBeGreaterThan(1);
      expect(data(hours[0]!).hourly_stats_aggregated_by_advertiser_time_zone).toMatch(/^\d\d:00:00 - \d\d:59:59$/);
      expect(hours.reduce((s, h) => s + Number(data(h).spend), 0)).toBeCloseTo(Number(data(total!).spend), 2);
    });

    it('reports leads per attribution window next to the default count', async () => {
      const { campaignId } = sim.scenario('steady_converter');
      const [row] = await drain(
        await new Campaign(campaignId).getInsights(['actions'], {
          date_preset: 'maximum',
          action_attribution_windows: ['1d_click', '7d_click', '1d_view'],
        }),
      );
      const lead = (data(row!).actions as Json[]).find((a) => a.action_type === 'lead')!;
      expect(Number(lead['7d_click']) + Number(lead['1d_view'])).toBeCloseTo(Number(lead.value), 6);
      expect(Number(lead['1d_click'])).toBeLessThanOrEqual(Number(lead['7d_click']));
    });

    it('refuses a breakdown Graph does not have as a FacebookRequestError with code 100', async () => {
      const error = await failure(account.getInsights(['spend'], { breakdowns: ['age_bracket'] }) as Promise<unknown>);
      expect(error).toMatchObject({ name: 'FacebookRequestError', status: 400, response: { code: 100 } });
      expect(error!.message).toContain('breakdowns');
    });

    it('starts an async report, polls it to completion and reads the same rows the sync call gives', async () => {
      const params = { level: 'ad', date_preset: 'last_7d' };
      // The SDK builds the AdReportRun from the answer's report_run_id (its constructor reads nothing else).
      const run = await account.getInsightsAsync(['ad_id', 'spend'], { ...params });
      expect(run).toBeInstanceOf(AdReportRun);
      expect(run.id).toMatch(/^\d+$/);
      let status = '';
      for (let polls = 0; status !== 'Job Completed' && polls < 10; polls += 1)
        status = data(await run.get(['async_status', 'async_percent_completion'])).async_status;
      expect(status).toBe('Job Completed');
      const fromReport = await drain(await run.getInsights(['ad_id', 'spend'], { limit: 5 }));
      const direct = await drain(await account.getInsights(['ad_id', 'spend'], { ...params, limit: 500 }));
      const rows = (items: Json[]) => items.map((i) => [data(i).ad_id, data(i).spend]).sort();
      expect(rows(fromReport)).toEqual(rows(direct));
      expect(fromReport.length).toBeGreaterThan(5);
    });
  });

  describe('updates', () => {
    it('renames a campaign and changes its budget through a Campaign object', async () => {
      const campaign = campaignsOfAccount().find((c) => c.dailyBudgetCents !== undefined)!;
      expect(await new Campaign(campaign.id).update([], { name: 'EDM - Renamed by SDK', daily_budget: 15000 })).toEqual(
        {
          success: true,
        },
      );
      const read = await new Campaign(campaign.id).get(['name', 'daily_budget']);
      expect(data(read)).toMatchObject({ name: 'EDM - Renamed by SDK', daily_budget: '15000' });
    });

    it('refuses what an object read through a cursor sends back on update(), and takes it after clearHistory()', async () => {
      // The SDK's trap: an object built from a listing holds every field it was read with as a change.
      const [listed] = (await account.getCampaigns(['name', 'status', 'effective_status'], { limit: 1 })) as Cursor;
      const campaign = listed as unknown as Campaign & Json;
      campaign.name = 'Renamed from a cursor';
      const error = await failure(campaign.update([]));
      expect(error).toMatchObject({ name: 'FacebookRequestError', response: { code: 100 } });
      expect(error!.message).toContain('effective_status');
      campaign.clearHistory();
      campaign.name = 'Renamed from a cursor';
      expect(await campaign.update([])).toEqual({ success: true });
      expect(sim.inspect(campaign.id).name).toBe('Renamed from a cursor');
    });

    it("pauses an ad, and refuses a budget below the account's minimum with Graph's user message", async () => {
      const ad = [...sim.world.ads.values()].find((a) => `act_${a.accountId}` === accountId && !a.deleted)!;
      await new Ad(ad.id).update([], { status: 'PAUSED' });
      expect(sim.inspect(ad.id).status).toBe('PAUSED');
      const campaign = campaignsOfAccount().find((c) => c.dailyBudgetCents !== undefined)!;
      const error = await failure(new Campaign(campaign.id).update([], { daily_budget: 10 }));
      expect(error).toMatchObject({ response: { code: 100, error_user_title: 'Budget Is Too Low' } });
    });
  });

  describe('batches and errors', () => {
    it('runs reads and writes in one batch, each answered to its own callback', async () => {
      const [first, second] = campaignsOfAccount();
      const batch = new FacebookAdsApiBatch(FacebookAdsApi.getDefaultApi());
      const answers: Json[] = [];
      const errors: Json[] = [];
      batch.add(
        'GET',
        [first!.id],
        { fields: 'name' },
        undefined,
        (r: Json) => answers.push(r.body),
        (r: Json) => errors.push(r.error),
      );
      batch.add(
        'POST',
        [second!.id],
        { status: 'PAUSED' },
        undefined,
        (r: Json) => answers.push(r.body),
        (r: Json) => errors.push(r.error),
      );
      batch.add(
        'GET',
        ['404404404'],
        { fields: 'name' },
        undefined,
        (r: Json) => answers.push(r.body),
        (r: Json) => errors.push(r.error),
      );
      expect(await batch.execute()).toBeNull();
      expect(answers).toEqual([{ id: first!.id, name: first!.name }, { success: true }]);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({
        name: 'FacebookRequestError',
        response: { error: { code: 100, error_subcode: 33 } },
      });
      expect(sim.inspect(second!.id).status).toBe('PAUSED');
    });

    it('surfaces a retired API version, a missing object and a rate limit as FacebookRequestError with their codes', async () => {
      setVersion('v22.0'); // expired on 19 February 2026, before the simulator's clock (this SDK's own v24.0 lives until November)
      const retired = await failure(new Campaign(campaignsOfAccount()[0]!.id).get(['name']));
      expect(retired).toMatchObject({ name: 'FacebookRequestError', status: 400, response: { code: 2635 } });
      setVersion('v25.0');
      const missing = await failure(new Campaign('404404404').get(['name']));
      expect(missing).toMatchObject({
        status: 400,
        response: { code: 100, error_subcode: 33, type: 'GraphMethodException' },
      });
      sim.addFault({ kind: 'rate_limit', code: 80004, match: { path: 'campaigns' } });
      const limited = await failure(account.getCampaigns(['name']) as Promise<unknown>);
      expect(limited).toMatchObject({ status: 400, response: { code: 80004, error_subcode: 2446079 } });
      expect(limited!.message).toContain('too many calls to this ad-account');
    });
  });
});
