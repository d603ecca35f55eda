/**
 * The quality bench's agency, built into the simulator's world: an agency already running when its
 * rules are switched on. Per ad account, webinar campaigns launched from two weeks before the bench's
 * start to four days after it, each advertising a weekly date of one topic from five days after its
 * launch to the bench's third week (`EDM - MED-W - 02/20/2026 & 02/27/2026 & … 6:30 PM - Agency 1.1`)
 * and stopped at its last date. Their ads collect instant-form leads at a cost per lead drawn from
 * $15–$45 (webinar leads for financial advisers); each lead registers for the campaign's next date,
 * and the Demio simulator decides who attends at the ad's show-up rate (5–70 %, drawn by hash,
 * unrelated to its cost per lead). Every draw comes from the seed, so both rule sets (and every
 * machine) see the same agency.
 */
import { DateTime } from 'luxon';
import { seededRandom } from '../../../server/adplatform/simulator/random';
import type { SimAccount, World } from '../../../server/adplatform/simulator/world';
import { showUpRate } from '../../../server/webinar/simulator/participants';

export interface QualityAd {
  id: string;
  accountId: string;
  campaignId: string;
  /** The simulator's truth: what a lead costs and the share of its registrants who attend. */
  cpl: number;
  showUpRate: number;
}

export interface QualityShape {
  campaignsPerAccount: number;
  adsPerCampaign: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Campaigns launch between these days from the start; their first date this many days after launch. */
const FIRST_LAUNCH_DAY = -14;
const LAST_LAUNCH_DAY = 4;
const FIRST_DATE_AFTER_DAYS = 5;
/** The last day a date may fall on: the bench runs a day past it, so every show-up is settled. */
const LAST_DATE_DAY = 21;
const TOPICS = ['MED-W', 'WW-W', 'EP-W', 'RP-W', 'SS-W', 'LTC-W', 'TIR-W'];
const base = { cpm: 22, ctrPct: 1.4, linkShare: 0.7 };

export function buildQualityAgency(world: World, start: number, shape: QualityShape, seed: number): QualityAd[] {
  const random = seededRandom(seed * 6151 + 29);
  const ads: QualityAd[] = [];
  world.accounts.forEach((account: SimAccount, a) => {
    for (let c = 0; c < shape.campaignsPerAccount; c += 1) {
      // Launches spread evenly over the launch days, each account shifted by a few hours.
      const share = (c + (a % 7) / 7) / shape.campaignsPerAccount;
      const launch = start + Math.round((FIRST_LAUNCH_DAY + share * (LAST_LAUNCH_DAY - FIRST_LAUNCH_DAY)) * 24) * HOUR;
      const first = DateTime.fromMillis(launch, { zone: account.timezone })
        .plus({ days: FIRST_DATE_AFTER_DAYS })
        .set({ hour: 18, minute: 30, second: 0, millisecond: 0 });
      const dates = [first];
      while (dates.at(-1)!.plus({ weeks: 1 }).toMillis() <= start + LAST_DATE_DAY * DAY)
        dates.push(dates.at(-1)!.plus({ weeks: 1 }));
      const campaign = world.addCampaign({
        accountId: account.accountId,
        name: `EDM - ${TOPICS[(a + c) % TOPICS.length]} - ${dates.map((d) => d.toFormat('MM/dd/yyyy')).join(' & ')} 6:30 PM - Agency ${a + 1}.${c + 1}`,
        startTime: launch,
        stopTime: dates.at(-1)!.toMillis(),
        dailyBudgetCents: 15_000,
      });
      const adset = world.addAdSet(campaign, `Agency ${a + 1}.${c + 1} - Instant form - Age 55+`);
      for (let i = 0; i < shape.adsPerCampaign; i += 1) {
        const cpl = Number(random.between(15, 45).toFixed(2));
        const spendPerHour = Number(random.between(1.5, 3.5).toFixed(2));
        const ad = world.addAd(adset, `Creative ${i + 1}`, {
          ...base,
          spendPerHour,
          websiteShare: 0,
          leads: { kind: 'per_spend', cpl },
        });
        ads.push({
          id: ad.id,
          accountId: account.accountId,
          campaignId: campaign.id,
          cpl,
          showUpRate: showUpRate(world, ad.id),
        });
      }
    }
  });
  return ads;
}
