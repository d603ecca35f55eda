/**
 * Who registered for a simulated event date and who came. Registrants are the people behind the
 * leads of the ads advertising the date (adplatform/simulator/leads.ts: the same e-mails, written as
 * Demio keeps them, trimmed and lower-case): a form lead registers when it happens, and a website
 * (pixel) lead is the registration itself, carrying UTM fields that name its ad. A lead registers for
 * the first of its campaign's dates not started when it happens (DemioWorld.dateFor). A few people register
 * on their own (no lead, no UTM). Each ad has a show-up rate between 5 % and 70 %, drawn by hash and
 * unrelated to its cost per lead: cheap leads that seldom come, dear ones that do.
 */
import { unitHash } from '../../adplatform/simulator/lag';
import { personOfLead } from '../../adplatform/simulator/leads';
import { simPerson, type SimPerson } from '../../adplatform/simulator/people';
import { leadMoments } from '../../adplatform/simulator/reporting';
import type { World } from '../../adplatform/simulator/world';
import { EVENT_MINUTES, type DemioEventDate, type DemioWorld } from './world';

export type ParticipationStatus = 'completed' | 'left early' | 'did not attend' | 'banned';

export interface SimRegistrant {
  person: SimPerson;
  /** The ad whose lead this is; undefined for someone who registered on their own. */
  adId?: string;
  website: boolean;
  attended: boolean;
  status: ParticipationStatus;
}

const LOWEST_SHOW_UP = 0.05;
const HIGHEST_SHOW_UP = 0.7;
const ORGANIC_SHOW_UP = 0.4;
/** Share of those who came that stayed to the end. */
const COMPLETED_SHARE = 0.75;

export function showUpRate(world: World, adId: string): number {
  return LOWEST_SHOW_UP + (HIGHEST_SHOW_UP - LOWEST_SHOW_UP) * unitHash(`${seedOf(world)}:show-up:${adId}`);
}

const seedOf = (world: World) => world.options.seed ?? 1;

function attendance(world: World, key: string, rate: number): Pick<SimRegistrant, 'attended' | 'status'> {
  const attended = unitHash(`${seedOf(world)}:attends:${key}`) < rate;
  if (!attended) return { attended, status: 'did not attend' };
  const stayed = unitHash(`${seedOf(world)}:stays:${key}`) < COMPLETED_SHARE;
  return { attended, status: stayed ? 'completed' : 'left early' };
}

/** Whether the person behind the ad's k-th lead attends the date they registered for. */
export function leadAttends(world: World, adId: string, k: number): boolean {
  return attendance(world, `${adId}:${k}`, showUpRate(world, adId)).attended;
}

/** Everyone registered for the date by `now` (the lead's moment), with whether they came. */
export function registrantsOf(demio: DemioWorld, date: DemioEventDate, now: number): SimRegistrant[] {
  const world = demio.graph;
  const until = Math.min(now, date.startsAt + EVENT_MINUTES * 60_000);
  const registrants: SimRegistrant[] = [];
  for (const campaignId of date.campaignIds) {
    for (const ad of world.adsOf(campaignId)) {
      const rate = showUpRate(world, ad.id);
      for (const lead of leadMoments(world, ad, until)) {
        if (lead.happenedAt > until || demio.dateFor(campaignId, lead.happenedAt) !== date) continue;
        registrants.push({
          person: personOfLead(world, ad, lead.k),
          adId: ad.id,
          website: lead.website,
          ...attendance(world, `${ad.id}:${lead.k}`, rate),
        });
      }
    }
  }
  // About one on their own for every ten from the ads, registered as the first ad registrations come in.
  const organic = Math.floor(registrants.length / 10);
  for (let i = 1; i <= organic; i += 1) {
    const key = `organic:${date.dateId}:${i}`;
    registrants.push({
      person: simPerson(seedOf(world), key, `${date.dateId}-${i}`),
      website: true,
      ...attendance(world, key, ORGANIC_SHOW_UP),
    });
  }
  return registrants;
}
