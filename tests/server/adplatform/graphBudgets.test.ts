/**
 * The Graph client reads and writes budgets against the simulator over HTTP: an account's ad sets
 * and campaigns with their budgets (cents as integers, paged), daily budget writes that change what
 * the next hours spend and send an ad set back into learning, Meta's refusal of a 5th change within
 * an hour passed on with its code and subcode, and never more than 100 writes a second to one ad
 * account (counted on the moments the simulator took them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphClient } from '../../../server/adplatform/graphClient';
import { startSimulator, type Simulator } from '../../../server/adplatform/simulator/index';
import type { DeliveryProfile, SimAdSet, SimCampaign } from '../../../server/adplatform/simulator/world';
import type { BudgetObject } from '../../../server/judgement/budgets/types';

const START = '2026-03-02T15:00:00Z';
const T = Date.parse(START);
const HOUR = 3_600_000;

const profile = (spendPerHour: number): DeliveryProfile => ({
  spendPerHour,
  cpm: 20,
  ctrPct: 1.5,
  linkShare: 0.7,
  leads: { kind: 'per_spend', cpl: 10 },
  websiteShare: 0,
});

describe('budgets through the Graph client', () => {
  let sim: Simulator;
  let client: GraphClient;
  let accountId: string;

  /** A campaign delivering since a day before the start, with one ad set of one ad. */
  function addCampaign(name: string, budget: { adset?: number; campaign?: number; lifetime?: number }) {
    const world = sim.world;
    const campaign: SimCampaign = world.addCampaign({
      accountId,
      name,
      startTime: T - 24 * HOUR,
      stopTime: budget.lifetime ? T + 30 * 24 * HOUR : undefined,
      ...(budget.campaign ? { dailyBudgetCents: budget.campaign } : {}),
      ...(budget.lifetime ? { lifetimeBudgetCents: budget.lifetime } : {}),
    });
    const adset: SimAdSet = world.addAdSet(
      campaign,
      `${name} - ad set`,
      budget.adset ? { dailyBudgetCents: budget.adset } : {},
    );
    const ad = world.addAd(adset, `${name} - ad`, profile(5));
    return { campaign, adset, ad };
  }
  const spendBy = (id: string, at: number) => Number(sim.truth(id, at).settled.spend);
  const byId = (list: BudgetObject[], id: string) => list.find((object) => object.id === id);

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 3,
      start: START,
      speed: 0,
      accounts: 2,
      campaignsPerAccount: 60,
      adsPerCampaign: 2,
      scenarios: [],
    });
    accountId = sim.world.accounts[0]!.accountId;
    client = new GraphClient({ baseUrl: sim.url, apiVersion: 'v25.0', accessToken: 't', pageSize: 25 });
  });
  afterAll(() => sim.close());

  it('reads every ad set and campaign of the account with its budget, page by page', async () => {
    const adsetBudget = addCampaign('Budget read - ad set budget', { adset: 2500 });
    const campaignBudget = addCampaign('Budget read - campaign budget', { campaign: 9000 });
    const lifetime = addCampaign('Budget read - lifetime', { lifetime: 90_000 });

    const budgets = await client.listBudgets(accountId);
    const campaigns = [...sim.world.campaigns.values()].filter((c) => c.accountId === accountId);
    const adsets = [...sim.world.adsets.values()].filter((s) => s.accountId === accountId);
    expect(budgets.filter((b) => b.level === 'campaign')).toHaveLength(campaigns.length);
    expect(budgets.filter((b) => b.level === 'adset')).toHaveLength(adsets.length);

    expect(byId(budgets, adsetBudget.adset.id)).toEqual({
      id: adsetBudget.adset.id,
      level: 'adset',
      name: 'Budget read - ad set budget - ad set',
      campaignId: adsetBudget.campaign.id,
      status: 'ACTIVE',
      effectiveStatus: 'ACTIVE',
      dailyBudget: 2500,
      lifetimeBudget: null,
      budgetRemaining: expect.any(Number),
      learningStage: 'LEARNING',
    });
    expect(byId(budgets, adsetBudget.campaign.id)).toMatchObject({ dailyBudget: null, lifetimeBudget: null });
    expect(byId(budgets, campaignBudget.campaign.id)).toMatchObject({
      level: 'campaign',
      campaignId: campaignBudget.campaign.id,
      dailyBudget: 9000,
      lifetimeBudget: null,
      learningStage: null,
    });
    expect(byId(budgets, campaignBudget.adset.id)).toMatchObject({
      dailyBudget: null,
      lifetimeBudget: null,
      budgetRemaining: null,
    });
    expect(byId(budgets, lifetime.campaign.id)).toMatchObject({ dailyBudget: null, lifetimeBudget: 90_000 });
    for (const object of budgets) {
      expect(Number.isInteger(object.dailyBudget ?? 0)).toBe(true);
      if (object.level === 'adset') expect(['LEARNING', 'SUCCESS', 'FAIL']).toContain(object.learningStage);
    }
  });

  it('writes a daily budget: the next hours spend at the new budget and the ad set relearns', async () => {
    const { adset, ad } = addCampaign('Budget write', { adset: 2500 });
    expect(spendBy(ad.id, T + 10 * HOUR) - spendBy(ad.id, T)).toBeCloseTo(50, 2);

    expect(await client.setBudgets([{ id: adset.id, dailyBudget: 5000 }], { accountId })).toEqual([
      { id: adset.id, ok: true },
    ]);
    expect(spendBy(ad.id, T + 10 * HOUR) - spendBy(ad.id, T)).toBeCloseTo(100, 2);
    expect(byId(await client.listBudgets(accountId), adset.id)).toMatchObject({
      dailyBudget: 5000,
      learningStage: 'LEARNING',
    });
  });

  it('passes on Graph’s refusals with their code and subcode, the 5th change in an hour and the 6th too', async () => {
    const { adset } = addCampaign('Budget limit', { adset: 2000 });
    for (const cents of [2100, 2200, 2300, 2400])
      expect(await client.setBudgets([{ id: adset.id, dailyBudget: cents }], { accountId })).toEqual([
        { id: adset.id, ok: true },
      ]);
    for (const cents of [2500, 2600]) {
      const calls = client.calls;
      const [result] = await client.setBudgets([{ id: adset.id, dailyBudget: cents }], { accountId });
      expect(result).toEqual({
        id: adset.id,
        ok: false,
        error: expect.stringMatching(
          /^\(#613\) Calls to this api have exceeded the rate limit\. — Too many budget changes: .* \[1487632\]$/,
        ),
      });
      expect(client.calls - calls).toBe(1); // blocked for an hour: not sent again
    }
    expect(byId(await client.listBudgets(accountId), adset.id)?.dailyBudget).toBe(2400);

    const underCampaign = addCampaign('Budget refused', { campaign: 9000 });
    const [refused] = await client.setBudgets([{ id: underCampaign.adset.id, dailyBudget: 3000 }], { accountId });
    expect(refused?.error).toMatch(/^Invalid parameter — Ad Set Budget Not Allowed: .* \[1885621\]$/);
  });

  it('sends at most 100 writes a second to one ad account, however many are asked at once', async () => {
    const account = sim.world.accounts[1]!.accountId;
    const ads = [...sim.world.ads.values()].filter((ad) => ad.accountId === account).map((ad) => ad.id);
    expect(ads.length).toBeGreaterThan(100);
    const before = sim.writes.length;
    const half = Math.ceil(ads.length / 2);
    const results = await Promise.all([
      client.setStatuses(
        ads.slice(0, half).map((id) => ({ id, status: 'PAUSED' as const })),
        { accountId: account },
      ),
      client.setStatuses(
        ads.slice(half).map((id) => ({ id, status: 'PAUSED' as const })),
        { accountId: account },
      ),
    ]);
    expect(results.flat().every((result) => result.ok)).toBe(true);

    const taken = sim.writes.slice(before).map((write) => Date.parse(write.receivedAt));
    expect(taken).toHaveLength(ads.length);
    const busiestSecond = Math.max(
      ...taken.map((at) => taken.filter((other) => other > at - 1000 && other <= at).length),
    );
    expect(busiestSecond).toBeLessThanOrEqual(100);
    expect(sim.limitErrors().mutations_per_second).toBe(0);
  });
});
