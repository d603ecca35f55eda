/**
 * An ad's delivery schedule: the stretches in which it, its ad set and its campaign all deliver,
 * cut where the governing budget changes (budgetLog.ts) and where its ad set's relearning penalty
 * starts or ends (learning.ts), each with its spend rate and lead factor (delivery.ts pieces).
 */
import { budgetRatios, governingBudget } from './budgetLog';
import { statusAt, type DeliveryPiece } from './pieces';
import type { SimAd, SimAdSet, SimCampaign, StatusEvent } from './world';

/** Cost per lead at budget ratio r is the profile's × r^0.35: doubling a budget makes leads ~1.27× dearer. */
export const BUDGET_CPL_EXPONENT = 0.35;
/** While an ad set relearns after a significant budget change its leads cost 15 % more. */
export const LEARNING_CPL_PENALTY = 1.15;

/** The intervals [a, b) between the campaign's start and stop in which every status log says ACTIVE. */
export function activeIntervals(logs: StatusEvent[][], start: number, stop = Infinity): [number, number][] {
  const cuts = [...new Set(logs.flatMap((log) => log.map((e) => e.at)).filter((at) => at > start && at < stop))];
  cuts.sort((a, b) => a - b);
  const bounds = [start, ...cuts, stop];
  const active: [number, number][] = [];
  for (let i = 0; i + 1 < bounds.length; i += 1) {
    const a = bounds[i]!;
    if (!logs.every((log) => statusAt(log, a) === 'ACTIVE')) continue;
    const last = active.at(-1);
    if (last && last[1] === a) last[1] = bounds[i + 1]!;
    else active.push([a, bounds[i + 1]!]);
  }
  return active;
}

/**
 * The ad's delivery pieces, given the intervals in which its ad set pays the relearning penalty.
 * A world without budget writes gives the active intervals at rate 1 and lead factor 1.
 */
export function buildPieces(
  ad: SimAd,
  adset: SimAdSet,
  campaign: SimCampaign,
  penalised: readonly [number, number][],
): DeliveryPiece[] {
  const active = activeIntervals(
    [ad.statusLog, adset.statusLog, campaign.statusLog],
    campaign.startTime,
    campaign.stopTime,
  );
  const ratios = budgetRatios(governingBudget(adset, campaign));
  const ratioAt = (at: number) => {
    let ratio = ratios[0]!.ratio;
    for (const event of ratios) if (event.at <= at) ratio = event.ratio;
    return ratio;
  };
  const penalisedAt = (at: number) => penalised.some(([a, b]) => a <= at && at < b);
  const cuts = [...ratios.slice(1).map((r) => r.at), ...penalised.flat()];
  const pieces: DeliveryPiece[] = [];
  for (const [from, to] of active) {
    const inside = [...new Set(cuts.filter((at) => at > from && at < to))].sort((a, b) => a - b);
    const bounds = [from, ...inside, to];
    for (let i = 0; i + 1 < bounds.length; i += 1) {
      const a = bounds[i]!;
      const rate = ratioAt(a);
      const penalty = penalisedAt(a) ? LEARNING_CPL_PENALTY : 1;
      const leadFactor = rate === 1 && penalty === 1 ? 1 : 1 / (rate ** BUDGET_CPL_EXPONENT * penalty);
      const last = pieces.at(-1);
      if (last && last.to === a && last.rate === rate && last.leadFactor === leadFactor) last.to = bounds[i + 1]!;
      else pieces.push({ from: a, to: bounds[i + 1]!, rate, leadFactor });
    }
  }
  return pieces;
}
