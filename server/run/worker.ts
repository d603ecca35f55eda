/**
 * The worker: takes the queued run jobs (one ad account's due rules at one slot, scan.ts) and runs
 * each as one batch through the pipeline (pipeline/runBatch.ts), settling every job on its own, and
 * sends the digests of the queued alert jobs (server/alerts/digests.ts).
 */
import type { JobResult, JobWithMetadata, PgBoss } from 'pg-boss';
import { runAlert, type AlertContext } from '../alerts/digests';
import { errorMessage } from '../errorMessage';
import type { BatchOutcome, EngineContext, HeldAlerts, SlotRun } from './pipeline/context';
import { countRetrying, countRun, recordRunFailure } from './pipeline/record';
import { runBatch } from './pipeline/runBatch';
import { startJobPump } from './jobPump';
import { DEFAULT_HEARTBEAT_SECONDS, QUEUES, type QueueTuning } from './queue';
import type { AlertJobData, RunJobData } from './scan';

/** Ad accounts whose runs are under way at once in one process, unless told otherwise. */
export const DEFAULT_ACCOUNTS_AT_ONCE = 100;
/** Jobs still running this long after the worker was asked to stop are failed, so another worker retries them. */
const STOP_GRACE_MS = 20_000;

export interface WorkerOptions {
  /** Digest and held-run mailer and recipients (see alertDelivery). */
  alerts: HeldAlerts;
  queue?: QueueTuning;
  pollingIntervalSeconds?: number;
  /** Fetch loops of the alert queue in one process. */
  concurrency?: number;
  /**
   * Run jobs (one ad account's due rules each) worked on at once in this process (default
   * DEFAULT_ACCOUNTS_AT_ONCE). An account's run spends seconds waiting on Graph at its real pace,
   * so a slot of 1,000 accounts needs hundreds in flight; each account still gets one job at a time
   * (its calls stay within its own budget), docs/decisions.md "Rules and the rule engine".
   */
  accountsAtOnce?: number;
}

export interface Worker {
  /** Looks at the run queue now rather than at the next poll (this process just queued run jobs). */
  nudge(): void;
  /** Takes no more run jobs and settles those running (see STOP_GRACE_MS). */
  stop(): Promise<void>;
}

/** The runs a job asks for (a job queued by an earlier version names one rule). */
function slotRunsOf(data: RunJobData): SlotRun[] {
  const slot = new Date(data.slot);
  const due = data.runs ?? [{ ruleId: data.ruleId!, missed: data.missed, late: data.late }];
  return due.map((d) => ({
    ruleId: d.ruleId,
    slot,
    kind: 'run',
    missed: (d.missed ?? []).map((s) => new Date(s)),
    late: d.late ?? false,
    ...((d.trigger ?? data.trigger) ? { trigger: d.trigger ?? data.trigger } : {}),
  }));
}

/** Runs one job's batch; the job fails (and is retried) while a run failed or another attempt holds one. */
async function runJob(context: EngineContext, job: JobWithMetadata<RunJobData>): Promise<JobResult> {
  const runs = slotRunsOf(job.data);
  let outcomes: BatchOutcome[];
  try {
    outcomes = await runBatch(context, runs);
  } catch (error) {
    outcomes = runs.map((run) => ({ run, error })); // the ledger claim failed: nothing was taken
  }
  const retries = job.retryCount < job.retryLimit;
  const failed = outcomes.filter((o) => o.error !== undefined);
  // A run another attempt holds is looked at again by the job's retry: if that attempt's process
  // died, the retry takes the run over once its heartbeat has stopped long enough.
  const heldElsewhere = outcomes.filter((o) => o.result?.status === 'in_progress');
  for (const outcome of outcomes) if (outcome.result) countRun(outcome.run, outcome.result);
  // Failed runs were released; the retry finds the others finished. After the last, each leaves its error.
  for (const { run, error } of failed) {
    if (retries) {
      countRetrying(run);
      continue;
    }
    try {
      await recordRunFailure(context, run, error);
    } catch (recording) {
      context.log.error(`rule ${run.ruleId}: could not record the failure: ${errorMessage(recording)}`);
    }
  }
  const lookAgain = retries ? heldElsewhere : [];
  if (!failed.length && !lookAgain.length) return { id: job.id, status: 'completed' };
  const message = [
    ...failed.map((o) => `rule ${o.run.ruleId}: ${errorMessage(o.error)}`),
    ...lookAgain.map((o) => `rule ${o.run.ruleId}: another attempt is running it`),
  ].join('; ');
  return { id: job.id, status: 'failed', output: { message } };
}

/** Starts taking run jobs (accountsAtOnce at a time) and alert jobs from `boss`'s queues. */
export async function startWorker(boss: PgBoss, context: EngineContext, options: WorkerOptions): Promise<Worker> {
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  // Each job settles on its own: a job with a failed run is retried, and its retry finds the runs
  // that succeeded finished in the ledger.
  const runs = startJobPump<RunJobData>({
    boss,
    queue: QUEUES.run,
    atOnce: options.accountsAtOnce ?? DEFAULT_ACCOUNTS_AT_ONCE,
    pollingIntervalMs: pollingIntervalSeconds * 1000,
    heartbeatMs: ((options.queue?.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS) * 1000) / 2,
    run: (job) => runJob(context, job),
    onError: (error) => context.log.error(`queue: ${errorMessage(error)}`),
  });

  const alertContext: AlertContext = { db: context.db, log: context.log, ...options.alerts };
  const localConcurrency = options.concurrency ?? 2;
  const alertOptions = { batchSize: 1, includeMetadata: true, pollingIntervalSeconds, localConcurrency } as const;
  await boss.work<AlertJobData, unknown, typeof alertOptions>(QUEUES.alert, alertOptions, async ([job]) => {
    await runAlert(alertContext, job!.data.ruleId, new Date(job!.data.slot));
  });

  return {
    nudge: () => runs.nudge(),
    stop: () => runs.stop(STOP_GRACE_MS),
  };
}
