/**
 * The blast-radius limit: a run that would turn off more than a share of an ad account's delivering
 * ads (ENGINE_MAX_SHARE, default 0.5) or more than a number of objects (ENGINE_MAX_ACTIONS, default
 * 25) acts on nothing and waits for a person (a held run). One bad threshold, or a platform-side
 * change that empties a metric everywhere, then costs an e-mail instead of a client's whole account.
 *
 * A campaign turn-off counts as every delivering ad under it.
 */
import type { AccountSnapshot, Evaluation, PlannedAction } from './evaluate';
import { isOn } from './status';

export interface BlastLimits {
  maxShare: number;
  maxActions: number;
}

export const DEFAULT_LIMITS: BlastLimits = { maxShare: 0.5, maxActions: 25 };

export interface BlastRadius {
  exceeded: boolean;
  summary: string;
  numbers: { affected: number; delivering: number; actions: number; maxShare: number; maxActions: number };
}

export function blastRadius(
  evaluation: Pick<Evaluation, 'deliveringAds'>,
  planned: PlannedAction[],
  snapshot: Pick<AccountSnapshot, 'ads'>,
  limits: BlastLimits = DEFAULT_LIMITS,
): BlastRadius {
  const campaigns = new Set(planned.filter((a) => a.action === 'turn_off_campaign').map((a) => a.objectId));
  const affected = new Set(planned.filter((a) => a.action === 'turn_off_ad').map((a) => a.objectId));
  for (const ad of snapshot.ads) if (campaigns.has(ad.campaign_id) && isOn(ad)) affected.add(ad.id);
  const delivering = evaluation.deliveringAds;
  const share = delivering ? affected.size / delivering : 0;
  const tooMany = planned.length > limits.maxActions;
  const tooLarge = planned.length > 0 && share > limits.maxShare;
  const numbers = { affected: affected.size, delivering, actions: planned.length, ...limits };
  const percent = (n: number) => `${Math.round(n * 100)}%`;
  const reasons = [
    ...(tooLarge
      ? [
          `would turn off ${affected.size} of ${delivering} delivering ads (${percent(share)}, limit ${percent(limits.maxShare)})`,
        ]
      : []),
    ...(tooMany ? [`${planned.length} turn-offs (limit ${limits.maxActions})`] : []),
  ];
  return { exceeded: tooLarge || tooMany, summary: reasons.join('; '), numbers };
}
