/**
 * The push bench's agency, built into the simulator's world: half its ad accounts idle — event
 * campaigns running for ten days with ads that convert well, nothing any rule would act on — and
 * half busy, with campaigns launched around the bench's start whose ads are duds (never a lead),
 * dear (a lead at $90–150) or good (a lead at $12–28). Every draw comes from the seed, so the
 * polling run and the push run (and every machine) see the same agency.
 */
import { DateTime } from 'luxon';
import { seededRandom, type Random } from '../../../server/adplatform/simulator/random';
import type { DeliveryProfile, SimAccount, World } from '../../../server/adplatform/simulator/world';

export type PushAdKind = 'idle_good' | 'dud' | 'dear' | 'good';

export interface PushAgencyAd {
  id: string;
  accountId: string;
  kind: PushAdKind;
}

export interface PushAgencyShape {
  campaignsPerAccount: number;
  adsPerCampaign: number;
  hours: number;
}

const HOUR = 3_600_000;
const TOPICS = ['MED-W', 'WW-W', 'EP-W', 'RP-W', 'SS-W', 'LTC-W', 'TIR-W'];
const base = { cpm: 22, ctrPct: 1.4, linkShare: 0.7, websiteShare: 0 };

function busyKind(random: Random): PushAdKind {
  const roll = random.next();
  return roll < 0.3 ? 'dud' : roll < 0.5 ? 'dear' : 'good';
}

function profileOf(kind: PushAdKind, random: Random): DeliveryProfile {
  const spendPerHour = Number(random.between(1.5, 3.5).toFixed(2));
  if (kind === 'dud') return { ...base, spendPerHour, leads: { kind: 'none' } };
  const cpl = kind === 'dear' ? random.between(90, 150) : random.between(12, 28);
  return { ...base, spendPerHour, leads: { kind: 'per_spend', cpl: Number(cpl.toFixed(2)) } };
}

/** Adds the agency's campaigns and ads to every account; answers each ad's kind (odd accounts are idle). */
export function buildPushAgency(world: World, start: number, shape: PushAgencyShape, seed: number): PushAgencyAd[] {
  const random = seededRandom(seed * 4099 + 7);
  const ads: PushAgencyAd[] = [];
  world.accounts.forEach((account: SimAccount, a) => {
    const idle = a % 2 === 1;
    for (let c = 0; c < shape.campaignsPerAccount; c += 1) {
      // Idle campaigns have run for ten days; busy ones launch from 30 h before the start to 6 h after.
      const launchHours = idle ? -240 : -30 + ((c + (a % 5) / 5) / shape.campaignsPerAccount) * 36;
      const launch = start + Math.round(launchHours) * HOUR;
      const event = DateTime.fromMillis(start, { zone: account.timezone })
        .plus({ days: Math.ceil(shape.hours / 24) + 7 })
        .set({ hour: 18, minute: 30 });
      const campaign = world.addCampaign({
        accountId: account.accountId,
        name: `EDM - ${TOPICS[(a + c) % TOPICS.length]} - ${event.toFormat('MM/dd/yyyy')} 6:30 PM - Agency ${a + 1}.${c + 1}`,
        startTime: launch,
        stopTime: event.toMillis(),
        dailyBudgetCents: 15_000,
      });
      const adset = world.addAdSet(campaign, `Agency ${a + 1}.${c + 1} - Instant form - Age 55+`);
      for (let i = 0; i < shape.adsPerCampaign; i += 1) {
        const kind = idle ? 'idle_good' : busyKind(random);
        const ad = world.addAd(adset, `${kind} ${i + 1}`, profileOf(kind === 'idle_good' ? 'good' : kind, random));
        ads.push({ id: ad.id, accountId: account.accountId, kind });
      }
    }
  });
  return ads;
}
