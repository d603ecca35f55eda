/**
 * Budgets in the simulator, as Meta answers them: an ad's spend follows the daily budget that
 * governs it (its ad set's, or its campaign's under a campaign budget), leads get dearer as a
 * budget grows and while an ad set relearns after a significant change, learning_stage_info tells
 * where an ad set stands, and a 5th budget change within an hour is refused (613, 1487632) and
 * blocks the object for an hour. Metrics stay a non-decreasing function of time whose days add up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adTotals, type Totals } from '../../../../server/adplatform/simulator/delivery';
import { startSimulator, type Simulator } from '../../../../server/adplatform/simulator/index';
import { learningStageAt } from '../../../../server/adplatform/simulator/learning';
import { WriteLimits } from '../../../../server/adplatform/simulator/writeLimits';
import type { DeliveryProfile, SimAd, SimAdSet, SimCampaign } from '../../../../server/adplatform/simulator/world';

const START = '2026-03-02T15:00:00Z';
const T = Date.parse(START);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const profile = (spendPerHour: number, cpl: number): DeliveryProfile => ({
  spendPerHour,
  cpm: 20,
  ctrPct: 1.5,
  linkShare: 0.7,
  leads: { kind: 'per_spend', cpl },
  websiteShare: 0,
});
const leadsOf = (t: Totals) => t.onsiteLeads + t.websiteLeads;

describe('budgets in the simulator', () => {
  let sim: Simulator;
  let account: string;

  // biome-ignore lint/suspicious/noExplicitAny: assertions read Graph's JSON answers field by field
  type Json = Record<string, any>;
  const call = async (path: string, params: Record<string, string> = {}, method = 'GET') => {
    const query = new URLSearchParams({ ...params, access_token: 'budget-token' });
    const response =
      method === 'GET'
        ? await fetch(`${sim.url}/v25.0/${path}?${query}`)
        : await fetch(`${sim.url}/v25.0/${path}`, { method, body: query });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const setDaily = (id: string, cents: number) => call(id, { daily_budget: String(cents) }, 'POST');

  /** A campaign delivering since a day before the start: budgets on its ad sets, or its own. */
  function addCampaign(
    name: string,
    budget: { adset?: number; campaign?: number; lifetime?: number },
    profiles: DeliveryProfile[][],
  ): { campaign: SimCampaign; adsets: SimAdSet[]; ads: SimAd[][] } {
    const world = sim.world;
    const campaign = world.addCampaign({
      accountId: world.accounts[0]!.accountId,
      name,
      startTime: T - DAY,
      stopTime: budget.lifetime ? T + 30 * DAY : undefined,
      ...(budget.campaign ? { dailyBudgetCents: budget.campaign } : {}),
      ...(budget.lifetime ? { lifetimeBudgetCents: budget.lifetime } : {}),
    });
    const adsets = profiles.map((_, i) =>
      world.addAdSet(campaign, `${name} ${i + 1}`, budget.adset ? { dailyBudgetCents: budget.adset } : {}),
    );
    const ads = profiles.map((list, i) => list.map((p, j) => world.addAd(adsets[i]!, `${name} ad ${j + 1}`, p)));
    return { campaign, adsets, ads };
  }
  const delivered = (ad: SimAd, from: number, to: number) =>
    adTotals(ad, sim.world.adsets.get(ad.adsetId)!, sim.world.campaigns.get(ad.campaignId)!, from, to);

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, start: START, speed: 0, accounts: 1, campaignsPerAccount: 6, scenarios: [] });
    account = `act_${sim.world.accounts[0]!.accountId}`;
  });
  afterAll(() => sim.close());

  it('spends and buys leads at the profile rate while no budget was written (a budget ratio of 1)', () => {
    const { ads } = addCampaign('Untouched', { adset: 2000 }, [[profile(3, 10)]]);
    const ad = ads[0]![0]!;
    const day = delivered(ad, T - DAY, T);
    expect(day.spend).toBe(72);
    expect(leadsOf(day)).toBe(7);
    expect(learningStageAt(sim.world, sim.world.adsets.get(ad.adsetId)!, T)).toMatchObject({
      status: 'LEARNING',
      significantEdit: false,
    });
  });

  it('doubles an ad set’s spend with its daily budget, its leads dearer while it relearns and after', async () => {
    const { adsets, ads } = addCampaign('Doubled', { adset: 2000 }, [[profile(10, 5)]]);
    const adset = adsets[0]!;
    const ad = ads[0]![0]!;
    const before = delivered(ad, T - 20 * HOUR, T);
    expect(before.spend).toBe(200);
    expect(before.spend / leadsOf(before)).toBeCloseTo(5, 1);

    const written = await setDaily(adset.id, 4000);
    expect(written.body).toEqual({ success: true });

    // $20 an hour at twice the budget; leads at 5 × 2^0.35 × 1.15 ≈ $7.33 while learning: 50 of them in about 18 hours.
    const learning = delivered(ad, T, T + 15 * HOUR);
    expect(learning.spend).toBe(300);
    expect(learning.spend / leadsOf(learning)).toBeGreaterThan(7.1);
    expect(learning.spend / leadsOf(learning)).toBeLessThan(7.6);
    const after = delivered(ad, T + 20 * HOUR, T + 60 * HOUR);
    expect(after.spend).toBe(800);
    expect(after.spend / leadsOf(after)).toBeGreaterThan(6.25);
    expect(after.spend / leadsOf(after)).toBeLessThan(6.5);

    const read = await call(adset.id, { fields: 'daily_budget,budget_remaining,learning_stage_info' });
    expect(read.body).toMatchObject({
      daily_budget: '4000',
      learning_stage_info: { status: 'LEARNING', conversions: 0, last_sig_edit_ts: T / 1000 },
    });
    expect(learningStageAt(sim.world, adset, T + 12 * HOUR)).toMatchObject({ status: 'LEARNING' });
    const done = learningStageAt(sim.world, adset, T + 24 * HOUR);
    expect(done.status).toBe('SUCCESS');
    expect(done.conversions).toBeGreaterThanOrEqual(50);

    const listed = await call(`${account}/adsets`, {
      fields:
        'id,name,campaign_id,status,effective_status,daily_budget,lifetime_budget,budget_remaining,learning_stage_info',
      limit: '100',
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data.find((row: Json) => row.id === adset.id)).toMatchObject({
      daily_budget: '4000',
      learning_stage_info: { status: 'LEARNING' },
    });
    for (const row of listed.body.data)
      expect(['LEARNING', 'SUCCESS', 'FAIL']).toContain(row.learning_stage_info.status);
  });

  it('takes a change under 20 % without relearning, and fails learning after 7 days under 50 leads', async () => {
    const { adsets, ads } = addCampaign('Nudged', { adset: 2000 }, [[profile(4, 10)]]);
    await setDaily(adsets[0]!.id, 2200);
    expect(delivered(ads[0]![0]!, T, T + 10 * HOUR).spend).toBe(44);
    const read = await call(adsets[0]!.id, { fields: 'learning_stage_info' });
    expect(read.body.learning_stage_info.last_sig_edit_ts).toBeUndefined();

    const { adsets: slow } = addCampaign('Slow', { adset: 2000 }, [[profile(2, 50)]]);
    await setDaily(slow[0]!.id, 3000);
    expect(learningStageAt(sim.world, slow[0]!, T + 6 * DAY)).toMatchObject({ status: 'LEARNING' });
    const failed = learningStageAt(sim.world, slow[0]!, T + 7 * DAY + HOUR);
    expect(failed.status).toBe('FAIL');
    expect(failed.conversions).toBeLessThan(50);
  });

  it('paces every ad of a campaign budget and sends each of its ad sets back into learning', async () => {
    const { campaign, adsets, ads } = addCampaign('Campaign budget', { campaign: 10_000 }, [
      [profile(3, 15)],
      [profile(3, 15)],
    ]);
    await setDaily(campaign.id, 15_000);
    for (const list of ads) expect(delivered(list[0]!, T, T + 10 * HOUR).spend).toBe(45);
    for (const adset of adsets) {
      const read = await call(adset.id, { fields: 'daily_budget,learning_stage_info' });
      expect(read.body.daily_budget).toBeUndefined();
      expect(read.body.learning_stage_info).toMatchObject({ status: 'LEARNING', last_sig_edit_ts: T / 1000 });
    }
    const campaignRead = await call(campaign.id, { fields: 'daily_budget,budget_remaining' });
    expect(campaignRead.body.daily_budget).toBe('15000');
    expect((await call(campaign.id, { fields: 'learning_stage_info' })).body.error.code).toBe(100);
  });

  it('keeps spend at the profile rate under a lifetime budget, which still restarts learning', async () => {
    const { campaign, adsets, ads } = addCampaign('Lifetime', { lifetime: 90_000 }, [[profile(4, 10)]]);
    expect((await call(campaign.id, { lifetime_budget: '135000' }, 'POST')).body).toEqual({ success: true });
    expect(delivered(ads[0]![0]!, T, T + 10 * HOUR).spend).toBe(40);
    const read = await call(adsets[0]!.id, { fields: 'learning_stage_info' });
    expect(read.body.learning_stage_info.status).toBe('LEARNING');
  });

  it('keeps cumulative metrics non-decreasing across budget changes', async () => {
    const { adsets, ads } = addCampaign('Up and down', { adset: 3000 }, [[profile(6, 8)]]);
    const id = adsets[0]!.id;
    await setDaily(id, 6000);
    const ad = ads[0]![0]!;
    let last = delivered(ad, T - DAY, T - DAY);
    for (let at = T - 5 * HOUR; at <= T + 40 * HOUR; at += HOUR / 2) {
      const now = delivered(ad, T - DAY, at);
      expect(now.spend).toBeGreaterThanOrEqual(last.spend);
      expect(leadsOf(now)).toBeGreaterThanOrEqual(leadsOf(last));
      expect(now.impressions).toBeGreaterThanOrEqual(last.impressions);
      last = now;
    }
    // Periods add up across the change.
    const whole = delivered(ad, T - 5 * HOUR, T + 40 * HOUR);
    const parts = [T - 5 * HOUR, T, T + 7 * HOUR, T + 40 * HOUR];
    let leads = 0;
    for (let i = 0; i + 1 < parts.length; i += 1) leads += leadsOf(delivered(ad, parts[i]!, parts[i + 1]!));
    expect(leads).toBe(leadsOf(whole));
  });

  it('refuses a 5th budget change within an hour with 613/1487632 and blocks the object for an hour', async () => {
    const { adsets } = addCampaign('Limited', { adset: 2000 }, [[profile(2, 20)]]);
    const { adsets: other } = addCampaign('Other', { adset: 2000 }, [[profile(2, 20)]]);
    const id = adsets[0]!.id;
    for (const cents of [2100, 2200, 2300, 2400]) expect((await setDaily(id, cents)).body).toEqual({ success: true });
    const fifth = await setDaily(id, 2500);
    expect(fifth.status).toBe(400);
    expect(fifth.body.error).toMatchObject({
      code: 613,
      error_subcode: 1487632,
      message: '(#613) Calls to this api have exceeded the rate limit.',
      error_user_title: 'Too many budget changes',
    });
    sim.clock.advance(30 * 60_000);
    expect((await setDaily(id, 2500)).body.error).toMatchObject({ code: 613, error_subcode: 1487632 });
    expect((await call(id, { name: 'Limited, renamed' }, 'POST')).body).toEqual({ success: true });
    expect((await call(id, { fields: 'daily_budget' })).body.daily_budget).toBe('2400');
    expect((await setDaily(other[0]!.id, 2600)).body).toEqual({ success: true });

    expect(sim.limitErrors()).toEqual({ budget_changes: 2, mutations_per_second: 0, limit_errors: 2 });
    expect(await (await fetch(`${sim.url}/__sim/limits`)).json()).toMatchObject({ limit_errors: 2 });

    sim.clock.advance(31 * 60_000); // an hour after the refusal
    expect((await setDaily(id, 2500)).body).toEqual({ success: true });
  });

  it('adds up reported days to the lifetime across a budget change', async () => {
    const { adsets, ads } = addCampaign('Reported', { adset: 2500 }, [[profile(5, 6)]]);
    await setDaily(adsets[0]!.id, 5000);
    sim.clock.advance(4 * DAY);
    const ad = ads[0]![0]!.id;
    const days = await call(`${ad}/insights`, {
      fields: 'spend,actions',
      time_increment: '1',
      date_preset: 'maximum',
      limit: '100',
    });
    const life = await call(`${ad}/insights`, { fields: 'spend,actions', date_preset: 'maximum' });
    const leads = (row: Json) => Number(row.actions?.find((a: Json) => a.action_type === 'lead')?.value ?? 0);
    const sum = (key: (row: Json) => number) =>
      days.body.data.reduce((total: number, row: Json) => total + key(row), 0);
    expect(sum((row) => Number(row.spend))).toBeCloseTo(Number(life.body.data[0].spend), 2);
    expect(sum(leads)).toBe(leads(life.body.data[0]));
    expect(Number(life.body.data[0].spend)).toBeGreaterThan(5 * 24 + 10 * 24 * 3);
  });
});

describe('the simulator’s mutation limit', () => {
  const cases: { writes: number; afterMs: number; refused: boolean }[] = [
    { writes: 99, afterMs: 0, refused: false },
    { writes: 100, afterMs: 0, refused: true },
    { writes: 100, afterMs: 999, refused: true },
    { writes: 100, afterMs: 1000, refused: false },
  ];
  for (const { writes, afterMs, refused } of cases) {
    it(`${refused ? 'refuses' : 'takes'} a mutation after ${writes} in the account ${afterMs} ms before`, () => {
      let now = 1_000_000;
      const limits = new WriteLimits(() => now);
      for (let i = 0; i < writes; i += 1) limits.mutated('123');
      now += afterMs;
      const answer = limits.mutationRefusal('123');
      expect(answer === undefined).toBe(!refused);
      if (refused) {
        expect(answer!.body).toMatchObject({ error: { code: 613 } });
        expect((answer!.body as { error: Record<string, unknown> }).error.error_subcode).toBeUndefined();
        expect(limits.errors.mutations_per_second).toBe(1);
      }
      expect(limits.mutationRefusal('456')).toBeUndefined();
    });
  }
});
