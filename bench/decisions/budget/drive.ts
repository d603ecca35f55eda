/**
 * One run of the budget bench: the agency (agency.ts) in a fresh Graph simulator at a frozen clock,
 * one folder and its scaling rule pair (rules.ts) per ad account in a fresh database, and every hour
 * the engine's own pipeline for each folder's two rules as one batch (as the scheduler queues an
 * account's due rules), while the bench moves the simulator's clock — so late leads, settling days,
 * budget changes and Meta's refusals all happen as they would live. The naive run switches the
 * engine's guard rails off (one flag: `budgetSafety` in the engine context). What the engine did is
 * read back afterwards (tally.ts).
 */
import type { Simulator } from '../../../server/adplatform/simulator/index';
import type { EngineContext, SlotRun } from '../../../server/run/pipeline/context';
import { runBatch } from '../../../server/run/pipeline/runBatch';
import { DEFAULT_ROLLBACK_HOURS } from '../../../shared/ruleActions';
import type { BenchDatabase } from '../../databases';
import { engineOnClock } from '../../engineOnClock';
import { frozenSimulator } from '../benchAgency';
import { buildBudgetAgency, type BudgetAdSet } from './agency';
import { scalingPair, seedBudgetFolder, type BudgetVariant } from './rules';

export interface BudgetOptions {
  accounts: number;
  campaignsPerAccount: number;
  adsetsPerCampaign: number;
  adsPerAdset: number;
  days: number;
  /** The rules run every N simulated hours. */
  everyHours: number;
  /** Folders whose batch runs at once within a slot. */
  concurrency: number;
  seed: number;
  /** The target cost per lead, dollars. */
  target: number;
  /** The rules' change, percent. */
  percent: number;
  /** The safe run's lag allowance, hours. */
  lagHours: number;
}

export const HOUR_MS = 3_600_000;
/** The bench's first slot: a Monday, midnight UTC. */
export const BUDGET_START = Date.parse('2026-03-02T00:00:00Z');

export interface BudgetRun {
  variant: BudgetVariant;
  sim: Simulator;
  adsets: BudgetAdSet[];
  ruleIds: number[];
  start: number;
  end: number;
  slots: number;
  runsFailed: number;
  /** Runs held for approval (the folder's daily increase limit): nobody approves them here. */
  runsHeld: number;
  firstErrors: string[];
  /** The writes the simulator refused as Meta does (613: a fifth budget change of one object within an hour, 100 mutations a second). */
  limitErrors: () => number;
  seconds: number;
}

/**
 * The engine as the run wants it: the bench's clock, and its budget guard rails on (safe) or off
 * (naive: no ceilings, no roll-back; `budgetSafety` in server/run/pipeline/context.ts).
 */
function engineFor(variant: BudgetVariant, base: EngineContext): EngineContext {
  return { ...base, budgetSafety: variant };
}

export async function driveBudgetVariant(
  database: BenchDatabase,
  variant: BudgetVariant,
  options: BudgetOptions,
  log: (line: string) => void,
): Promise<BudgetRun> {
  const began = performance.now();
  const db = database.handle.db;
  const { sim, client } = await frozenSimulator(options.seed, BUDGET_START, options.accounts);
  const adsets = buildBudgetAgency(sim.world, BUDGET_START, options, options.seed);
  const pair = scalingPair(options.target, options.percent, variant === 'safe' ? DEFAULT_ROLLBACK_HOURS : null);
  const folderRules: number[][] = [];
  for (const account of sim.world.accounts)
    folderRules.push(await seedBudgetFolder(db, account, variant, pair, options.lagHours));

  let clock = new Date(BUDGET_START);
  const ctx = engineFor(
    variant,
    engineOnClock(db, client, () => clock, 100_000),
  );
  const slots = Math.floor((options.days * 24) / options.everyHours);
  const failures = { count: 0, held: 0, first: [] as string[] };
  for (let s = 0; s < slots; s += 1) {
    const slot = new Date(BUDGET_START + s * options.everyHours * HOUR_MS);
    clock = new Date(slot.getTime() + 30_000);
    sim.clock.set(clock.getTime());
    await runFolders(ctx, folderRules, slot, options.concurrency, failures);
    if (s % Math.max(1, Math.round(24 / options.everyHours)) === 0)
      log(`  budget ${variant}: day ${Math.floor((s * options.everyHours) / 24) + 1} of ${options.days}`);
  }
  return {
    variant,
    sim,
    adsets,
    ruleIds: folderRules.flat(),
    start: BUDGET_START,
    end: BUDGET_START + slots * options.everyHours * HOUR_MS,
    slots,
    runsFailed: failures.count,
    runsHeld: failures.held,
    firstErrors: failures.first,
    limitErrors: () => sim.world.limits.total,
    seconds: Math.round((performance.now() - began) / 100) / 10,
  };
}

/** Each folder's rules as one batch for the slot, `concurrency` folders at a time; failures counted, the first five kept. */
async function runFolders(
  ctx: EngineContext,
  folderRules: readonly number[][],
  slot: Date,
  concurrency: number,
  tally: { count: number; held: number; first: string[] },
): Promise<void> {
  const queue = [...folderRules];
  const fail = (error: unknown) => {
    tally.count += 1;
    if (tally.first.length < 5) tally.first.push(error instanceof Error ? error.message : String(error));
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let ids = queue.shift(); ids !== undefined; ids = queue.shift()) {
        const runs: SlotRun[] = ids.map((ruleId) => ({ ruleId, slot, kind: 'run' }));
        try {
          for (const outcome of await runBatch(ctx, runs)) {
            if (outcome.error !== undefined) fail(outcome.error);
            else if (outcome.result?.status === 'held') tally.held += 1;
          }
        } catch (error) {
          fail(error);
        }
      }
    }),
  );
}
