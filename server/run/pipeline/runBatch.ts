/**
 * A run of rules for a slot, as its phases: claim the slot (claim.ts), load the rules and the
 * account's snapshot (load.ts) — a run of an unhealthy ad account is held first (healthHold.ts), a
 * rule on an attribution window Meta removed fails (attributionCheck.ts), a run whose hourly
 * breakdown came back empty is held (noRowsHold.ts) — and each object's on/off history
 * (judgingInputs.ts), evaluate (evaluate.ts), revive what the rule
 * turned off and may turn back on (revive.ts), decide — notify, hold or act — (decide.ts), act
 * (act.ts), alert an object that flaps (flapping.ts), keep when to look again under push
 * (../../push/recheck.ts), record the outcome (record.ts). The rules of one account due in one
 * slot run as a batch, a rule run by hand as a batch of one.
 *
 * Exactly once: the ledger refuses a finished slot; each turn-off is claimed (pending) before it
 * is sent, so a retry re-sends exactly the claimed ones (pausing is idempotent) and never adds a
 * second entry; an object is claimed at most once per snapshot, whichever rule gets there first.
 */
import { planBudgets } from './changeBudgets';
import { errorMessage } from '../../errorMessage';
import { createLedgerStore } from '../ledger';
import { failAll, live, type InBatch } from './batch';
import { alertFlapping } from './flapping';
import { holdUnhealthy } from './healthHold';
import { failRemovedWindows } from './attributionCheck';
import { holdOnMissingRows } from './noRowsHold';
import { loadJudgingInputs } from './judgingInputs';
import { reviveBatch } from './reviveRuns';
import { claimBatch, type TakenRun } from './claim';
import type { BatchOutcome, EngineContext, RunResult, SlotRun } from './context';
import { decide } from './decide';
import { evaluateBatch } from './evaluateRuns';
import { loadInputs, loadRules } from './load';
import { recordBatch } from './record';
import { keptAlive } from '../runHeartbeat';
import { keepRechecks } from '../../push/recheck';

/** Runs one rule for one slot (a batch of one): a failure is thrown, after the attempt is released. */
export async function runSlot(ctx: EngineContext, run: SlotRun): Promise<RunResult> {
  const [outcome] = await runBatch(ctx, [run]);
  if (outcome!.error !== undefined) throw outcome!.error;
  return outcome!.result!;
}

/**
 * Runs the rules of a batch — the due rules of one ad account at one slot, one queue job — as one
 * unit, with a fixed number of statements however many rules: one ledger claim, one load of the
 * rules and items, the account's snapshot, one exemptions and one left-over-claims query, one
 * stale-claims query per account, one insert of every turn-off claim, one status-change request
 * per account, one confirm and one finish. Each run keeps its own ledger row, claims, run record
 * and activity entries, so the exactly-once layers are those of a single run.
 *
 * A run that fails on its own (its held-run alert, its record) fails alone; a failure shared by
 * runs (the account's snapshot or status change) fails those runs. Failed runs are released in
 * the ledger for the retry, which finds the others finished and re-sends any claimed turn-off.
 * Only an error taking the ledger claim itself is thrown (then nothing was claimed).
 */
export async function runBatch(ctx: EngineContext, runs: SlotRun[]): Promise<BatchOutcome[]> {
  if (!runs.length) return [];
  const { answered, taken } = await claimBatch(ctx, runs);
  const answers = () => runs.map((run) => answered.get(run.ruleId)!);
  return keptAlive(
    ctx.heartbeat,
    taken.map((t) => t.runId),
    () => runTaken(ctx, runs[0]!, taken, answered).then(answers),
  );
}

/** The phases after the claim, for the runs this attempt took (their rows kept alive meanwhile). */
async function runTaken(
  ctx: EngineContext,
  first: SlotRun,
  taken: TakenRun[],
  answered: Map<number, BatchOutcome>,
): Promise<void> {
  let loaded: { work: InBatch[]; skipped: TakenRun[] };
  try {
    loaded = await loadRules(ctx.db, taken);
  } catch (error) {
    await releaseAll(ctx, first, taken, error);
    for (const t of taken) answered.set(t.run.ruleId, { run: t.run, error });
    return;
  }

  const { work } = loaded;
  try {
    await holdUnhealthy(ctx, work);
    failRemovedWindows(work);
    const judged = live(work);
    if (judged.length) {
      const exempt = await loadInputs(ctx, judged);
      holdOnMissingRows(judged);
      await loadJudgingInputs(ctx, judged);
      await evaluateBatch(ctx, judged, exempt);
      await planBudgets(ctx, judged);
      await reviveBatch(ctx, judged);
      await decide(ctx, judged);
      await alertFlapping(ctx, judged);
      if (ctx.push) await keepRechecks(ctx.db, judged, ctx.now(), (m) => ctx.log.warn(m));
    }
  } catch (error) {
    // A step every run shares failed: each run not yet decided ends its attempt with it.
    failAll(work, error);
  }
  failAll(work, new Error('the run was left undecided'));

  if (work.length || loaded.skipped.length) await recordBatch(ctx, { ...loaded, answered });
}

/** The rules could not be loaded: every taken run's attempt is released with that error. */
async function releaseAll(ctx: EngineContext, first: SlotRun, taken: TakenRun[], error: unknown) {
  await createLedgerStore(ctx.db)
    .finishRuns(
      first.slot,
      first.kind,
      taken.map((t) => ({ ruleId: t.run.ruleId, status: 'failed' as const, error: errorMessage(error) })),
    )
    .catch(() => undefined);
}
