/**
 * The blast-radius limit: a run that would turn off more than a share of an ad account's delivering
 * ads (ENGINE_MAX_SHARE, default 0.5) or more than a number of objects (ENGINE_MAX_ACTIONS, default
 * 25) acts on nothing and waits for a person (a held run). One bad threshold, or a platform-side
 * change that empties a metric everywhere, then costs an e-mail instead of a client's whole account.
 *
 * A campaign turn-off counts as every delivering ad under it.
 */
import type { AccountSnapshot, Evaluation, PlannedAction } from './evaluate';
import { isOn } from './deliveryStatus';
import { money } from './format';

export interface BlastLimits {
  maxShare: number;
  maxActions: number;
}

export const DEFAULT_LIMITS: BlastLimits = { maxShare: 0.5, maxActions: 25 };

export interface BlastRadius {
  exceeded: boolean;
  summary: string;
  numbers: {
    affected: number;
    delivering: number;
    actions: number;
    maxShare: number;
    maxActions: number;
    /** Daily budget (cents) the run adds with the folder's raises of the last 24 hours, and the limit. */
    addedDaily?: number;
    maxDailyIncrease?: number | null;
  };
}

/** A run's budget changes, for the limit: how many, what they add a day, and the folder's money limit (cents). */
export interface BudgetRadius {
  changes: number;
  added: number;
  addedLastDay: number;
  limit: number | null;
  currency: string;
}

export function blastRadius(
  evaluation: Pick<Evaluation, 'deliveringAds'>,
  planned: PlannedAction[],
  snapshot: Pick<AccountSnapshot, 'ads'>,
  limits: BlastLimits = DEFAULT_LIMITS,
  budget?: BudgetRadius,
): BlastRadius {
  const campaigns = new Set(planned.filter((a) => a.action === 'turn_off_campaign').map((a) => a.objectId));
  const affected = new Set(planned.filter((a) => a.action === 'turn_off_ad').map((a) => a.objectId));
  for (const ad of snapshot.ads) if (campaigns.has(ad.campaign_id) && isOn(ad)) affected.add(ad.id);
  const delivering = evaluation.deliveringAds;
  const share = delivering ? affected.size / delivering : 0;
  const actions = planned.length + (budget?.changes ?? 0);
  const tooMany = actions > limits.maxActions;
  const addedDaily = budget ? budget.added + budget.addedLastDay : 0;
  const tooMuchMoney = Boolean(budget && budget.limit !== null && budget.added > 0 && addedDaily > budget.limit);
  const tooLarge = planned.length > 0 && share > limits.maxShare;
  const numbers = {
    affected: affected.size,
    delivering,
    actions,
    ...limits,
    ...(budget ? { addedDaily, maxDailyIncrease: budget.limit } : {}),
  };
  const cash = (cents: number) => money(cents / 100, budget?.currency);
  const percent = (n: number) => `${Math.round(n * 100)}%`;
  const reasons = [
    ...(tooLarge
      ? [
          `would turn off ${affected.size} of ${delivering} delivering ads (${percent(share)}, limit ${percent(limits.maxShare)})`,
        ]
      : []),
    ...(tooMany
      ? [
          budget?.changes
            ? `${actions} changes (limit ${limits.maxActions})`
            : `${planned.length} turn-offs (limit ${limits.maxActions})`,
        ]
      : []),
    ...(tooMuchMoney
      ? [
          `would add ${cash(budget!.added)} a day to daily budgets (${cash(addedDaily)} with the last 24 hours' raises, limit ${cash(budget!.limit!)})`,
        ]
      : []),
  ];
  return { exceeded: tooLarge || tooMany || tooMuchMoney, summary: reasons.join('; '), numbers };
}
