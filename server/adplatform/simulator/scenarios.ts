/**
 * Named scenarios: campaigns in the first ad account built to cross the rule engine's thresholds
 * (docs/engine.md) as simulated time passes, and to tell late data from bad data (docs/simulator.md).
 * Each returns the ids a test needs to watch.
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
  'late_converter',
  'true_dud',
  'steady_converter',
  'broken_tracking',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export function isScenarioName(name: string): name is ScenarioName {
  return (SCENARIO_NAMES as readonly string[]).includes(name);
}

interface ScenarioDefinition {
  description: string;
  /** Builds the scenario into the world's first account (`home`) or, where it says so, another. */
  build(world: World, home: SimAccount, start: number): ScenarioObjects;
}

/** Adds the named scenarios to a world built at `start`. */
export function addScenarios(world: World, names: readonly ScenarioName[], start: number): void {
  const home = world.accounts[0];
  if (!home) return;
  for (const name of names) world.scenarios.set(name, SCENARIOS[name].build(world, home, start));
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

/** An event campaign: [topic option, event in days, label, started hours ago]. */
type EventCampaign = [string, number, string, number];
type AdProfile = Partial<DeliveryProfile> & Pick<DeliveryProfile, 'spendPerHour' | 'leads'>;

/** A scenario of one event campaign with one ad. */
function oneAd(
  world: World,
  account: SimAccount,
  start: number,
  [option, daysAhead, label, startedHoursAgo]: EventCampaign,
  adName: string,
  profile: AdProfile,
): ScenarioObjects {
  const { campaign, adset } = eventCampaign(world, account, start, option, daysAhead, label, startedHoursAgo);
  const ad = world.addAd(adset, adName, { ...base, ...profile });
  return { accountId: account.accountId, campaignId: campaign.id, adIds: [ad.id] };
}

/** A scenario built into the home account as one event campaign with one ad (see `oneAd`). */
function oneAdScenario(
  description: string,
  campaign: EventCampaign,
  adName: string,
  profile: AdProfile,
): ScenarioDefinition {
  return { description, build: (world, account, start) => oneAd(world, account, start, campaign, adName, profile) };
}

export const SCENARIOS: Record<ScenarioName, ScenarioDefinition> = {
  cpl_climbs: oneAdScenario(
    'An ad whose cost per lead climbs as it spends (CPL ≈ 2·√spend: $20 at $100, $40 at $400, $60 at $900).',
    ['RP-W', 14, 'Scenario CPL Climbs', 24],
    'Scenario - CPL Climbs',
    { spendPerHour: 8, leads: { kind: 'diminishing', factor: 0.5 } },
  ),
  spend_no_leads: oneAdScenario(
    'An ad that spends about $2.50 an hour and never gets a lead (low CTR, high CPC).',
    // Over a day old whatever the minute the world starts: at exactly 24 hours, a start in an hour's
    // last seconds left that hour's row without an impression, so the ad's first delivering hour
    // began under 24 hours before a run in the same minute, and a new rule's 24-hour maturity found
    // it too early (a browser test's Run now at 00:59 UTC turned nothing off).
    ['SS-W', 10, 'Scenario No Leads', 26],
    'Scenario - Spend No Leads',
    { ctrPct: 0.35, cpm: 30, spendPerHour: 2.5, leads: { kind: 'none' } },
  ),
  no_link_clicks: oneAdScenario(
    'An ad with impressions and clicks but no link clicks, and no leads.',
    ['TIR-W', 12, 'Scenario No Link Clicks', 24],
    'Scenario - No Link Clicks',
    { linkShare: 0, spendPerHour: 2, leads: { kind: 'none' } },
  ),
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
  website_cpl_high: oneAdScenario(
    'An ad delivering for eleven days whose leads all come from the website pixel, at about $70 each (reported a little dearer while its last three days’ leads are still arriving).',
    // Eleven days, not two: with two, both of its ~2 leads could still be in flight at the start, and a
    // website CPL rule found none. Leads over 72 hours old have all arrived.
    ['LTC-W', 9, 'Scenario Website Leads', 264],
    'Scenario - Website Leads',
    { spendPerHour: 4, websiteShare: 1, leads: { kind: 'per_spend', cpl: 70 } },
  ),
  late_converter: oneAdScenario(
    'An ad that looks like a dud its first day ($2 an hour, no lead shown), then its website leads, reported 20–60 hours late, bring its CPL to about $10.',
    ['MED-W', 10, 'Scenario Late Converter', 20],
    'Scenario - Late Converter',
    {
      spendPerHour: 2,
      websiteShare: 1,
      leads: { kind: 'per_spend', cpl: 10 },
      lag: { website: 'next_day', onsite: 'instant_form' },
    },
  ),
  true_dud: oneAdScenario(
    'An ad that delivers like the late converter ($2 an hour, link clicks) and never gets a lead, late or not.',
    ['WW-W', 11, 'Scenario True Dud', 20],
    'Scenario - True Dud',
    { spendPerHour: 2, leads: { kind: 'none' } },
  ),
  steady_converter: oneAdScenario(
    'An ad with instant-form leads at about $15 each, reported within minutes, delivering for three days.',
    ['MED-S', 12, 'Scenario Steady Converter', 72],
    'Scenario - Steady Converter',
    { spendPerHour: 3, leads: { kind: 'per_spend', cpl: 15 } },
  ),
  broken_tracking: {
    description:
      "The last ad account's leads stop being recorded 6 hours before the start while spend and clicks go on (its own campaign: about a lead every 3 hours until then).",
    build(world, _home, start) {
      const account = world.accounts.at(-1)!;
      account.trackingBrokenAt = start - 6 * HOUR;
      const objects = oneAd(
        world,
        account,
        start,
        ['WW-S', 12, 'Scenario Broken Tracking', 72],
        'Scenario - Broken Tracking',
        { spendPerHour: 4, leads: { kind: 'per_spend', cpl: 12 } },
      );
      return {
        ...objects,
        trackingBrokenAt: new Date(account.trackingBrokenAt).toISOString(),
      };
    },
  },
};
