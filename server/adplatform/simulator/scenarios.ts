/**
 * Named scenarios: campaigns in the first ad account built to cross the rule engine's thresholds
 * (docs/engine.md) as simulated time passes. Each returns the ids a test needs to watch.
 */
import { DateTime } from 'luxon';
import type { DeliveryProfile, ScenarioObjects, SimAccount, World } from './world';
import { HOUR, campaignTime } from './naming';

export const SCENARIO_NAMES = [
  'cpl_climbs',
  'spend_no_leads',
  'no_link_clicks',
  'seminar_fills',
  'website_cpl_high',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export function isScenarioName(name: string): name is ScenarioName {
  return (SCENARIO_NAMES as readonly string[]).includes(name);
}

interface ScenarioDefinition {
  description: string;
  build(world: World, account: SimAccount, start: number): ScenarioObjects;
}

const base: Omit<DeliveryProfile, 'leads' | 'spendPerHour'> = { cpm: 22, ctrPct: 1.5, linkShare: 0.7, websiteShare: 0 };

function eventCampaign(
  world: World,
  account: SimAccount,
  start: number,
  option: string,
  daysAhead: number,
  label: string,
  startedHoursAgo: number,
) {
  const event = DateTime.fromMillis(start, { zone: account.timezone })
    .startOf('day')
    .plus({ days: daysAhead })
    .set({ hour: 18, minute: 30 });
  const campaign = world.addCampaign({
    accountId: account.accountId,
    name: `EDM - ${option} - ${event.toFormat('MM/dd/yyyy')} ${campaignTime(event)} - ${label}`,
    startTime: start - startedHoursAgo * HOUR,
    stopTime: event.toMillis(),
    dailyBudgetCents: 10_000,
  });
  return { campaign, adset: world.addAdSet(campaign, `${label} - Scenario`) };
}

export const SCENARIOS: Record<ScenarioName, ScenarioDefinition> = {
  cpl_climbs: {
    description:
      'An ad whose cost per lead climbs as it spends (CPL ≈ 2·√spend: $20 at $100, $40 at $400, $60 at $900).',
    build(world, account, start) {
      const { campaign, adset } = eventCampaign(world, account, start, 'RP-W', 14, 'Scenario CPL Climbs', 24);
      const ad = world.addAd(adset, 'Scenario - CPL Climbs', {
        ...base,
        spendPerHour: 8,
        leads: { kind: 'diminishing', factor: 0.5 },
      });
      return { accountId: account.accountId, campaignId: campaign.id, adIds: [ad.id] };
    },
  },
  spend_no_leads: {
    description: 'An ad that spends about $2.50 an hour and never gets a lead (low CTR, high CPC).',
    build(world, account, start) {
      const { campaign, adset } = eventCampaign(world, account, start, 'SS-W', 10, 'Scenario No Leads', 24);
      const ad = world.addAd(adset, 'Scenario - Spend No Leads', {
        ...base,
        ctrPct: 0.35,
        cpm: 30,
        spendPerHour: 2.5,
        leads: { kind: 'none' },
      });
      return { accountId: account.accountId, campaignId: campaign.id, adIds: [ad.id] };
    },
  },
  no_link_clicks: {
    description: 'An ad with impressions and clicks but no link clicks, and no leads.',
    build(world, account, start) {
      const { campaign, adset } = eventCampaign(world, account, start, 'TIR-W', 12, 'Scenario No Link Clicks', 24);
      const ad = world.addAd(adset, 'Scenario - No Link Clicks', {
        ...base,
        linkShare: 0,
        spendPerHour: 2,
        leads: { kind: 'none' },
      });
      return { accountId: account.accountId, campaignId: campaign.id, adIds: [ad.id] };
    },
  },
  seminar_fills: {
    description: 'A seminar campaign whose two ads bring about one lead an hour: it passes 40 seats about 10 hours in.',
    build(world, account, start) {
      const { campaign, adset } = eventCampaign(world, account, start, 'EP-S', 7, 'Scenario Seminar Fills', 30);
      const profile: DeliveryProfile = { ...base, spendPerHour: 3, leads: { kind: 'per_spend', cpl: 6 } };
      const ads = [
        world.addAd(adset, 'Scenario - Seminar Venue A', profile),
        world.addAd(adset, 'Scenario - Seminar Venue B', profile),
      ];
      return { accountId: account.accountId, campaignId: campaign.id, adIds: ads.map((a) => a.id) };
    },
  },
  website_cpl_high: {
    description: 'An ad whose leads all come from the website pixel, at about $70 each.',
    build(world, account, start) {
      const { campaign, adset } = eventCampaign(world, account, start, 'LTC-W', 9, 'Scenario Website Leads', 48);
      const ad = world.addAd(adset, 'Scenario - Website Leads', {
        ...base,
        spendPerHour: 4,
        websiteShare: 1,
        leads: { kind: 'per_spend', cpl: 70 },
      });
      return { accountId: account.accountId, campaignId: campaign.id, adIds: [ad.id] };
    },
  },
};
