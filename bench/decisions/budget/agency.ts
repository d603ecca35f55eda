/**
 * The budget bench's agency, built into the simulator's world: an agency already running when its
 * budget rules are switched on. Per ad account, lead campaigns started three to ten days before the
 * bench and running past its end, each with ad sets of their own daily budget ($30–$80). A few
 * campaigns hold a campaign budget instead (their ad sets have none) and a few ad sets a lifetime
 * budget: the adset-level budget rules must leave both alone. Half the ad sets collect website leads
 * (Meta's usual website lag: half of them a day or more late), half instant-form leads. Each ad
 * set's true cost per lead is drawn around the agency's target: some winners, many near it, some
 * losers. Every draw comes from the seed, so both runs (and every machine) see the same agency.
 */
import { DateTime } from 'luxon';
import { seededRandom, type Random } from '../../../server/adplatform/simulator/random';
import type {
  DeliveryProfile,
  SimAccount,
  SimAdSet,
  SimCampaign,
  World,
} from '../../../server/adplatform/simulator/world';

export type BudgetKind = 'adset_daily' | 'campaign_daily' | 'adset_lifetime';
export type CplBand = 'winner' | 'near' | 'loser';

export interface BudgetAdSet {
  id: string;
  accountId: string;
  campaignId: string;
  kind: BudgetKind;
  /** The simulator's truth at the starting budget: what a lead costs. */
  cpl: number;
  band: CplBand;
  /** Its own daily budget at the start, cents (null: a campaign budget or a lifetime one). */
  dailyBudgetCents: number | null;
  website: boolean;
}

export interface BudgetShape {
  campaignsPerAccount: number;
  adsetsPerCampaign: number;
  adsPerAdset: number;
  /** Simulated days the bench runs; every campaign runs a week past them. */
  days: number;
  /** The agency's target cost per lead (dollars). */
  target: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TOPICS = ['MED-W', 'WW-W', 'EP-W', 'RP-W', 'SS-W', 'LTC-W', 'TIR-W'];
const base = { cpm: 22, ctrPct: 1.4, linkShare: 0.7 };

/** Shares of the ad sets by how their true CPL stands to the target, and the factor range of each. */
export const CPL_BANDS: { band: CplBand; share: number; from: number; to: number }[] = [
  { band: 'winner', share: 0.2, from: 0.5, to: 0.85 },
  { band: 'near', share: 0.55, from: 0.85, to: 1.15 },
  { band: 'loser', share: 0.25, from: 1.2, to: 2 },
];

function drawCpl(random: Random, target: number): { band: CplBand; cpl: number } {
  let roll = random.next();
  for (const { band, share, from, to } of CPL_BANDS) {
    roll -= share;
    if (roll < 0 || band === 'loser') return { band, cpl: Number((target * random.between(from, to)).toFixed(2)) };
  }
  throw new Error('unreachable');
}

/**
 * What a campaign's budget is: one account in five has its last campaign on a campaign budget, and
 * another one in five its last campaign's ad sets on lifetime budgets.
 */
export function budgetKindOf(account: number, campaign: number, campaigns: number): BudgetKind {
  if (campaign !== campaigns - 1) return 'adset_daily';
  if (account % 5 === 0) return 'campaign_daily';
  if (account % 5 === 2) return 'adset_lifetime';
  return 'adset_daily';
}

/** An ad's delivery: its share of the ad set's daily budget an hour, leads at the ad set's cost. */
function profileOf(dailyCents: number, ads: number, cpl: number, website: boolean, random: Random): DeliveryProfile {
  return {
    ...base,
    spendPerHour: Number((dailyCents / 100 / 24 / ads).toFixed(2)),
    websiteShare: website ? 1 : 0,
    leads: { kind: 'per_spend', cpl },
    ...(website ? { lag: { website: random.chance(0.5) ? 'next_day' : 'website', onsite: 'instant_form' } } : {}),
  } as DeliveryProfile;
}

/** Adds the agency's campaigns, ad sets and ads to every account of the world; answers each ad set. */
export function buildBudgetAgency(world: World, start: number, shape: BudgetShape, seed: number): BudgetAdSet[] {
  const random = seededRandom(seed * 4099 + 11);
  const adsets: BudgetAdSet[] = [];
  world.accounts.forEach((account: SimAccount, a) => {
    for (let c = 0; c < shape.campaignsPerAccount; c += 1) {
      const kind = budgetKindOf(a, c, shape.campaignsPerAccount);
      const launch = start - random.int(3 * 24, 10 * 24) * HOUR;
      const stop = DateTime.fromMillis(start + (shape.days + 7) * DAY, { zone: account.timezone })
        .set({ hour: 18, minute: 30 })
        .toMillis();
      const runDays = Math.ceil((stop - launch) / DAY);
      const campaignDaily = random.int(90, 240) * 100;
      const campaign: SimCampaign = world.addCampaign({
        accountId: account.accountId,
        name: `EDM - ${TOPICS[(a + c) % TOPICS.length]} - Evergreen Guide - Agency ${a + 1}.${c + 1}`,
        startTime: launch,
        stopTime: stop,
        ...(kind === 'campaign_daily' ? { dailyBudgetCents: campaignDaily } : {}),
      });
      for (let s = 0; s < shape.adsetsPerCampaign; s += 1) {
        const { band, cpl } = drawCpl(random, shape.target);
        const website = random.chance(0.5);
        const daily =
          kind === 'campaign_daily' ? Math.round(campaignDaily / shape.adsetsPerCampaign) : random.int(30, 80) * 100;
        const budget: Pick<SimAdSet, 'dailyBudgetCents' | 'lifetimeBudgetCents'> =
          kind === 'adset_daily'
            ? { dailyBudgetCents: daily }
            : kind === 'adset_lifetime'
              ? { lifetimeBudgetCents: daily * runDays }
              : {};
        const adset = world.addAdSet(
          campaign,
          `Agency ${a + 1}.${c + 1}.${s + 1} - ${website ? 'Website' : 'Instant form'} - Age 55+`,
          budget,
        );
        for (let i = 0; i < shape.adsPerAdset; i += 1)
          world.addAd(adset, `Creative ${i + 1}`, profileOf(daily, shape.adsPerAdset, cpl, website, random));
        adsets.push({
          id: adset.id,
          accountId: account.accountId,
          campaignId: campaign.id,
          kind,
          cpl,
          band,
          dailyBudgetCents: kind === 'adset_daily' ? daily : null,
          website,
        });
      }
    }
  });
  return adsets;
}
