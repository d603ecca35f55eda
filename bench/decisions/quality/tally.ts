/**
 * What one run of the quality bench did, judged by the simulators' truth (every lead's show-up is
 * known to them, whether or not its date has happened):
 *
 * - spend: what the agency's ads spent over the benched period, as they ran;
 * - attendees: the registrants of the dates that happened in the period who attended, over the ads;
 * - cost_per_attendee: spend ÷ attendees (every date a campaign advertises is within the period, so
 *   all the spend bought registrants whose show-up is settled);
 * - attendees_lost: the attendees the paused ads would have brought had nobody paused them, less those
 *   they brought;
 * - false pauses: pauses of an ad whose settled cost per attendee — its spend and its leads' show-ups
 *   over the whole period had nobody paused it — was within the show-up-aware threshold: an ad
 *   buying seats at a price the agency accepts, stopped.
 */
import { and, eq } from 'drizzle-orm';
import { adTotals } from '../../../server/adplatform/simulator/delivery';
import { leadMoments } from '../../../server/adplatform/simulator/reporting';
import type { SimAd } from '../../../server/adplatform/simulator/world';
import type { Database } from '../../../server/db/client';
import { ruleActivity } from '../../../server/db/schema/index';
import { leadAttends } from '../../../server/webinar/simulator/participants';
import { HOUR_MS, QUALITY_START, type QualityRun } from './drive';

export interface QualityCounts {
  spend: number;
  registrations: number;
  attendees: number;
  cost_per_attendee: number | null;
  attendees_lost: number;
  pauses: number;
  false_pauses: number;
  false_pause_rate: number;
  /** Ads whose settled cost per attendee, unpaused, is within the threshold (pausing one is false). */
  ads_within_threshold: number;
  ads: number;
  runs: number;
  runs_failed: number;
  sync_failures: number;
  seconds: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

interface Seats {
  spend: number;
  registrations: number;
  attendees: number;
}

/** The ad's spend, settled registrations and attendees over the period, with its status log as given. */
function seatsOf(run: QualityRun, ad: SimAd): Seats {
  const world = run.sim.world;
  const adset = world.adsets.get(ad.adsetId)!;
  const campaign = world.campaigns.get(ad.campaignId)!;
  const spend = adTotals(ad, adset, campaign, QUALITY_START, run.end).spend;
  let registrations = 0;
  let attendees = 0;
  for (const lead of leadMoments(world, ad, run.end)) {
    if (lead.happenedAt < QUALITY_START) continue;
    const date = run.demio.world.dateFor(ad.campaignId, lead.happenedAt);
    if (!date || date.startsAt > run.end) continue;
    registrations += 1;
    if (leadAttends(world, ad.id, lead.k)) attendees += 1;
  }
  return { spend, registrations, attendees };
}

/** What the ad's leads cost a seat over the period had nobody paused it (the truth a pause is judged by). */
function unpausedCostPerAttendee(run: QualityRun, ad: SimAd): number {
  const unpaused = seatsOf(run, { ...ad, statusLog: [ad.statusLog[0]!] });
  return unpaused.attendees > 0 ? unpaused.spend / unpaused.attendees : Number.POSITIVE_INFINITY;
}

/**
 * A rule that knew every ad's settled cost per attendee from the start: it turns off each ad over
 * the threshold at its first run once the ad is a day old (the judging defaults' maturity). The
 * bound any rule on what leads became can reach on this agency, for reading the two rule sets.
 */
export function tallyOracle(run: QualityRun, threshold: number, everyHours: number): OracleCounts {
  const world = run.sim.world;
  let spend = 0;
  let attendees = 0;
  let lost = 0;
  let pauses = 0;
  for (const { id } of run.ads) {
    const original = world.ads.get(id)!;
    const ad = { ...original, statusLog: [original.statusLog[0]!] };
    const unpaused = seatsOf(run, ad);
    let ran = unpaused;
    if (unpausedCostPerAttendee(run, ad) > threshold) {
      const campaign = world.campaigns.get(ad.campaignId)!;
      const mature = Math.max(QUALITY_START, campaign.startTime + 24 * HOUR_MS);
      const slot = QUALITY_START + Math.ceil((mature - QUALITY_START) / (everyHours * HOUR_MS)) * everyHours * HOUR_MS;
      if (slot < run.end) {
        pauses += 1;
        ran = seatsOf(run, { ...ad, statusLog: [...ad.statusLog, { at: slot, status: 'PAUSED' }] });
      }
    }
    spend += ran.spend;
    attendees += ran.attendees;
    lost += unpaused.attendees - ran.attendees;
  }
  return {
    spend: round2(spend),
    attendees,
    cost_per_attendee: attendees ? round2(spend / attendees) : null,
    attendees_lost: lost,
    pauses,
  };
}

export interface OracleCounts {
  spend: number;
  attendees: number;
  cost_per_attendee: number | null;
  attendees_lost: number;
  pauses: number;
}

export async function tallyQuality(db: Database, run: QualityRun, threshold: number): Promise<QualityCounts> {
  const world = run.sim.world;
  let spend = 0;
  let registrations = 0;
  let attendees = 0;
  let lost = 0;
  const withinThreshold = new Set<string>();
  for (const { id } of run.ads) {
    const ad = world.ads.get(id)!;
    const actual = seatsOf(run, ad);
    const unpaused = seatsOf(run, { ...ad, statusLog: [ad.statusLog[0]!] });

    spend += actual.spend;
    registrations += actual.registrations;
    attendees += actual.attendees;
    lost += unpaused.attendees - actual.attendees;
    if (unpausedCostPerAttendee(run, ad) <= threshold) withinThreshold.add(id);
  }
  const pauses = await db
    .select({ adId: ruleActivity.adId })
    .from(ruleActivity)
    .where(and(eq(ruleActivity.action, 'turn_off_ad'), eq(ruleActivity.state, 'done')));
  const falsePauses = pauses.filter((p) => withinThreshold.has(p.adId ?? '')).length;
  return {
    spend: round2(spend),
    registrations,
    attendees,
    cost_per_attendee: attendees ? round2(spend / attendees) : null,
    attendees_lost: lost,
    pauses: pauses.length,
    false_pauses: falsePauses,
    false_pause_rate: pauses.length ? Math.round((falsePauses / pauses.length) * 10_000) / 10_000 : 0,
    ads_within_threshold: withinThreshold.size,
    ads: run.ads.length,
    runs: run.slots * run.ruleIds.length,
    runs_failed: run.runsFailed,
    sync_failures: run.syncFailures,
    seconds: run.seconds,
  };
}
