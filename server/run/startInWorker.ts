/**
 * The rule engine of a worker process: pg-boss queues for runs and alerts, the workers that take
 * jobs from them, and the scan that enqueues due slots. Any number of these may run against one
 * PostgreSQL database; each (rule, slot) is still acted on once (ledger + claims, see pipeline/runBatch.ts).
 */
import type { JobInsert, JobResult, JobWithMetadata, PgBoss } from 'pg-boss';
import type { AdPlatformClient } from '../adplatform/types';
import type { DbHandle } from '../db/client';
import type { HeldAlerts } from './pipeline/context';
import { runAlert, type AlertContext } from '../alerts/digests';
import type { BatchOutcome, EngineContext, EngineLog, SlotRun } from './pipeline/context';
import type { QualitySource } from '../outcomes/quality';
import { countRetrying, countRun, recordRunFailure } from './pipeline/record';
import { runBatch } from './pipeline/runBatch';
import {
  createBoss,
  createQueues,
  DEFAULT_HEARTBEAT_SECONDS,
  QUEUES,
  runJobSubject,
  slotJobId,
  slotKey,
  type QueueTuning,
} from './queue';
import { createRunHeartbeat, type RunHeartbeat } from './runHeartbeat';
import { dueWork, type DueRun } from './dueRuns';
import { SnapshotStore } from './accountSnapshots';
import { startJobPump } from './jobPump';
import type { BlastLimits } from '../judgement/blastRadius';
import { pruneRuns } from './ledger';
import { pruneHistory } from '../history/store';
import { DEFAULT_HISTORY_DAYS } from '../history/reading';
import { outcomeRetentionStart, pruneOutcomes } from '../outcomes/retention';
import { errorMessage } from '../errorMessage';
import { startPushWork, type PushOptions, type PushTrigger, type PushWork } from '../push/engine';

export interface RuleEngineOptions {
  dbh: DbHandle;
  client: AdPlatformClient;
  /** Digest and held-run mailer and recipients (see alertDelivery). */
  alerts: HeldAlerts;
  /** Blast-radius limits; defaults 0.5 of delivering ads, 25 objects. */
  limits?: BlastLimits;
  /** Run records older than this many days are pruned at each scan (default 30). */
  runHistoryDays?: number;
  /** Metric history older than this many days is pruned at each scan (default 35). */
  historyDays?: number;
  log?: EngineLog;
  now?: () => Date;
  /** Start the periodic scan (off in tests that drive `scan` by hand). */
  autoScan?: boolean;
  /** How often the clock is looked at; a scan runs when a new quarter hour began. */
  scanCheckMs?: number;
  queue?: QueueTuning;
  pollingIntervalSeconds?: number;
  /** Fetch loops of the alert queue in one process. */
  concurrency?: number;
  /**
   * Run jobs (one ad account's due rules each) worked on at once in this process (default
   * DEFAULT_ACCOUNTS_AT_ONCE). An account's run spends seconds waiting on Graph at its real pace,
   * so a slot of 1,000 accounts needs hundreds in flight; each account still gets one job at a time
   * (its calls stay within its own budget), docs/bench.md "The rule engine at Graph's pace".
   */
  accountsAtOnce?: number;
  /** Alert jobs wait this long, so the digest includes the runs of the same hour. */
  alertDelaySeconds?: number;
  /** The process's run heartbeat (shared with its Run now service); one is made when absent. */
  heartbeat?: RunHeartbeat;
  /** What the ads' leads became, for the outcome tasks (absent: they answer "no outcome data"). */
  quality?: QualitySource;
  /** Meta pushes changes (META_APP_SECRET and META_WEBHOOK_VERIFY_TOKEN set): server/push/. */
  push?: PushOptions;
}

export interface RuleEngine {
  boss: PgBoss;
  context: EngineContext;
  /** Present when Meta pushes changes: subscriptions, rechecks, the push queue's worker. */
  push?: PushWork;
  /** Enqueues every due slot not yet taken up; answers what it found due. */
  scan(now?: Date): Promise<DueRun[]>;
  stop(): Promise<void>;
}

interface DueRunData {
  ruleId: number;
  missed?: string[];
  late?: boolean;
  trigger?: PushTrigger;
}

/** A run job: the due rules of one ad account at one slot (a job queued by an earlier version: one rule). */
interface RunJobData extends Partial<DueRunData> {
  slot: string;
  account?: string;
  runs?: DueRunData[];
  /** Queued by a push or a recheck rather than the schedule. */
  trigger?: PushTrigger;
}

interface AlertJobData {
  ruleId: number;
  slot: string;
}

export const consoleLog: EngineLog = {
  info: (m) => console.log(`[engine] ${m}`),
  warn: (m) => console.warn(`[engine] ${m}`),
  error: (m) => console.error(`[engine] ${m}`),
};

/** Ad accounts whose runs are under way at once in one process, unless told otherwise. */
export const DEFAULT_ACCOUNTS_AT_ONCE = 100;

/** Jobs per insert statement when a scan enqueues a slot. */
const ENQUEUE_CHUNK = 500;
/** An account with more rules due at once than this gets several jobs (they share its snapshot). */
const RULES_PER_JOB = 50;

/** Every slot instant is on a quarter hour of UTC (all zone offsets are multiples of 15 minutes). */
const quarterOf = (date: Date) => Math.floor(date.getTime() / (15 * 60 * 1000));

export async function startRuleEngine(options: RuleEngineOptions): Promise<RuleEngine> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? consoleLog;
  const db = options.dbh.db;
  const context: EngineContext = {
    db,
    client: options.client,
    snapshots: new SnapshotStore(db, options.client, { now, warn: (m) => log.warn(m) }),
    log,
    now,
    heartbeat: options.heartbeat ?? createRunHeartbeat(db, { warn: (m) => log.warn(m) }),
    limits: options.limits,
    alerts: options.alerts,
    quality: options.quality,
    push: options.push !== undefined,
  };
  const alertContext: AlertContext = { db, log, ...options.alerts };

  const boss = createBoss(options.dbh, options.queue);
  boss.on('error', (error) => log.error(`queue: ${error.message}`));
  await boss.start();
  await createQueues(boss, options.queue);

  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  const localConcurrency = options.concurrency ?? 2;
  const alertOptions = { batchSize: 1, includeMetadata: true, pollingIntervalSeconds, localConcurrency } as const;

  async function runJob(job: JobWithMetadata<RunJobData>): Promise<JobResult> {
    const slot = new Date(job.data.slot);
    const due = job.data.runs ?? [{ ruleId: job.data.ruleId!, missed: job.data.missed, late: job.data.late }];
    const runs: SlotRun[] = due.map((d) => ({
      ruleId: d.ruleId,
      slot,
      kind: 'run',
      missed: (d.missed ?? []).map((s) => new Date(s)),
      late: d.late ?? false,
      ...((d.trigger ?? job.data.trigger) ? { trigger: d.trigger ?? job.data.trigger } : {}),
    }));
    let outcomes: BatchOutcome[];
    try {
      outcomes = await runBatch(context, runs);
    } catch (error) {
      outcomes = runs.map((run) => ({ run, error })); // the ledger claim failed: nothing was taken
    }
    const failed = outcomes.filter((o) => o.error !== undefined);
    // A run another attempt holds is looked at again by the job's retry: if that attempt's process
    // died, the retry takes the run over once its heartbeat has stopped long enough.
    const heldElsewhere = outcomes.filter((o) => o.result?.status === 'in_progress');
    for (const outcome of outcomes) if (outcome.result) countRun(outcome.run, outcome.result);
    // Failed runs were released; the retry finds the others finished. After the last, each leaves its error.
    for (const { run, error } of failed) {
      if (job.retryCount < job.retryLimit) {
        countRetrying(run);
        continue;
      }
      try {
        await recordRunFailure(context, run, error);
      } catch (recording) {
        log.error(`rule ${run.ruleId}: could not record the failure: ${errorMessage(recording)}`);
      }
    }
    const lookAgain = job.retryCount < job.retryLimit ? heldElsewhere : [];
    if (!failed.length && !lookAgain.length) return { id: job.id, status: 'completed' };
    const message = [
      ...failed.map((o) => `rule ${o.run.ruleId}: ${errorMessage(o.error)}`),
      ...lookAgain.map((o) => `rule ${o.run.ruleId}: another attempt is running it`),
    ].join('; ');
    return { id: job.id, status: 'failed', output: { message } };
  }

  // Each job settles on its own: a job with a failed run is retried, and its retry finds the runs
  // that succeeded finished in the ledger.
  const runs = startJobPump<RunJobData>({
    boss,
    queue: QUEUES.run,
    atOnce: options.accountsAtOnce ?? DEFAULT_ACCOUNTS_AT_ONCE,
    pollingIntervalMs: pollingIntervalSeconds * 1000,
    heartbeatMs: ((options.queue?.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS) * 1000) / 2,
    run: runJob,
    onError: (error) => log.error(`queue: ${errorMessage(error)}`),
  });

  await boss.work<AlertJobData, unknown, typeof alertOptions>(QUEUES.alert, alertOptions, async ([job]) => {
    await runAlert(alertContext, job!.data.ruleId, new Date(job!.data.slot));
  });

  /** One run job per (account, slot) for rules a push or a recheck woke; the job ids keep it once. */
  async function enqueueRuns(adAccountId: string, ruleIds: number[], slot: Date, trigger: PushTrigger) {
    const jobs: JobInsert<RunJobData>[] = [];
    for (let i = 0; i < ruleIds.length; i += RULES_PER_JOB) {
      const part = ruleIds.slice(i, i + RULES_PER_JOB);
      const subject = runJobSubject(adAccountId, part);
      jobs.push({
        id: slotJobId(QUEUES.run, subject, slot),
        singletonKey: slotKey(subject, slot),
        data: { account: adAccountId, slot: slot.toISOString(), runs: part.map((ruleId) => ({ ruleId })), trigger },
      });
    }
    await boss.insert(QUEUES.run, jobs);
    runs.nudge();
  }

  const push = options.push
    ? await startPushWork({ dbh: options.dbh, now, log, enqueueRuns, push: options.push })
    : undefined;

  async function scan(at: Date = now()): Promise<DueRun[]> {
    const found = await dueWork(db, at);
    const due = push ? await push.floor(found) : found;
    const runJobs: JobInsert<RunJobData>[] = [];
    const accountSlots = new Map<string, DueRun[]>();
    for (const item of due.filter((d) => d.queue === 'run')) {
      const key = slotKey(item.adAccountId, item.slot);
      const same = accountSlots.get(key);
      if (same) same.push(item);
      else accountSlots.set(key, [item]);
    }
    for (const items of accountSlots.values()) {
      for (let i = 0; i < items.length; i += RULES_PER_JOB) {
        const part = items.slice(i, i + RULES_PER_JOB);
        const { adAccountId, slot } = part[0]!;
        const subject = runJobSubject(
          adAccountId,
          part.map((d) => d.ruleId),
        );
        runJobs.push({
          id: slotJobId(QUEUES.run, subject, slot),
          singletonKey: slotKey(subject, slot),
          data: {
            account: adAccountId,
            slot: slot.toISOString(),
            runs: part.map((d) => ({
              ruleId: d.ruleId,
              ...(d.missed.length ? { missed: d.missed.map((s) => s.toISOString()) } : {}),
              ...(d.late ? { late: true } : {}),
              ...(d.trigger ? { trigger: d.trigger } : {}),
            })),
          },
        });
      }
    }
    const alertDelay = options.alertDelaySeconds ?? 120;
    const alertJobs: JobInsert<AlertJobData>[] = due
      .filter((d) => d.queue === 'alert')
      .map((item) => ({
        id: slotJobId(QUEUES.alert, item.ruleId, item.slot),
        singletonKey: slotKey(item.ruleId, item.slot),
        data: { ruleId: item.ruleId, slot: item.slot.toISOString() },
        ...(alertDelay ? { startAfter: alertDelay } : {}),
      }));
    // One multi-row insert per chunk rather than a round trip per job: a slot of thousands of rules
    // is enqueued in a second. Conflicts (same id, or the same singleton key queued or active under
    // the exclusive policy) are skipped, exactly as a refused send.
    for (const [queue, jobs] of [
      [QUEUES.run, runJobs],
      [QUEUES.alert, alertJobs],
    ] as const)
      for (let i = 0; i < jobs.length; i += ENQUEUE_CHUNK) await boss.insert(queue, jobs.slice(i, i + ENQUEUE_CHUNK));
    if (runJobs.length) runs.nudge();
    const day = 24 * 60 * 60 * 1000;
    await context.snapshots.prune(new Date(at.getTime() - 2 * day));
    await pruneRuns(db, new Date(at.getTime() - (options.runHistoryDays ?? 30) * day));
    await pruneHistory(db, new Date(at.getTime() - (options.historyDays ?? DEFAULT_HISTORY_DAYS) * day));
    await pruneOutcomes(db, outcomeRetentionStart(at));
    if (push) {
      await push.tidy(at);
      void push.reconcile();
    }
    return due;
  }

  let timer: NodeJS.Timeout | undefined;
  let lastQuarter = -1;
  let scanning: Promise<unknown> = Promise.resolve();
  if (options.autoScan !== false) {
    const check = () => {
      const at = now();
      if (quarterOf(at) === lastQuarter) return;
      lastQuarter = quarterOf(at);
      scanning = scan(at).catch((error: Error) => {
        lastQuarter = -1; // look again at the next check
        log.error(`scan: ${error.message}`);
      });
    };
    check();
    timer = setInterval(check, options.scanCheckMs ?? 20_000);
    timer.unref();
  }

  return {
    boss,
    context,
    push,
    scan,
    async stop() {
      if (timer) clearInterval(timer);
      await scanning;
      await push?.stop();
      // Jobs still running after 20 s are failed, so another worker retries them.
      await runs.stop(20_000);
      await boss.stop({ graceful: true, timeout: 20_000 });
      if (!options.heartbeat) context.heartbeat?.stop();
    },
  };
}
