/**
 * Each scenario keeps the promise of its description at `npm start`'s default start (seed 1, the
 * current time, every scenario, five accounts), read as the product reads it: the ad platform
 * `npm start` builds (startAdPlatform), its own Graph client, lifetime insights of the scenario's
 * campaign and the metrics insightMetrics derives. Late leads count as Graph reports them, so a
 * promised metric has to show at the start, not only once everything has arrived.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdPlatform, type AdPlatform } from '../../../../server/adplatform/index';
import { insightMetrics, type InsightMetrics } from '../../../../server/adplatform/insightValues';
import type { ScenarioName } from '../../../../server/adplatform/simulator/index';
import { SCENARIOS } from '../../../../server/adplatform/simulator/scenarios';
import { loadConfig } from '../../../../server/config';

let platform: AdPlatform;
beforeAll(async () => {
  // npm start's defaults, with the clock held still so the start is the moment read.
  platform = await startAdPlatform(loadConfig({}), { SIMULATOR_SPEED: '0' });
});
afterAll(() => platform.stop());

const sim = () => platform.simulator!;

async function lifetime(name: ScenarioName): Promise<InsightMetrics> {
  const { accountId, campaignId } = sim().scenario(name);
  const rows = await platform.client.getInsights(accountId, { level: 'campaign', campaignIds: [campaignId] });
  expect(rows).toHaveLength(1);
  return insightMetrics(rows[0]);
}

/** Hours the scenario's campaign has delivered by the start. */
const hoursDelivered = (name: ScenarioName) =>
  (sim().clock.now() - sim().world.campaigns.get(sim().scenario(name).campaignId)!.startTime) / 3_600_000;

const PROMISES = {
  async cpl_climbs() {
    const m = await lifetime('cpl_climbs');
    expect(m.leads).toBeGreaterThan(0);
    expect(m.cpl! / (2 * Math.sqrt(m.spend))).toBeGreaterThan(0.8);
    expect(m.cpl! / (2 * Math.sqrt(m.spend))).toBeLessThan(1.25);
  },
  async spend_no_leads() {
    const m = await lifetime('spend_no_leads');
    expect(m.spend / hoursDelivered('spend_no_leads')).toBeGreaterThan(2.5 * 0.88);
    expect(m.leads).toBe(0);
    expect(m.ctr).toBeLessThan(0.5);
  },
  async no_link_clicks() {
    const m = await lifetime('no_link_clicks');
    expect(m.impressions).toBeGreaterThan(0);
    expect(m.clicks).toBeGreaterThan(0);
    expect(m.linkClicks).toBe(0);
    expect(m.leads).toBe(0);
  },
  async seminar_fills() {
    const m = await lifetime('seminar_fills');
    // About a lead an hour, short of the 40 seats it passes about 10 hours in.
    expect(m.leads / hoursDelivered('seminar_fills')).toBeGreaterThan(0.8);
    expect(m.leads).toBeLessThan(40);
    expect(m.leads).toBeGreaterThan(40 - 16);
  },
  async website_cpl_high() {
    const m = await lifetime('website_cpl_high');
    expect(m.leads).toBeGreaterThan(0);
    expect(m.websiteLeads).toBe(m.leads);
    expect(m.websiteCpl).toBeGreaterThan(60);
    expect(m.websiteCpl).toBeLessThan(95);
  },
  async late_converter() {
    const m = await lifetime('late_converter');
    // Its first day: $2 an hour and no lead shown yet.
    expect(m.spend / hoursDelivered('late_converter')).toBeGreaterThan(2 * 0.88);
    expect(m.leads).toBe(0);
  },
  async true_dud() {
    const m = await lifetime('true_dud');
    expect(m.spend).toBeGreaterThan(0);
    expect(m.linkClicks).toBeGreaterThan(0);
    expect(m.leads).toBe(0);
  },
  async steady_converter() {
    const m = await lifetime('steady_converter');
    expect(m.leads).toBeGreaterThan(0);
    expect(m.cpl).toBeGreaterThan(13);
    expect(m.cpl).toBeLessThan(18);
  },
  async broken_tracking() {
    const { accountId, campaignId, trackingBrokenAt } = sim().scenario('broken_tracking');
    const brokenAt = Date.parse(trackingBrokenAt!);
    const m = await lifetime('broken_tracking');
    // About a lead every 3 hours until the break.
    expect(m.leads / ((brokenAt - sim().world.campaigns.get(campaignId)!.startTime) / 3_600_000)).toBeGreaterThan(
      1 / 4,
    );
    const zone = sim().world.account(accountId)!.timezone;
    const day = (ms: number) => DateTime.fromMillis(ms, { zone }).toISODate()!;
    const hours = await platform.client.getInsights(accountId, {
      level: 'campaign',
      campaignIds: [campaignId],
      timeRange: { since: day(brokenAt), until: day(sim().clock.now()) },
      timeIncrement: 1,
      breakdown: 'hourly',
    });
    const since = hours.filter(
      (row) =>
        DateTime.fromISO(`${row.date_start}T${row.hourly_stats_aggregated_by_advertiser_time_zone!.slice(0, 8)}`, {
          zone,
        }).toMillis() >= brokenAt,
    );
    // Spend and clicks go on after the break; leads no longer show.
    expect(since.reduce((spend, row) => spend + Number(row.spend), 0)).toBeGreaterThan(0);
    expect(since.map((row) => insightMetrics(row).leads)).toEqual(since.map(() => 0));
  },
} satisfies Record<ScenarioName, () => Promise<void>>;

describe("each scenario's promise at npm start's default start, through the product's Graph client", () => {
  for (const [name, check] of Object.entries(PROMISES) as [ScenarioName, () => Promise<void>][])
    it(`${name}: ${SCENARIOS[name].description}`, check);
});
