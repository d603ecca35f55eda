/**
 * Each campaign's and ad set's budget over time: the budget it was created with, then one entry per
 * budget write (daily or lifetime cents in force from that moment). Delivery reads it to pace an
 * ad's spend to the budget that governs it, learning reads it for significant changes.
 */
import type { BudgetEvent, SimAdSet, SimCampaign } from './world';

export type { BudgetEvent };

/** A change of at least this share of the budget in force (|new/old − 1|) sends the ad sets it governs back into learning. */
export const SIGNIFICANT_CHANGE = 0.2;

type Budgeted = SimCampaign | SimAdSet;

const currentBudget = (node: Budgeted, at: number): BudgetEvent => ({
  at,
  ...(node.dailyBudgetCents !== undefined ? { dailyCents: node.dailyBudgetCents } : {}),
  ...(node.lifetimeBudgetCents !== undefined ? { lifetimeCents: node.lifetimeBudgetCents } : {}),
});

/** The object's budget log; an object never written has one entry, its budget since creation. */
export function budgetLogOf(node: Budgeted): readonly BudgetEvent[] {
  return node.budgetLog ?? [currentBudget(node, node.createdTime)];
}

/** Keeps a budget write (already applied to the object's fields) in its log, from `now`. */
export function recordBudget(node: Budgeted, previous: BudgetEvent, now: number): void {
  const log = node.budgetLog ?? [previous];
  while (log.length > 1 && log.at(-1)!.at > now) log.pop();
  log.push(currentBudget(node, Math.max(now, log.at(-1)!.at)));
  node.budgetLog = log;
}

/** The object's budget as it stands now (for recordBudget's first entry, taken before a write changes it). */
export function budgetBefore(node: Budgeted): BudgetEvent {
  return currentBudget(node, node.createdTime);
}

/** The object whose budget paces an ad set's ads: its campaign's when the campaign has one, else its own. */
export function governingBudget(adset: SimAdSet, campaign: SimCampaign): Budgeted {
  return campaign.dailyBudgetCents !== undefined || campaign.lifetimeBudgetCents !== undefined ? campaign : adset;
}

const amountOf = (event: BudgetEvent) => event.dailyCents ?? event.lifetimeCents;

/**
 * Spend rate against the budget the object was created with, from each moment of its log: daily
 * budget now / daily budget at creation; 1 for a lifetime budget or none.
 */
export function budgetRatios(node: Budgeted): { at: number; ratio: number }[] {
  const log = budgetLogOf(node);
  const initial = log[0]!.dailyCents;
  return log.map((event) => ({
    at: event.at,
    ratio: initial && event.dailyCents !== undefined ? event.dailyCents / initial : 1,
  }));
}

/** The moments of the log's significant changes (|new/old − 1| ≥ 20 %, daily or lifetime alike). */
export function significantChanges(node: Budgeted): number[] {
  const log = budgetLogOf(node);
  const moments: number[] = [];
  for (let i = 1; i < log.length; i += 1) {
    const before = amountOf(log[i - 1]!);
    const after = amountOf(log[i]!);
    if (before && after !== undefined && Math.abs(after / before - 1) >= SIGNIFICANT_CHANGE - 1e-9)
      moments.push(log[i]!.at);
  }
  return moments;
}
