/**
 * Claim: one ledger statement takes the batch's (rule, slot) rows. A finished slot is answered
 * "already done" and a slot another worker holds "in progress"; only the taken runs go on, so the
 * ledger is what refuses a second run of a slot.
 */
import { createLedgerStore } from '../ledger';
import { groupBy, triggerOf } from './batch';
import { DEFAULT_RUN_LEASE_MS, type BatchOutcome, type EngineContext, type SlotRun } from './context';

export interface TakenRun {
  run: SlotRun;
  runId: number | null;
}

export interface Claimed {
  /** The runs answered at once (finished or busy elsewhere), by rule. */
  answered: Map<number, BatchOutcome>;
  taken: TakenRun[];
}

export async function claimBatch(ctx: EngineContext, runs: SlotRun[]): Promise<Claimed> {
  const { slot, kind } = runs[0]!;
  if (runs.some((r) => r.slot.getTime() !== slot.getTime() || r.kind !== kind))
    throw new Error('the runs of a batch share one slot and kind');
  const unique = [...groupBy(runs, (r) => r.ruleId).values()].map((group) => group[0]!);
  const claims = await createLedgerStore(ctx.db).claimRuns(
    slot,
    kind,
    unique.map((run) => ({ ruleId: run.ruleId, trigger: triggerOf(run) })),
    ctx.runLeaseMs ?? DEFAULT_RUN_LEASE_MS,
  );

  const answered = new Map<number, BatchOutcome>();
  const taken: TakenRun[] = [];
  unique.forEach((run, i) => {
    const { claim, id: runId } = claims[i]!;
    if (claim === 'finished')
      answered.set(run.ruleId, {
        run,
        result: { status: 'already_done', turnedOff: [], failed: [], note: 'already done', runId },
      });
    else if (claim === 'busy')
      answered.set(run.ruleId, {
        run,
        result: { status: 'in_progress', turnedOff: [], failed: [], note: 'another worker is running it', runId },
      });
    else taken.push({ run, runId });
  });
  return { answered, taken };
}
