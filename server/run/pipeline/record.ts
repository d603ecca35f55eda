/**
 * Record: one statement finishes every run of the batch in the ledger (its record: outcome,
 * counts, details), then each run is answered and logged. A run whose attempt failed is
 * released for the retry instead; the last attempt's failure leaves error entries
 * (recordRunFailure), so nothing fails silently. Each finished run is counted in the metrics.
 */
import { errorMessage } from '../../errorMessage';
import { engineActions, engineHeldRuns, engineRuns } from '../../observability/counters';
import { createActivityStore, type ActivityRow } from '../../activity/entries';
import { createLedgerStore, type RunFinish } from '../ledger';
import { loadEngineRule } from '../rulesSource';
import { stopIfFailing } from '../failingRule';
import { slotLabel } from '../../judgement/scheduleSlots';
import type { InBatch } from './batch';
import type { TakenRun } from './claim';
import type { BatchOutcome, EngineContext, RunResult, SlotRun } from './context';

const INACTIVE = 'the rule is no longer active';

/** Finishes the batch's runs in the ledger and answers each (into `answered`, by rule). */
export async function recordBatch(
  ctx: EngineContext,
  batch: { work: InBatch[]; skipped: TakenRun[]; answered: Map<number, BatchOutcome> },
): Promise<void> {
  const { work, skipped, answered } = batch;
  const { slot, kind } = (work[0] ?? skipped[0])!.run;
  const failedRun = (item: InBatch): RunFinish => ({ status: 'failed', error: errorMessage(item.error) });
  const finishes = [
    ...skipped.map((s) => ({
      ruleId: s.run.ruleId,
      status: 'done' as const,
      note: INACTIVE,
      record: { outcome: 'skipped' },
    })),
    ...work.map((item) => ({ ruleId: item.rule.id, ...(item.error !== undefined ? failedRun(item) : item.finish!) })),
  ];
  try {
    await createLedgerStore(ctx.db).finishRuns(slot, kind, finishes);
  } catch (error) {
    for (const item of work) if (item.error === undefined) item.error = error;
    for (const s of skipped) answered.set(s.run.ruleId, { run: s.run, error });
  }

  for (const { run, runId } of skipped)
    if (!answered.has(run.ruleId))
      answered.set(run.ruleId, {
        run,
        result: { status: 'rule_unavailable', turnedOff: [], failed: [], note: INACTIVE, runId },
      });
  for (const item of work) {
    if (item.error !== undefined) {
      answered.set(item.rule.id, { run: item.run, error: item.error });
      continue;
    }
    const result = item.result!;
    const log = result.status === 'held' ? ctx.log.warn : ctx.log.info;
    log.call(ctx.log, `${item.label}: ${result.note}`);
    answered.set(item.rule.id, { run: item.run, result });
  }
}

/** Counts one finished run and the actions it took; answers the result unchanged. */
export function countRun<T extends RunResult>(run: Pick<SlotRun, 'kind'>, result: T): T {
  engineRuns.inc({ kind: run.kind, outcome: result.status });
  if (result.status === 'held') engineHeldRuns.inc();
  for (const entry of result.turnedOff) engineActions.inc({ action: entry.action, result: 'done' });
  for (const entry of result.failed) engineActions.inc({ action: entry.action, result: 'failed' });
  return result;
}

/**
 * The last attempt failed: claimed turn-offs that never went out become error entries, and the
 * run itself leaves one error entry, so nothing fails silently.
 */
export async function recordRunFailure(ctx: EngineContext, run: SlotRun, error: unknown): Promise<ActivityRow> {
  const message = errorMessage(error);
  engineRuns.inc({ kind: run.kind, outcome: 'failed' });
  const rule = await loadEngineRule(ctx.db, run.ruleId);
  const activity = createActivityStore(ctx.db);
  for (const entry of await activity.pendingTurnOffs(run.ruleId, run.slot))
    await activity.markFailed(entry, message, ctx.now());
  ctx.log.error(`rule ${run.ruleId} ${run.kind} at ${run.slot.toISOString()} failed: ${message}`);
  const zone = rule?.timezone ?? 'UTC';
  // The entry first: whoever sees the run failed also finds why.
  const entry = await activity.recordEntry({
    ruleId: rule ? run.ruleId : null,
    folderId: rule?.folder.id ?? null,
    action: 'error',
    slot: run.slot,
    actorId: run.actorId ?? null,
    reason: {
      Error: message,
      Run: run.kind === 'manual' ? 'Run now' : `${slotLabel({ instant: run.slot }, zone)} run`,
      Account: rule?.account.accountName ?? '',
    },
  });
  await createLedgerStore(ctx.db).finishRun(run.ruleId, run.slot, run.kind, { status: 'failed', error: message });
  if (rule)
    await stopIfFailing(ctx, rule).catch((e: unknown) =>
      ctx.log.warn(`rule ${run.ruleId}: the failing-rule check failed: ${errorMessage(e)}`),
    );
  return entry;
}

/** An attempt failed and is released (runBatch did that) for pg-boss to retry: counted. */
export function countRetrying(run: SlotRun): void {
  engineRuns.inc({ kind: run.kind, outcome: 'retrying' });
}
