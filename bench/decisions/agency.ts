/**
 * The decisions bench's agency, built into the simulator's world: per ad account, event campaigns
 * launched one after another (some running before the bench starts, the rest during it), each with
 * ads of three kinds — true duds (never a lead), late converters (website leads that arrive a day
 * or more after the spend) and steady converters (instant-form leads within minutes). A campaign's
 * website-lead ads have an ad set of their own (optimised for website conversions), the others one
 * for instant forms; true duds are instant-form ads. Every draw
 * comes from the seed, so both runs of the bench (and every machine) see the same agency.
 */
import { DateTime } from 'luxon';
import { seededRandom, type Random } from '../../server/adplatform/simulator/random';
import type { DeliveryProfile, SimAccount, SimAdSet, World } from '../../server/adplatform/simulator/world';

export type AdKind = 'true_dud' | 'late_converter' | 'steady_converter';

export interface AgencyAd {
  id: string;
  accountId: string;
  kind: AdKind;
}

export interface AgencyShape {
  campaignsPerAccount: number;
  adsPerCampaign: number;
  /** Simulated days the bench runs; campaigns launch from 5 days before to 2 days before its end. */
  days: number;
}

const HOUR = 3_600_000;
/** Shares of each kind among the ads. */
const KIND_SHARES: [AdKind, number][] = [
  ['true_dud', 0.2],
  ['late_converter', 0.3],
  ['steady_converter', 0.5],
];
const TOPICS = ['MED-W', 'WW-W', 'EP-W', 'RP-W', 'SS-W', 'LTC-W', 'TIR-W'];
const base = { cpm: 22, ctrPct: 1.4, linkShare: 0.7 };

function kindOf(random: Random): AdKind {
  let roll = random.next();
  for (const [kind, share] of KIND_SHARES) {
    roll -= share;
    if (roll < 0) return kind;
  }
  return 'steady_converter';
}

/**
 * A late converter's leads are all website (pixel) leads: half arrive with Meta's usual website
 * lag (half of them 1–3 days late), half only the next day or later (20–60 h). Its cost per lead
 * is good; a steady converter's ranges from good to too dear, so the CPL task has real work.
 */
function profileOf(kind: AdKind, random: Random): DeliveryProfile {
  const spendPerHour = Number(random.between(1.5, 3.5).toFixed(2));
  if (kind === 'true_dud') return { ...base, spendPerHour, websiteShare: 0, leads: { kind: 'none' } };
  if (kind === 'late_converter')
    return {
      ...base,
      spendPerHour,
      websiteShare: 1,
      leads: { kind: 'per_spend', cpl: Number(random.between(8, 40).toFixed(2)) },
      lag: { website: random.chance(0.5) ? 'next_day' : 'website', onsite: 'instant_form' },
    };
  return {
    ...base,
    spendPerHour,
    websiteShare: 0,
    leads: { kind: 'per_spend', cpl: Number(random.between(10, 80).toFixed(2)) },
  };
}

/** Adds the agency's campaigns and ads to every account of the world; answers each ad's kind. */
export function buildAgency(world: World, start: number, shape: AgencyShape, seed: number): AgencyAd[] {
  const random = seededRandom(seed * 7919 + 17);
  const ads: AgencyAd[] = [];
  const firstLaunch = start - 5 * 24 * HOUR;
  const lastLaunch = start + (shape.days - 2) * 24 * HOUR;
  world.accounts.forEach((account: SimAccount, a) => {
    for (let c = 0; c < shape.campaignsPerAccount; c += 1) {
      // Launches spread evenly over the period, each account shifted by a few hours.
      const share = (c + (a % 7) / 7) / shape.campaignsPerAccount;
      const launch = Math.round((firstLaunch + share * (lastLaunch - firstLaunch)) / HOUR) * HOUR;
      const event = DateTime.fromMillis(launch, { zone: account.timezone })
        .plus({ days: shape.days + 7 })
        .set({ hour: 18, minute: 30 });
      const campaign = world.addCampaign({
        accountId: account.accountId,
        name: `EDM - ${TOPICS[(a + c) % TOPICS.length]} - ${event.toFormat('MM/dd/yyyy')} 6:30 PM - Agency ${a + 1}.${c + 1}`,
        startTime: launch,
        stopTime: event.toMillis(),
        dailyBudgetCents: 15_000,
      });
      // One ad set per lead destination, as on Meta: instant-form ads apart from website-lead ads.
      const adsets = new Map<boolean, SimAdSet>();
      const adsetFor = (website: boolean) => {
        let adset = adsets.get(website);
        if (!adset) {
          adset = world.addAdSet(
            campaign,
            `Agency ${a + 1}.${c + 1} - ${website ? 'Website' : 'Instant form'} - Age 55+`,
          );
          adsets.set(website, adset);
        }
        return adset;
      };
      for (let i = 0; i < shape.adsPerCampaign; i += 1) {
        const kind = kindOf(random);
        const profile = profileOf(kind, random);
        const ad = world.addAd(adsetFor(profile.websiteShare > 0), `${kind.replace('_', ' ')} ${i + 1}`, profile);
        ads.push({ id: ad.id, accountId: account.accountId, kind });
      }
    }
  });
  return ads;
}
