/**
 * What one run of the budget bench did, judged by the simulator's truth (docs/bench.md):
 *
 * - changes: the budget changes the engine made (done raise_budget, lower_budget and
 *   restore_budget entries: each one a write Meta counts);
 * - limit_errors: the budget writes the simulator refused as Meta does a fifth change of one object
 *   within an hour (error 613, subcode 1487632), as the simulator counted them;
 * - max_growth_24h: the largest growth of one object's daily budget within any 24 hours, as a
 *   ratio (0.5 = +50 %): over every object and every change, the budget it set over the lowest
 *   budget the object had in the 24 hours before (the one in force 24 hours before included);
 * - rolled_back: the raises later rolled back (done restore_budget entries);
 * - leads_at_target: the leads of the ad-set-days (24 hours from the bench's start, every late lead
 *   arrived) whose settled cost per lead was at or under the target;
 * - spend_over_target: over the ad sets whose settled cost per lead over the whole period was over
 *   the target, the spend added above what their starting budget would have bought (never less than
 *   nothing per ad set).
 *
 * The counting is pure (budgetCounts and its parts, unit-tested on hand-made histories); readRun
 * gathers its inputs from the database and the simulator.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { adTotals } from '../../../server/adplatform/simulator/delivery';
import type { SimAdSet } from '../../../server/adplatform/simulator/world';
import type { Database } from '../../../server/db/client';
import { ruleActivity } from '../../../server/db/schema/index';
import type { BudgetRun } from './drive';

export type BudgetAction = 'raise_budget' | 'lower_budget' | 'restore_budget';

/** A budget change the engine made: the object's daily budget before and after (cents), and when. */
export interface BudgetChangeEntry {
  action: BudgetAction;
  objectId: string;
  at: number;
  before: number;
  after: number;
}

/** One ad set's settled spend and leads per day of the period, and what its starting budget would have spent. */
export interface AdSetOutcome {
  id: string;
  days: { spend: number; leads: number }[];
  baselineSpend: number;
}

export interface BudgetCounts {
  changes: number;
  limit_errors: number;
  max_growth_24h: number;
  rolled_back: number;
  leads_at_target: number;
  spend_over_target: number;
}

const DAY_MS = 24 * 3_600_000;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Where the largest growth within 24 hours happened: the object, its lowest budget then, the budget it grew to and when. */
export interface GrowthWitness {
  objectId: string;
  lowest: number;
  reached: number;
  at: number;
  growth: number;
}

/** The largest growth of one object's daily budget within any 24 hours, and where it happened (null: none grew). */
export function largestGrowth24h(changes: readonly BudgetChangeEntry[]): GrowthWitness | null {
  const byObject = new Map<string, BudgetChangeEntry[]>();
  for (const change of changes) byObject.set(change.objectId, [...(byObject.get(change.objectId) ?? []), change]);
  let largest: GrowthWitness | null = null;
  for (const [objectId, list] of byObject) {
    const steps = [...list].sort((a, b) => a.at - b.at);
    for (let i = 0; i < steps.length; i += 1) {
      const windowStart = steps[i]!.at - DAY_MS;
      // The budget in force at the window's start: the last change at or before it, else the first one's "before".
      let lowest = steps[0]!.before;
      for (let j = 0; j <= i; j += 1) {
        const step = steps[j]!;
        if (step.at <= windowStart) lowest = step.after;
        else lowest = Math.min(lowest, step.before, step.after);
      }
      const growth = lowest > 0 ? steps[i]!.after / lowest - 1 : 0;
      if (growth > (largest?.growth ?? 0))
        largest = { objectId, lowest, reached: steps[i]!.after, at: steps[i]!.at, growth };
    }
  }
  return largest;
}

/** The largest growth of one object's daily budget within any 24 hours, as a ratio (0 when none grew). */
export function maxGrowth24h(changes: readonly BudgetChangeEntry[]): number {
  return Math.round((largestGrowth24h(changes)?.growth ?? 0) * 10_000) / 10_000;
}

/** Leads of the ad-set-days whose settled cost per lead was at or under the target. */
export function leadsAtTarget(adsets: readonly AdSetOutcome[], target: number): number {
  let leads = 0;
  for (const adset of adsets)
    for (const day of adset.days) if (day.leads > 0 && day.spend / day.leads <= target) leads += day.leads;
  return leads;
}

/** Spend added above the starting budget's on the ad sets whose settled CPL over the period was over the target. */
export function spendOverTarget(adsets: readonly AdSetOutcome[], target: number): number {
  let added = 0;
  for (const adset of adsets) {
    const spend = adset.days.reduce((sum, d) => sum + d.spend, 0);
    const leads = adset.days.reduce((sum, d) => sum + d.leads, 0);
    const overTarget = leads > 0 ? spend / leads > target : spend > 0;
    if (overTarget) added += Math.max(0, spend - adset.baselineSpend);
  }
  return round2(added);
}

export function budgetCounts(input: {
  changes: readonly BudgetChangeEntry[];
  adsets: readonly AdSetOutcome[];
  limitErrors: number;
  target: number;
}): BudgetCounts {
  return {
    changes: input.changes.length,
    limit_errors: input.limitErrors,
    max_growth_24h: maxGrowth24h(input.changes),
    rolled_back: input.changes.filter((c) => c.action === 'restore_budget').length,
    leads_at_target: leadsAtTarget(input.adsets, input.target),
    spend_over_target: spendOverTarget(input.adsets, input.target),
  };
}

/** The budget changes the engine made in this run's database. */
export async function readChanges(db: Database): Promise<BudgetChangeEntry[]> {
  const rows = await db
    .select({
      action: ruleActivity.action,
      objectId: ruleActivity.adId,
      at: ruleActivity.createdAt,
      before: ruleActivity.budgetBefore,
      after: ruleActivity.budgetAfter,
    })
    .from(ruleActivity)
    .where(
      and(
        inArray(ruleActivity.action, ['raise_budget', 'lower_budget', 'restore_budget']),
        eq(ruleActivity.state, 'done'),
      ),
    )
    .orderBy(ruleActivity.createdAt, ruleActivity.id);
  return rows
    .filter((r) => r.objectId !== null && r.before !== null && r.after !== null)
    .map((r) => ({
      action: r.action as BudgetAction,
      objectId: r.objectId!,
      at: r.at.getTime(),
      before: r.before!,
      after: r.after!,
    }));
}

/** Each ad set's settled days over the period, from the simulator's world as the run left it. */
export function readOutcomes(run: BudgetRun): AdSetOutcome[] {
  const world = run.sim.world;
  const days = Math.round((run.end - run.start) / DAY_MS);
  return run.adsets.map(({ id }) => {
    const adset = world.adsets.get(id)!;
    const campaign = world.campaigns.get(adset.campaignId)!;
    const ads = world.adsOf(campaign.id).filter((ad) => ad.adsetId === id);
    const spendOver = (from: number, to: number, startingBudget: boolean) => {
      let spend = 0;
      let leads = 0;
      for (const ad of ads) {
        const t = adTotals(ad, startingBudget ? startingAdSet(adset) : adset, campaign, from, to);
        spend += t.spend;
        leads += t.onsiteLeads + t.websiteLeads;
      }
      return { spend: round2(spend), leads };
    };
    return {
      id,
      days: Array.from({ length: days }, (_, d) =>
        spendOver(run.start + d * DAY_MS, Math.min(run.end, run.start + (d + 1) * DAY_MS), false),
      ),
      baselineSpend: spendOver(run.start, run.end, true).spend,
    };
  });
}

/**
 * The ad set as it was before any budget write: its budget log dropped (so it delivers at its
 * creation budget throughout, with no relearning) and its daily budget the one it started with.
 */
function startingAdSet(adset: SimAdSet): SimAdSet {
  const first = adset.budgetLog?.[0];
  return {
    ...adset,
    budgetLog: undefined,
    dailyBudgetCents: first ? first.dailyCents : adset.dailyBudgetCents,
    lifetimeBudgetCents: first ? first.lifetimeCents : adset.lifetimeBudgetCents,
  };
}

/** The counts of a run, with where its largest 24 h growth happened and that object's changes (for the log). */
export async function tallyBudgetRun(
  db: Database,
  run: BudgetRun,
  target: number,
): Promise<{ counts: BudgetCounts; largest: GrowthWitness | null; largestChanges: BudgetChangeEntry[] }> {
  const changes = await readChanges(db);
  const largest = largestGrowth24h(changes);
  return {
    counts: budgetCounts({ changes, adsets: readOutcomes(run), limitErrors: run.limitErrors(), target }),
    largest,
    largestChanges: changes.filter((c) => c.objectId === largest?.objectId),
  };
}
