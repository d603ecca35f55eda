/**
 * Late and changing data as Meta reports it: leads arrive after a lag and are credited to the hour
 * they happened, a day's delivery settles after the account's midnight, and the new scenarios behave
 * against their settled truth (/__sim/truth).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adTotals, graphMetrics } from '../../../../server/adplatform/simulator/delivery';
import { startSimulator, type Simulator } from '../../../../server/adplatform/simulator/index';
import {
  arrivedShare,
  INSTANT_FORM_LAG,
  leadLag,
  NEXT_DAY_LAG,
  settledShare,
  WEBSITE_LAG,
} from '../../../../server/adplatform/simulator/lag';

const START = '2026-03-02T15:00:00Z'; // 10:00 in New York, the first account's zone
const HOUR = 3_600_000;
const at = (iso: string, hours = 0) => Date.parse(iso) + hours * HOUR;

type Metrics = Record<string, unknown> & { actions?: { action_type: string; value: string }[] };
const leads = (m: Metrics) => Number(m.actions?.find((a) => a.action_type === 'lead')?.value ?? 0);
const spend = (m: Metrics) => Number(m.spend);

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 3, start: START, speed: 0, accounts: 3, campaignsPerAccount: 4 });
});
afterAll(() => sim.close());

async function insights(id: string, params: Record<string, string>): Promise<Metrics[]> {
  const query = new URLSearchParams({ access_token: 't', fields: 'spend,impressions,actions', ...params });
  const response = await fetch(`${sim.url}/v25.0/${id}/insights?${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Metrics[] }).data;
}

describe('the lag model', () => {
  it('documents website leads as 35 % within an hour, 50 % within a day, all by 72 hours', () => {
    expect(arrivedShare(WEBSITE_LAG, HOUR)).toBeCloseTo(0.35, 6);
    expect(arrivedShare(WEBSITE_LAG, 24 * HOUR)).toBeCloseTo(0.5, 6);
    expect(arrivedShare(WEBSITE_LAG, 72 * HOUR)).toBe(1);
    expect(arrivedShare(INSTANT_FORM_LAG, 15 * 60_000)).toBe(1);
    expect(arrivedShare(NEXT_DAY_LAG, 20 * HOUR)).toBe(0);
  });

  it('draws lead lags that follow the documented shares', () => {
    const draws = Array.from({ length: 20_000 }, (_, k) => leadLag(WEBSITE_LAG, `ad:${k}`));
    const within = (ms: number) => draws.filter((lag) => lag <= ms).length / draws.length;
    expect(within(HOUR)).toBeCloseTo(0.35, 1);
    expect(Math.abs(within(HOUR) - 0.35)).toBeLessThan(0.015);
    expect(Math.abs(within(24 * HOUR) - 0.5)).toBeLessThan(0.015);
    expect(Math.max(...draws)).toBeLessThanOrEqual(72 * HOUR);
    const forms = Array.from({ length: 5000 }, (_, k) => leadLag(INSTANT_FORM_LAG, `ad:${k}`));
    expect(Math.max(...forms)).toBeLessThanOrEqual(15 * 60_000);
    expect(leadLag(WEBSITE_LAG, 'same')).toBe(leadLag(WEBSITE_LAG, 'same'));
  });

  it('settles a day from 90 % at midnight to 99 % three hours later and 100 % by 18 hours', () => {
    expect(settledShare(-5 * HOUR)).toBe(0.9);
    expect(settledShare(0)).toBe(0.9);
    expect(settledShare(2 * HOUR)).toBeCloseTo(0.97, 6);
    expect(settledShare(3 * HOUR)).toBeCloseTo(0.99, 6);
    expect(settledShare(18 * HOUR)).toBe(1);
  });
});

describe('late and settling data through insights', () => {
  it('grows a past day as its late leads arrive, each counted on the day it happened', () => {
    const adId = sim.scenario('website_cpl_high').adIds[0]!;
    const day = { since: '2026-03-01', until: '2026-03-01' };
    const seen = [0, 6, 24, 48, 72].map((hours) => sim.truth(adId, at(START, hours), day));
    const settled = leads(seen[0]!.settled as Metrics);
    expect(settled).toBeGreaterThan(0);
    // What happened that day is fixed; what is reported about it only grows, up to the truth.
    for (const view of seen) expect(view.settled).toEqual(seen[0]!.settled);
    const reported = seen.map((view) => leads(view.reported as Metrics));
    expect(reported[0]).toBeLessThan(settled);
    for (let i = 1; i < reported.length; i += 1) expect(reported[i]).toBeGreaterThanOrEqual(reported[i - 1]!);
    expect(reported.at(-1)).toBe(settled);
  });

  it('reports what the truth says it reports, and the day in progress at 90 %', async () => {
    const { adIds, accountId } = sim.scenario('steady_converter');
    const [row] = await insights(adIds[0]!, { date_preset: 'maximum' });
    const truth = sim.truth(adIds[0]!);
    expect(row!.spend).toBe(truth.reported.spend);
    expect(row!.actions).toEqual(truth.reported.actions);
    const [today] = await insights(`act_${accountId}`, {
      date_preset: 'today',
      level: 'ad',
      filtering: JSON.stringify([{ field: 'ad.id', operator: 'EQUAL', value: adIds[0] }]),
    });
    const todayTruth = sim.truth(adIds[0]!, undefined, { since: '2026-03-02', until: '2026-03-02' });
    expect(spend(today!)).toBeCloseTo(spend(todayTruth.settled as Metrics) * 0.9, 1);
  });

  it("settles yesterday's spend and impressions over the hours after the account's midnight", () => {
    const adId = sim.scenario('steady_converter').adIds[0]!;
    const day = { since: '2026-03-02', until: '2026-03-02' };
    const midnight = Date.parse('2026-03-03T05:00:00Z'); // midnight in New York
    const share = (hours: number) => {
      const view = sim.truth(adId, midnight + hours * HOUR, day);
      const r = view.reported as Metrics;
      const s = view.settled as Metrics;
      return { spend: spend(r) / spend(s), impressions: Number(r.impressions) / Number(s.impressions) };
    };
    expect(share(0).spend).toBeCloseTo(0.9, 2);
    expect(share(0).impressions).toBeCloseTo(0.9, 2);
    expect(share(2).spend).toBeCloseTo(0.97, 2);
    expect(share(3).spend).toBeCloseTo(0.99, 2);
    expect(share(18)).toEqual({ spend: 1, impressions: 1 });
  });
});

describe('settled truth and delivery', () => {
  it('settles to exactly what was delivered, for every ad of an account whose tracking works', () => {
    const home = sim.world.accounts[0]!.accountId;
    const now = sim.clock.now();
    const ads = [...sim.world.ads.values()].filter((ad) => ad.accountId === home);
    expect(ads.length).toBeGreaterThan(10);
    for (const ad of ads) {
      const delivered = adTotals(
        ad,
        sim.world.adsets.get(ad.adsetId)!,
        sim.world.campaigns.get(ad.campaignId)!,
        -Infinity,
        now,
      );
      expect(sim.truth(ad.id).settled).toEqual(graphMetrics(delivered));
    }
  });
});

describe('scenarios against their settled truth', () => {
  it('shows the late converter as a dud on its first day, then its late leads bring its CPL well under $40', () => {
    const adId = sim.scenario('late_converter').adIds[0]!;
    const first = sim.truth(adId);
    expect(spend(first.reported as Metrics)).toBeGreaterThan(30);
    expect(leads(first.reported as Metrics)).toBe(0);
    expect(leads(first.settled as Metrics)).toBeGreaterThan(0);
    const later = sim.truth(adId, at(START, 48));
    const reported = later.reported as Metrics;
    expect(spend(reported) / leads(reported)).toBeLessThan(40);
    const settled = later.settled as Metrics;
    expect(spend(settled) / leads(settled)).toBeCloseTo(10, 0);
  });

  it('keeps the true dud without a lead, however long one waits', () => {
    const adId = sim.scenario('true_dud').adIds[0]!;
    const later = sim.truth(adId, at(START, 96));
    expect(spend(later.settled as Metrics)).toBeGreaterThan(100);
    expect(leads(later.settled as Metrics)).toBe(0);
    expect(leads(later.reported as Metrics)).toBe(0);
    const clicks = (later.reported as Metrics).actions?.find((a) => a.action_type === 'link_click');
    expect(Number(clicks?.value)).toBeGreaterThan(0);
  });

  it('reports the steady converter within minutes of each lead', () => {
    const adId = sim.scenario('steady_converter').adIds[0]!;
    const view = sim.truth(adId, at(START, 0.25));
    expect(leads(view.reported as Metrics)).toBe(leads(view.settled as Metrics));
    expect(spend(view.settled as Metrics) / leads(view.settled as Metrics)).toBeCloseTo(15, -1);
  });

  it("stops an account's leads when its tracking breaks while spend and clicks go on", () => {
    const scenario = sim.scenario('broken_tracking');
    expect(scenario.accountId).toBe(sim.world.accounts.at(-1)!.accountId);
    const account = `act_${scenario.accountId}`;
    const broke = Date.parse(scenario.trackingBrokenAt!);
    const before = sim.truth(account, broke);
    const after = sim.truth(account, broke + 48 * HOUR);
    expect(leads(before.settled as Metrics)).toBeGreaterThan(0);
    expect(leads(after.settled as Metrics)).toBe(leads(before.settled as Metrics));
    expect(leads(after.reported as Metrics)).toBe(leads(before.settled as Metrics));
    expect(spend(after.settled as Metrics)).toBeGreaterThan(spend(before.settled as Metrics) + 100);
    const clicks = (m: unknown) => Number((m as Metrics).clicks);
    expect(clicks(after.settled)).toBeGreaterThan(clicks(before.settled));
    // Other accounts keep their leads.
    const other = `act_${sim.world.accounts[0]!.accountId}`;
    expect(leads(sim.truth(other, broke + 48 * HOUR).settled as Metrics)).toBeGreaterThan(
      leads(sim.truth(other, broke).settled as Metrics),
    );
  });

  it('answers the same numbers from the same seed and clock', async () => {
    const twin = await startSimulator({ seed: 3, start: START, speed: 0, accounts: 3, campaignsPerAccount: 4 });
    try {
      for (const name of ['late_converter', 'website_cpl_high', 'broken_tracking'] as const) {
        const id = sim.scenario(name).campaignId;
        expect(twin.truth(id, at(START, 30))).toEqual(sim.truth(id, at(START, 30)));
      }
    } finally {
      await twin.close();
    }
  });
});

describe('the admin API', () => {
  it('shows settled truth, scenarios with their lag, and refuses a bad moment', async () => {
    const adId = sim.scenario('late_converter').adIds[0]!;
    const when = new Date(at(START, 24)).toISOString();
    const response = await fetch(`${sim.url}/__sim/truth/${adId}?at=${encodeURIComponent(when)}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(sim.truth(adId, when))));

    const scenarios = (await (await fetch(`${sim.url}/__sim/scenarios`)).json()) as Record<
      string,
      { lag: unknown; description: string }
    >;
    expect(scenarios.late_converter!.lag).toEqual({ website: 'next_day', onsite: 'instant_form' });
    expect(scenarios.broken_tracking!.description).toMatch(/leads stop/);

    const bad = await fetch(`${sim.url}/__sim/truth/${adId}?at=yesterday`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ detail: 'at must be an ISO 8601 moment' });
    expect((await fetch(`${sim.url}/__sim/truth/999`)).status).toBe(404);
  });
});
