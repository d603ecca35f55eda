/**
 * Every ordinary read an agency tool makes, through Meta's own Node SDK at its own API version
 * (facebook-nodejs-business-sdk speaks v24.0): account fields, campaign, ad set and ad lists with
 * their fields, insights at each level with presets, ranges, daily rows, breakdowns and action
 * breakdowns, paging, and lead forms with their leads. Each answer is held to Meta's specs
 * (graphSpec.ts) and to the simulated world it comes from. One simulator for the file, clock frozen.
 *
 * v24.0 is live on Meta's calendar until 10 November 2026, so the simulator runs at a date it
 * answers v24.0 (2 March 2026) rather than being told to answer an expired version.
 */
import {
  Ad,
  AdAccount,
  AdReportRun,
  AdSet,
  Campaign,
  FacebookAdsApi,
  LeadgenForm,
  User,
} from 'facebook-nodejs-business-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectMismatch, type SpecNode } from '../../../../server/adplatform/graphSpec';
import { startSimulator, type Simulator } from '../../../../server/adplatform/simulator/index';
import { formLeadsOf } from '../../../../server/adplatform/simulator/leads';
import type { SimCampaign } from '../../../../server/adplatform/simulator/world';

const TOKEN = 'meta-sdk-token';
/** A Monday, 10:00 in New York, the first account's zone: `last_7d` is 23 February to 1 March. */
const START = '2026-03-02T15:00:00Z';
const LAST_7_DAYS = ['2026-02-23', '2026-02-24', '2026-02-25', '2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01'];

// biome-ignore lint/suspicious/noExplicitAny: the SDK's objects and cursors are loosely typed records
type Json = Record<string, any>;
type Cursor = Json[] & { hasNext(): boolean; next(): Promise<Cursor>; summary?: Json };

async function drain(first: unknown): Promise<Json[]> {
  let cursor = first as Cursor;
  const items = [...cursor];
  while (cursor.hasNext()) {
    cursor = await cursor.next();
    items.push(...cursor);
  }
  return items;
}

/** What Graph answered for an SDK object. */
const data = (object: unknown) => (object as Json)._data as Json;
const all = async (first: unknown) => (await drain(first)).map(data);

function expectSpec(node: SpecNode, objects: Json | Json[]): void {
  for (const object of [objects].flat()) expect(objectMismatch(node, object), JSON.stringify(object)).toBeUndefined();
}

const num = (value: unknown) => Number(value);
const sum = (rows: Json[], field: string) => rows.reduce((total, row) => total + num(row[field] ?? 0), 0);
const actionValue = (row: Json, type: string, list = 'actions') =>
  num((row[list] as Json[] | undefined)?.find((a) => a.action_type === type)?.value ?? 0);

describe("every ordinary read through Meta's Node SDK at its own version", () => {
  let sim: Simulator;
  let account: AdAccount;
  let accountId: string;
  let zone: string;

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
    FacebookAdsApi.init(TOKEN, 'en_US', false);
    const home = sim.world.accounts[0]!;
    accountId = `act_${home.accountId}`;
    zone = home.timezone;
    account = new AdAccount(accountId);
  });
  afterAll(() => sim.close());

  const homeCampaigns = () => [...sim.world.campaigns.values()].filter((c) => `act_${c.accountId}` === accountId);
  /** A campaign that delivered, never paused, on every one of the last seven days. */
  const allWeekCampaign = (): SimCampaign =>
    homeCampaigns().find(
      (c) =>
        c.startTime <= Date.parse('2026-02-23T00:00:00-05:00') &&
        (c.stopTime === undefined || c.stopTime >= Date.parse(START)) &&
        [c.statusLog, ...sim.world.adsOf(c.id).map((ad) => ad.statusLog)].every((log) =>
          log.every((event) => event.status === 'ACTIVE'),
        ),
    )!;
  const websiteScenario = () => sim.scenario('website_cpl_high');
  const liveAd = () => sim.world.adsOf(allWeekCampaign().id)[0]!;

  it('calls Graph at the SDK’s own version, v24.0', async () => {
    expect(FacebookAdsApi.VERSION).toBe('v24.0');
    await account.get(['name']);
    expect(sim.requests.at(-1)?.path).toBe(accountId);
  });

  describe('the user and its ad accounts', () => {
    it('reads the user behind the token', async () => {
      const me = data(await new User('me').get(['id', 'name']));
      expect(me).toEqual({ id: expect.stringMatching(/^\d+$/), name: expect.any(String) });
    });

    it("lists the user's ad accounts one per page", async () => {
      const accounts = await all(
        await new User('me').getAdAccounts(['name', 'account_id', 'currency', 'timezone_name', 'account_status'], {
          limit: 1,
        }),
      );
      expectSpec('AdAccount', accounts);
      expect(accounts.map((a) => a.account_id)).toEqual(sim.world.accounts.map((a) => a.accountId));
    });

    it('reads an account’s name, currency and time zone', async () => {
      const read = data(await account.get(['name', 'currency', 'timezone_name', 'timezone_offset_hours_utc']));
      expectSpec('AdAccount', read);
      expect(read).toMatchObject({ name: sim.world.accounts[0]!.name, currency: 'USD', timezone_name: zone });
      expect(read.timezone_offset_hours_utc).toBe(-5);
    });

    it('reads who owns the account and how it pays', async () => {
      const read = data(await account.get(['owner', 'business', 'funding_source', 'funding_source_details']));
      expectSpec('AdAccount', read);
      expect(read.owner).toMatch(/^\d+$/);
      expect(read.business).toEqual({ id: read.owner, name: expect.any(String) });
      expect(read.funding_source).toMatch(/^\d+$/);
      expect(read.funding_source_details).toEqual({
        id: read.funding_source,
        display_string: expect.stringMatching(/^Visa \*\d{4}$/),
        type: 1,
      });
    });

    it('reads what the account has spent, against what its insights report', async () => {
      const read = data(await account.get(['amount_spent', 'spend_cap', 'balance', 'min_daily_budget']));
      expectSpec('AdAccount', read);
      const [lifetime] = await all(await account.getInsights(['spend'], { date_preset: 'maximum' }));
      // amount_spent is all delivery; insights show the last days at their settled share (90 % and up).
      expect(num(read.amount_spent) / 100).toBeGreaterThanOrEqual(num(lifetime!.spend));
      expect(num(read.amount_spent) / 100).toBeLessThan(num(lifetime!.spend) / 0.9);
      expect(read.spend_cap).toBe('0');
      expect(read.min_daily_budget).toBe(100);
    });

    it('reads whether the account can deliver', async () => {
      const read = data(await account.get(['account_status', 'disable_reason', 'is_prepay_account', 'user_tasks']));
      expectSpec('AdAccount', read);
      expect(read).toMatchObject({ account_status: 1, disable_reason: 0, is_prepay_account: false });
      expect(read.user_tasks).toContain('ADVERTISE');
    });

    it('reads when the account was created and its business name', async () => {
      const read = data(await account.get(['created_time', 'age', 'business_name', 'is_personal']));
      expectSpec('AdAccount', read);
      expect(read.age).toBeGreaterThan(365);
    });
  });

  describe('campaigns', () => {
    it('pages through campaigns with a total that matches', async () => {
      const first = (await account.getCampaigns(['name', 'status', 'effective_status'], {
        limit: 4,
        summary: true,
      })) as Cursor;
      const campaigns = await all(first);
      expectSpec('Campaign', campaigns);
      expect(first.summary).toEqual({ total_count: campaigns.length });
      expect(campaigns.map((c) => c.id).sort()).toEqual(
        homeCampaigns()
          .map((c) => c.id)
          .sort(),
      );
    });

    it('reads campaign budgets: daily, lifetime, remaining', async () => {
      const campaigns = await all(
        await account.getCampaigns(['daily_budget', 'lifetime_budget', 'budget_remaining', 'stop_time'], {
          limit: 100,
        }),
      );
      expectSpec('Campaign', campaigns);
      for (const c of campaigns) {
        const world = sim.world.campaigns.get(c.id)!;
        expect(c.daily_budget).toBe(world.dailyBudgetCents?.toString());
        expect(c.lifetime_budget).toBe(world.lifetimeBudgetCents?.toString());
        if (c.lifetime_budget) expect(c.stop_time).toBeDefined();
        expect(num(c.budget_remaining)).toBeGreaterThanOrEqual(0);
      }
    });

    it('reads what a campaign buys and how', async () => {
      const campaigns = await all(
        await account.getCampaigns(
          ['objective', 'buying_type', 'bid_strategy', 'special_ad_categories', 'configured_status'],
          { limit: 100 },
        ),
      );
      expectSpec('Campaign', campaigns);
      expect(new Set(campaigns.map((c) => c.objective))).toEqual(new Set(['OUTCOME_LEADS']));
      expect(campaigns.every((c) => Array.isArray(c.special_ad_categories))).toBe(true);
    });

    it('reads issues_info, absent on a world without delivery issues as Graph leaves it out', async () => {
      const campaigns = await all(
        await account.getCampaigns(['issues_info', 'effective_status', 'start_time', 'updated_time'], { limit: 100 }),
      );
      expectSpec('Campaign', campaigns);
      expect(campaigns.some((c) => 'issues_info' in c)).toBe(false);
      expect(campaigns.some((c) => c.effective_status === 'WITH_ISSUES')).toBe(false);
    });

    it('lists only active campaigns with effective_status', async () => {
      const active = await all(await account.getCampaigns(['effective_status'], { effective_status: ['ACTIVE'] }));
      expect(active.length).toBeGreaterThan(0);
      expect(active.every((c) => c.effective_status === 'ACTIVE')).toBe(true);
    });

    it('finds campaigns by name with filtering', async () => {
      const found = await all(
        await account.getCampaigns(['name'], {
          filtering: [{ field: 'name', operator: 'CONTAIN', value: 'scenario' }],
        }),
      );
      expect(found.length).toBeGreaterThanOrEqual(8);
      expect(found.every((c) => /Scenario/.test(c.name))).toBe(true);
    });

    it('reads one campaign by id', async () => {
      const campaign = allWeekCampaign();
      const read = data(await new Campaign(campaign.id).get(['name', 'status', 'start_time', 'created_time']));
      expectSpec('Campaign', read);
      expect(read).toMatchObject({ id: campaign.id, name: campaign.name, status: 'ACTIVE' });
    });

    it("follows a campaign's ad sets and ads", async () => {
      const campaign = allWeekCampaign();
      const adsets = await all(await new Campaign(campaign.id).getAdSets(['name', 'campaign_id']));
      const ads = await all(await new Campaign(campaign.id).getAds(['name', 'adset_id']));
      expectSpec('AdSet', adsets);
      expectSpec('Ad', ads);
      expect(adsets.map((s) => s.campaign_id)).toEqual([campaign.id]);
      expect(ads.map((ad) => ad.adset_id)).toEqual([adsets[0]!.id, adsets[0]!.id, adsets[0]!.id]);
    });
  });

  describe('ad sets', () => {
    it('reads ad sets with their goal, billing and bidding', async () => {
      const adsets = await all(
        await account.getAdSets(
          ['name', 'campaign_id', 'optimization_goal', 'billing_event', 'bid_strategy', 'destination_type'],
          { limit: 100 },
        ),
      );
      expectSpec('AdSet', adsets);
      const website = adsets.find((s) => s.campaign_id === websiteScenario().campaignId)!;
      expect(website).toMatchObject({ optimization_goal: 'OFFSITE_CONVERSIONS', destination_type: 'WEBSITE' });
      const form = adsets.find((s) => s.campaign_id === sim.scenario('steady_converter').campaignId)!;
      expect(form).toMatchObject({ optimization_goal: 'LEAD_GENERATION', destination_type: 'ON_AD' });
    });

    it('reads targeting as a Targeting object', async () => {
      const adsets = await all(await account.getAdSets(['targeting'], { limit: 100 }));
      expectSpec('AdSet', adsets);
      for (const { targeting } of adsets) {
        expect(targeting).toMatchObject({ age_min: expect.any(Number), age_max: expect.any(Number) });
        expect(targeting.geo_locations.countries).toEqual(['US']);
      }
    });

    it('reads what an ad set optimises for: its form’s Page or its pixel’s Lead event', async () => {
      const adsets = await all(await account.getAdSets(['promoted_object', 'optimization_goal'], { limit: 100 }));
      expectSpec('AdSet', adsets);
      for (const s of adsets) {
        if (s.optimization_goal === 'OFFSITE_CONVERSIONS')
          expect(s.promoted_object).toEqual({ pixel_id: expect.stringMatching(/^\d+$/), custom_event_type: 'LEAD' });
        else expect(s.promoted_object).toEqual({ page_id: expect.stringMatching(/^\d+$/) });
      }
    });

    it('reads ad set budgets where the campaign has none', async () => {
      const adsets = await all(
        await account.getAdSets(['daily_budget', 'lifetime_budget', 'budget_remaining', 'start_time', 'end_time'], {
          limit: 100,
        }),
      );
      expectSpec('AdSet', adsets);
      const budgeted = adsets.filter((s) => s.daily_budget || s.lifetime_budget);
      expect(budgeted.length).toBeGreaterThan(0);
      for (const s of budgeted) expect(sim.world.adsets.get(s.id)!.campaignId).toBeDefined();
    });

    it('reads ad set statuses and issues_info', async () => {
      const adsets = await all(
        await account.getAdSets(['status', 'effective_status', 'issues_info', 'updated_time'], { limit: 100 }),
      );
      expectSpec('AdSet', adsets);
      expect(adsets.some((s) => 'issues_info' in s)).toBe(false);
    });

    it('picks keys of targeting on one ad set', async () => {
      const adset = sim.world.adsOf(allWeekCampaign().id)[0]!.adsetId;
      const read = data(await new AdSet(adset).get(['targeting{age_min,geo_locations}']));
      expect(read.targeting).toEqual({
        age_min: 55,
        geo_locations: { countries: ['US'], location_types: ['home', 'recent'] },
      });
    });

    it("lists an ad set's ads", async () => {
      const adset = sim.world.adsOf(allWeekCampaign().id)[0]!.adsetId;
      const ads = await all(await new AdSet(adset).getAds(['name', 'status']));
      expectSpec('Ad', ads);
      expect(ads).toHaveLength(3);
    });
  });

  describe('ads', () => {
    it('pages through ads with their statuses and parents', async () => {
      const first = (await account.getAds(
        ['name', 'status', 'configured_status', 'effective_status', 'campaign_id', 'adset_id'],
        { limit: 5, summary: true },
      )) as Cursor;
      const ads = await all(first);
      expectSpec('Ad', ads);
      expect(first.summary?.total_count).toBe(ads.length);
      for (const ad of ads) expect(sim.world.ads.get(ad.id)!.campaignId).toBe(ad.campaign_id);
    });

    it('reads each ad’s creative id', async () => {
      const ads = await all(await account.getAds(['creative'], { limit: 100 }));
      expectSpec('Ad', ads);
      expect(ads.every((ad) => /^\d+$/.test(ad.creative.id) && Object.keys(ad.creative).length === 1)).toBe(true);
      expect(new Set(ads.map((ad) => ad.creative.id)).size).toBe(ads.length);
    });

    it('expands the creative’s text, call to action and lead form', async () => {
      const ads = await all(
        await account.getAds(
          [
            'creative{id,name,title,body,object_type,call_to_action_type,thumbnail_url,object_story_spec,effective_object_story_id}',
          ],
          { limit: 100 },
        ),
      );
      for (const { creative } of ads) {
        expect(creative).toMatchObject({
          id: expect.stringMatching(/^\d+$/),
          name: expect.any(String),
          title: expect.any(String),
          body: expect.any(String),
          object_type: expect.stringMatching(/^(VIDEO|SHARE)$/),
          call_to_action_type: expect.stringMatching(/^(SIGN_UP|LEARN_MORE)$/),
          thumbnail_url: expect.stringMatching(/^https:\/\//),
          effective_object_story_id: expect.stringMatching(/^\d+_\d+$/),
        });
        expect(creative.object_story_spec.page_id).toBe(creative.effective_object_story_id.split('_')[0]);
      }
    });

    it('reads tracking specs: the Page post, the lead form or the pixel', async () => {
      const ads = await all(await account.getAds(['tracking_specs'], { limit: 100 }));
      expectSpec('Ad', ads);
      for (const ad of ads) {
        for (const spec of ad.tracking_specs)
          for (const values of Object.values(spec)) expect(values).toEqual([expect.any(String)]);
        const types = ad.tracking_specs.map((spec: Json) => spec['action.type'][0]);
        const world = sim.world.ads.get(ad.id)!;
        expect(types.includes('leadgen')).toBe(world.profile.websiteShare < 1);
        expect(types.includes('offsite_conversion')).toBe(world.profile.websiteShare > 0);
      }
    });

    it('reads an ad’s targeting, its ad set’s', async () => {
      const ads = await all(await account.getAds(['targeting', 'adset_id'], { limit: 100 }));
      expectSpec('Ad', ads);
      for (const ad of ads) expect(ad.targeting).toEqual(sim.world.adsets.get(ad.adset_id)!.targeting);
    });

    it('reads issues_info and when an ad changed', async () => {
      const ads = await all(
        await account.getAds(['issues_info', 'created_time', 'updated_time', 'bid_type'], { limit: 100 }),
      );
      expectSpec('Ad', ads);
      expect(ads.some((ad) => 'issues_info' in ad)).toBe(false);
    });

    it('reads one ad with its campaign and ad set expanded', async () => {
      const ad = liveAd();
      const read = data(
        await new Ad(ad.id).get([
          'name',
          'campaign{name,objective}',
          'adset{name,optimization_goal}',
          'creative{title}',
        ]),
      );
      expect(read.campaign).toEqual({ id: ad.campaignId, name: allWeekCampaign().name, objective: 'OUTCOME_LEADS' });
      expect(read.adset).toMatchObject({ id: ad.adsetId, optimization_goal: expect.any(String) });
      expect(read.creative).toEqual({ id: expect.stringMatching(/^\d+$/), title: expect.any(String) });
    });

    it("filters an account's ads by campaign", async () => {
      const campaign = allWeekCampaign();
      const ads = await all(
        await account.getAds(['campaign_id'], {
          filtering: [{ field: 'campaign.id', operator: 'IN', value: [campaign.id] }],
        }),
      );
      expect(ads.map((ad) => ad.campaign_id)).toEqual([campaign.id, campaign.id, campaign.id]);
    });

    it('lists active and paused ads with effective_status', async () => {
      const ads = await all(
        await account.getAds(['effective_status'], { effective_status: ['ACTIVE', 'PAUSED'], limit: 100 }),
      );
      expect(ads.length).toBeGreaterThan(0);
      expect(ads.every((ad) => ['ACTIVE', 'PAUSED'].includes(ad.effective_status))).toBe(true);
    });

    it('lists the ads changed since a moment with updated_since', async () => {
      const since = Math.floor(Date.parse(START) / 1000) - 3600;
      const ads = await all(await account.getAds(['updated_time'], { updated_since: since, limit: 100 }));
      for (const ad of ads)
        expect(Date.parse(ad.updated_time.replace(/(\d\d)(\d\d)$/, '$1:$2')) / 1000).toBeGreaterThanOrEqual(since);
    });
  });

  describe('insights', () => {
    const DELIVERY = ['spend', 'impressions', 'reach', 'frequency', 'clicks', 'ctr', 'cpc', 'cpm', 'cpp'];

    it('reads the account’s lifetime delivery', async () => {
      const [row] = await all(await account.getInsights(DELIVERY, { date_preset: 'maximum' }));
      expectSpec('AdsInsights', row!);
      expect(num(row!.reach)).toBeLessThanOrEqual(num(row!.impressions));
      expect(num(row!.ctr)).toBeCloseTo((num(row!.clicks) / num(row!.impressions)) * 100, 4);
    });

    for (const preset of ['today', 'yesterday', 'last_7d', 'last_30d', 'this_month', 'last_month'] as const) {
      it(`reads the account over date_preset=${preset}`, async () => {
        const rows = await all(await account.getInsights(['spend', 'impressions', 'actions'], { date_preset: preset }));
        expectSpec('AdsInsights', rows);
        expect(rows).toHaveLength(1);
        expect(num(rows[0]!.spend)).toBeGreaterThan(0);
      });
    }

    it('reads a time_range', async () => {
      const [row] = await all(
        await account.getInsights(['spend', 'date_start', 'date_stop'], {
          time_range: { since: '2026-02-01', until: '2026-02-28' },
        }),
      );
      expect(row).toMatchObject({ date_start: '2026-02-01', date_stop: '2026-02-28' });
    });

    it('reads several time_ranges in one call, a row each', async () => {
      const rows = await all(
        await account.getInsights(['spend'], {
          time_ranges: [
            { since: '2026-02-23', until: '2026-02-23' },
            { since: '2026-02-24', until: '2026-03-01' },
          ],
        }),
      );
      expect(rows.map((r) => r.date_start)).toEqual(['2026-02-23', '2026-02-24']);
    });

    it('answers time_increment=1 over last_7d with one account row per day', async () => {
      const days = await all(await account.getInsights(['spend'], { date_preset: 'last_7d', time_increment: 1 }));
      expect(days.map((d) => [d.date_start, d.date_stop])).toEqual(LAST_7_DAYS.map((d) => [d, d]));
      const [week] = await all(await account.getInsights(['spend'], { date_preset: 'last_7d' }));
      expect(sum(days, 'spend')).toBeCloseTo(num(week!.spend), 2);
    });

    it('answers time_increment=1 over last_7d with a row per day for a campaign that delivered all week', async () => {
      const days = await all(
        await new Campaign(allWeekCampaign().id).getInsights(['spend', 'impressions'], {
          date_preset: 'last_7d',
          time_increment: 1,
        }),
      );
      expect(days.map((d) => d.date_start)).toEqual(LAST_7_DAYS);
    });

    it('answers time_increment=1 over last_7d with a row per day for the website-leads scenario', async () => {
      const days = await all(
        await new Campaign(websiteScenario().campaignId).getInsights(['spend', 'actions'], {
          date_preset: 'last_7d',
          time_increment: '1',
        }),
      );
      expect(days.map((d) => d.date_start)).toEqual(LAST_7_DAYS);
    });

    it('answers time_increment=7 in weeks and monthly in calendar months', async () => {
      const weeks = await all(await account.getInsights(['spend'], { date_preset: 'last_30d', time_increment: 7 }));
      expect(weeks.map((w) => w.date_start)).toEqual([
        '2026-01-31',
        '2026-02-07',
        '2026-02-14',
        '2026-02-21',
        '2026-02-28',
      ]);
      const months = await all(
        await account.getInsights(['spend'], {
          time_range: { since: '2026-02-01', until: '2026-03-01' },
          time_increment: 'monthly',
        }),
      );
      expect(months.map((m) => [m.date_start, m.date_stop])).toEqual([
        ['2026-02-01', '2026-02-28'],
        ['2026-03-01', '2026-03-01'],
      ]);
    });

    it('reads campaign-level rows with names and objectives', async () => {
      const rows = await all(
        await account.getInsights(['campaign_id', 'campaign_name', 'objective', 'spend'], {
          level: 'campaign',
          date_preset: 'last_7d',
          limit: 100,
        }),
      );
      expectSpec('AdsInsights', rows);
      for (const row of rows) expect(row.campaign_name).toBe(sim.world.campaigns.get(row.campaign_id)!.name);
    });

    it('reads ad-set-level rows with the optimisation goal', async () => {
      const rows = await all(
        await account.getInsights(['adset_id', 'adset_name', 'optimization_goal', 'spend'], {
          level: 'adset',
          date_preset: 'last_7d',
          limit: 100,
        }),
      );
      expectSpec('AdsInsights', rows);
      expect(rows.every((row) => ['OFFSITE_CONVERSIONS', 'LEAD_GENERATION'].includes(row.optimization_goal))).toBe(
        true,
      );
    });

    it('pages through ad-level rows whose spends add up to the account’s', async () => {
      const params = { level: 'ad', date_preset: 'last_7d', limit: 7 };
      const rows = await all(
        await account.getInsights(['ad_id', 'ad_name', 'adset_id', 'campaign_id', 'spend'], params),
      );
      expectSpec('AdsInsights', rows);
      expect(rows.length).toBeGreaterThan(7);
      const [total] = await all(await account.getInsights(['spend'], { date_preset: 'last_7d' }));
      expect(sum(rows, 'spend')).toBeCloseTo(num(total!.spend), 2);
    });

    it('reads a campaign’s, an ad set’s and an ad’s own insights, which agree', async () => {
      const ad = liveAd();
      const params = { date_preset: 'last_30d' };
      const [campaign] = await all(await new Campaign(ad.campaignId).getInsights(['spend', 'campaign_id'], params));
      const [adset] = await all(await new AdSet(ad.adsetId).getInsights(['spend', 'adset_id'], params));
      const ads = await Promise.all(
        sim.world
          .adsOf(ad.campaignId)
          .map(async (a) => (await all(await new Ad(a.id).getInsights(['spend'], params)))[0]!),
      );
      expectSpec('AdsInsights', [campaign!, adset!, ...ads]);
      expect(num(adset!.spend)).toBeCloseTo(num(campaign!.spend), 2);
      expect(sum(ads, 'spend')).toBeCloseTo(num(campaign!.spend), 2);
    });

    it('filters insights to some ads', async () => {
      const ids = sim.world.adsOf(allWeekCampaign().id).map((ad) => ad.id);
      const rows = await all(
        await account.getInsights(['ad_id'], {
          level: 'ad',
          date_preset: 'last_7d',
          filtering: [{ field: 'ad.id', operator: 'IN', value: ids }],
        }),
      );
      expect(rows.map((r) => r.ad_id).sort()).toEqual([...ids].sort());
    });

    it('reads link clicks and their rates', async () => {
      const [row] = await all(
        await account.getInsights(['inline_link_clicks', 'inline_link_click_ctr', 'cost_per_inline_link_click'], {
          date_preset: 'last_7d',
        }),
      );
      expectSpec('AdsInsights', row!);
      expect(num(row!.inline_link_clicks)).toBeGreaterThan(0);
    });

    it('reads unique clicks: fewer people than clicks, none more than reached', async () => {
      const rows = await all(
        await account.getInsights(
          ['clicks', 'reach', 'unique_clicks', 'unique_ctr', 'cost_per_unique_click', 'unique_inline_link_clicks'],
          { level: 'ad', date_preset: 'last_7d', limit: 100 },
        ),
      );
      expectSpec('AdsInsights', rows);
      for (const row of rows) {
        expect(num(row.unique_clicks)).toBeLessThanOrEqual(num(row.clicks));
        expect(num(row.unique_clicks)).toBeLessThanOrEqual(num(row.reach));
        if (num(row.clicks) > 0) expect(num(row.unique_clicks)).toBeGreaterThan(0);
      }
    });

    it('reads outbound clicks: the link clicks that leave for the website', async () => {
      const rows = await all(
        await account.getInsights(
          ['inline_link_clicks', 'outbound_clicks', 'outbound_clicks_ctr', 'cost_per_outbound_click', 'ad_id'],
          { level: 'ad', date_preset: 'last_7d', limit: 100 },
        ),
      );
      expectSpec('AdsInsights', rows);
      const website = rows.find((r) => r.ad_id === websiteScenario().adIds[0])!;
      expect(website.outbound_clicks).toEqual([{ action_type: 'outbound_click', value: website.inline_link_clicks }]);
      const formOnly = rows.find((r) => r.ad_id === sim.scenario('steady_converter').adIds[0])!;
      expect(formOnly.outbound_clicks).toBeUndefined();
      for (const row of rows.filter((r) => r.outbound_clicks))
        expect(actionValue(row, 'outbound_click', 'outbound_clicks')).toBeLessThanOrEqual(num(row.inline_link_clicks));
    });

    it('reads leads and cost per lead from actions and cost_per_action_type', async () => {
      const [row] = await all(
        await new Campaign(sim.scenario('steady_converter').campaignId).getInsights(
          ['spend', 'actions', 'cost_per_action_type'],
          { date_preset: 'maximum' },
        ),
      );
      expectSpec('AdsInsights', row!);
      const leads = actionValue(row!, 'lead');
      expect(leads).toBe(actionValue(row!, 'onsite_conversion.lead_grouped'));
      expect(actionValue(row!, 'lead', 'cost_per_action_type')).toBeCloseTo(num(row!.spend) / leads, 4);
    });

    it('reads website leads at about $70 each for the website-leads scenario', async () => {
      const [row] = await all(
        await new Campaign(websiteScenario().campaignId).getInsights(['spend', 'actions', 'cost_per_action_type'], {
          date_preset: 'maximum',
        }),
      );
      expect(actionValue(row!, 'offsite_conversion.fb_pixel_lead')).toBe(actionValue(row!, 'lead'));
      const cpl = actionValue(row!, 'offsite_conversion.fb_pixel_lead', 'cost_per_action_type');
      expect(cpl).toBeGreaterThan(55);
      expect(cpl).toBeLessThan(110);
    });

    it('breaks actions down by action_type when asked explicitly', async () => {
      const [row] = await all(
        await account.getInsights(['actions'], { date_preset: 'last_7d', action_breakdowns: ['action_type'] }),
      );
      expectSpec('AdsInsights', row!);
      expect(actionValue(row!, 'lead')).toBeGreaterThan(0);
    });

    it('breaks actions down by action_destination: the Page’s forms and the website', async () => {
      const params = { date_preset: 'last_7d' };
      const [byType] = await all(await account.getInsights(['actions'], params));
      const [byDestination] = await all(
        await account.getInsights(['actions', 'cost_per_action_type', 'spend'], {
          ...params,
          action_breakdowns: ['action_type', 'action_destination'],
        }),
      );
      expectSpec('AdsInsights', byDestination!);
      const entries = byDestination!.actions as Json[];
      expect(new Set(entries.map((a) => a.action_destination)).size).toBe(2);
      for (const type of ['lead', 'link_click', 'onsite_conversion.lead_grouped', 'offsite_conversion.fb_pixel_lead']) {
        const split = entries.filter((a) => a.action_type === type).reduce((n, a) => n + num(a.value), 0);
        expect(split, type).toBe(actionValue(byType!, type));
      }
      for (const cost of byDestination!.cost_per_action_type as Json[]) {
        const count = entries.find(
          (a) => a.action_type === cost.action_type && a.action_destination === cost.action_destination,
        )!;
        expect(num(cost.value)).toBeCloseTo(num(byDestination!.spend) / num(count.value), 4);
      }
    });

    it('reads lead counts per attribution window', async () => {
      const [row] = await all(
        await new Campaign(sim.scenario('steady_converter').campaignId).getInsights(['actions'], {
          date_preset: 'maximum',
          action_attribution_windows: ['7d_click', '1d_view'],
        }),
      );
      const lead = (row!.actions as Json[]).find((a) => a.action_type === 'lead')!;
      expect(num(lead['7d_click']) + num(lead['1d_view'])).toBe(num(lead.value));
    });

    it('breaks a week down by age and gender, the segments adding up', async () => {
      const [total] = await all(await account.getInsights(['impressions'], { date_preset: 'last_7d' }));
      const rows = await all(
        await account.getInsights(['impressions', 'spend'], {
          date_preset: 'last_7d',
          breakdowns: ['age', 'gender'],
          limit: 100,
        }),
      );
      expectSpec(
        'AdsInsights',
        rows.map(({ age: _a, gender: _g, ...row }) => row),
      );
      expect(rows.every((r) => typeof r.age === 'string' && typeof r.gender === 'string')).toBe(true);
      expect(sum(rows, 'impressions')).toBe(num(total!.impressions));
    });

    it('breaks a week down by publisher platform', async () => {
      const rows = await all(
        await account.getInsights(['spend'], { date_preset: 'last_7d', breakdowns: ['publisher_platform'] }),
      );
      expect(rows.map((r) => r.publisher_platform).sort()).toEqual([
        'audience_network',
        'facebook',
        'instagram',
        'messenger',
      ]);
    });

    it('breaks yesterday down by hour of the advertiser’s time zone', async () => {
      const rows = await all(
        await account.getInsights(['spend', 'clicks'], {
          date_preset: 'yesterday',
          breakdowns: ['hourly_stats_aggregated_by_advertiser_time_zone'],
          limit: 100,
        }),
      );
      expect(rows).toHaveLength(24);
      const [day] = await all(await account.getInsights(['spend'], { date_preset: 'yesterday' }));
      expect(sum(rows, 'spend')).toBeCloseTo(num(day!.spend), 2);
    });

    it('runs an async report for a large read and reads its rows', async () => {
      const run = await account.getInsightsAsync(['ad_id', 'spend'], { level: 'ad', date_preset: 'last_30d' });
      expect(run).toBeInstanceOf(AdReportRun);
      let status = '';
      for (let polls = 0; status !== 'Job Completed' && polls < 10; polls += 1)
        status = data(await run.get(['async_status'])).async_status;
      const rows = await all(await run.getInsights(['ad_id', 'spend'], { limit: 50 }));
      expectSpec('AdsInsights', rows);
      expect(rows.length).toBeGreaterThan(10);
    });
  });

  describe('lead forms and leads', () => {
    /** The form ad with the most leads so far, and its form id as its tracking specs name it. */
    async function busiestFormAd() {
      const ad = [...sim.world.ads.values()]
        .filter((a) => `act_${a.accountId}` === accountId)
        .sort(
          (a, b) =>
            formLeadsOf(sim.world, b, sim.clock.now()).length - formLeadsOf(sim.world, a, sim.clock.now()).length,
        )[0]!;
      const { tracking_specs } = data(await new Ad(ad.id).get(['tracking_specs']));
      const formId = (tracking_specs as Json[]).find((spec) => spec['action.type'][0] === 'leadgen')!
        .leadgen[0] as string;
      return { ad, formId };
    }

    it("pages through an ad's leads", async () => {
      const { ad } = await busiestFormAd();
      const leads = await all(
        await new Ad(ad.id).getLeads(['id', 'created_time', 'ad_id', 'form_id', 'field_data'], { limit: 3 }),
      );
      expectSpec('Lead', leads);
      expect(leads.length).toBe(formLeadsOf(sim.world, ad, sim.clock.now()).length);
      expect(leads.every((lead) => lead.ad_id === ad.id)).toBe(true);
    });

    it('reads the lead form named in the ad’s tracking specs', async () => {
      const { ad, formId } = await busiestFormAd();
      const form = data(
        await new LeadgenForm(formId).get([
          'name',
          'status',
          'locale',
          'leads_count',
          'created_time',
          'page_id',
          'questions',
        ]),
      );
      expectSpec('LeadgenForm', form);
      expect(form).toMatchObject({ id: formId, status: 'ACTIVE', locale: 'en_US' });
      expect(form.questions.map((q: Json) => q.key)).toEqual(['email', 'full_name', 'phone_number']);
      const { creative } = data(await new Ad(ad.id).get(['creative{object_story_spec}']));
      expect(creative.object_story_spec.link_data.call_to_action.value).toEqual({ lead_gen_form_id: formId });
      expect(form.page_id).toBe(creative.object_story_spec.page_id);
    });

    it("counts a form's leads as its /leads lists them, filtered by time_created", async () => {
      const { formId } = await busiestFormAd();
      const form = data(await new LeadgenForm(formId).get(['leads_count']));
      const leads = await all(await new LeadgenForm(formId).getLeads(['id', 'created_time'], { limit: 10 }));
      expect(leads).toHaveLength(form.leads_count);
      const since = Math.floor(Date.parse(START) / 1000) - 24 * 3600;
      const recent = await all(
        await new LeadgenForm(formId).getLeads(['id'], {
          filtering: [{ field: 'time_created', operator: 'GREATER_THAN', value: since }],
        }),
      );
      expect(recent.length).toBeLessThanOrEqual(leads.length);
    });
  });
});
