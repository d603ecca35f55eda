/**
 * Meta's learning phase, per ad set: an ad set learns from its creation and again from each
 * significant change (≥ 20 %) of the budget that governs it (its campaign's under a campaign budget,
 * so every ad set of that campaign relearns), until its ads have had 50 leads since then (SUCCESS)
 * or 7 days have passed (FAIL with fewer).
 *
 * While it relearns after a significant change written through the API, its leads cost 15 % more
 * (schedule.ts). The learning from creation carries no penalty: the seeded world's numbers stay what
 * they always were, and only the budget writes a test or bench makes move them.
 */
import { governingBudget, significantChanges } from './budgetLog';
import { totalsBy, type DeliveryPiece } from './pieces';
import { DAY } from './naming';
import { buildPieces } from './schedule';
import { worldOf, type SimAd, type SimAdSet, type SimCampaign, type World } from './world';

export const LEARNING_EVENTS = 50;
export const LEARNING_WINDOW_MS = 7 * DAY;

export interface LearningStage {
  status: 'LEARNING' | 'SUCCESS' | 'FAIL';
  /** Leads of the ad set since its learning began (up to now, or the 7 days' end). */
  conversions: number;
  /** When its learning began; `significantEdit` when a budget change began it (else its creation). */
  since: number;
  significantEdit: boolean;
}

interface PhaseStart {
  at: number;
  /** Begun by a significant budget change (relearning, with its penalty), not by creation. */
  penalised: boolean;
}

function phaseStarts(adset: SimAdSet, campaign: SimCampaign): PhaseStart[] {
  const changes = significantChanges(governingBudget(adset, campaign)).filter((at) => at > adset.createdTime);
  return [{ at: adset.createdTime, penalised: false }, ...changes.map((at) => ({ at, penalised: true }))];
}

const adsOf = (world: World, adset: SimAdSet) =>
  [...world.ads.values()].filter((ad) => ad.adsetId === adset.id && !ad.deleted);

/** The ad set's leads by a moment, its ads delivering in the given pieces. */
function leadCounter(ads: { ad: SimAd; pieces: DeliveryPiece[] }[]): (at: number) => number {
  return (at) =>
    ads.reduce((sum, { ad, pieces }) => {
      const t = totalsBy(ad.profile, pieces, at);
      return sum + t.onsiteLeads + t.websiteLeads;
    }, 0);
}

/** The first moment in [start, limit] by which the ad set has 50 leads since `start`; `limit` when never. */
function learningEnd(leadsBy: (at: number) => number, start: number, limit: number): number {
  const base = leadsBy(start);
  if (leadsBy(limit) - base < LEARNING_EVENTS) return limit;
  let lo = start;
  let hi = limit;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (leadsBy(mid) - base >= LEARNING_EVENTS) hi = mid;
    else lo = mid;
  }
  return hi;
}

const cache = new WeakMap<SimAdSet, { key: string; intervals: [number, number][] }>();

/**
 * The intervals in which the ad set relearns after a significant budget write (and pays the
 * penalty). Each ends at its 50th lead, after 7 days, or at the next significant change.
 */
export function penalisedIntervals(world: World, adset: SimAdSet, campaign: SimCampaign): [number, number][] {
  const starts = phaseStarts(adset, campaign);
  if (!starts.some((phase) => phase.penalised)) return [];
  const ads = adsOf(world, adset);
  const governing = governingBudget(adset, campaign);
  const key = JSON.stringify([
    governing.budgetLog,
    adset.statusLog,
    campaign.statusLog,
    campaign.startTime,
    campaign.stopTime,
    ads.map((ad) => [ad.id, ad.statusLog]),
  ]);
  const known = cache.get(adset);
  if (known?.key === key) return known.intervals;
  const intervals: [number, number][] = [];
  starts.forEach((phase, i) => {
    if (!phase.penalised) return;
    const limit = Math.min(phase.at + LEARNING_WINDOW_MS, starts[i + 1]?.at ?? Infinity);
    // Leads before `limit` depend only on the pieces before it: assume the penalty runs to the limit.
    const assumed: [number, number][] = [...intervals, [phase.at, limit]];
    const leadsBy = leadCounter(ads.map((ad) => ({ ad, pieces: buildPieces(ad, adset, campaign, assumed) })));
    intervals.push([phase.at, learningEnd(leadsBy, phase.at, limit)]);
  });
  cache.set(adset, { key, intervals });
  return intervals;
}

/** An ad's delivery pieces with its ad set's relearning penalty (none for an ad set outside any world). */
export function adPieces(ad: SimAd, adset: SimAdSet, campaign: SimCampaign): DeliveryPiece[] {
  const world = worldOf(adset);
  return buildPieces(ad, adset, campaign, world ? penalisedIntervals(world, adset, campaign) : []);
}

/** Where the ad set stands in learning at `now` (Graph's learning_stage_info). */
export function learningStageAt(world: World, adset: SimAdSet, now: number): LearningStage {
  const campaign = world.campaigns.get(adset.campaignId)!;
  const starts = phaseStarts(adset, campaign);
  const phase = starts.filter((p) => p.at <= now).at(-1) ?? starts[0]!;
  const penalised = penalisedIntervals(world, adset, campaign);
  const leadsBy = leadCounter(
    adsOf(world, adset).map((ad) => ({ ad, pieces: buildPieces(ad, adset, campaign, penalised) })),
  );
  const windowEnd = phase.at + LEARNING_WINDOW_MS;
  const conversions = Math.max(0, leadsBy(Math.min(now, windowEnd)) - leadsBy(phase.at));
  const status = conversions >= LEARNING_EVENTS ? 'SUCCESS' : now >= windowEnd ? 'FAIL' : 'LEARNING';
  return { status, conversions, since: phase.at, significantEdit: phase.penalised };
}

/** Graph's AdCampaignLearningStageInfo for the ad set at `now`. */
export function learningStageInfo(world: World, adset: SimAdSet, now: number): Record<string, unknown> {
  const stage = learningStageAt(world, adset, now);
  return {
    status: stage.status,
    conversions: stage.conversions,
    ...(stage.significantEdit ? { last_sig_edit_ts: Math.floor(stage.since / 1000) } : {}),
  };
}
