/**
 * The rule engine of a worker process, composed: pg-boss queues for runs and alerts, the worker
 * that takes jobs from them (worker.ts), the scan that queues due slots at each quarter hour
 * (scan.ts) and prunes old history after it (historyPruning.ts), and under push Meta's pushes
 * (server/push/). Any number of these may run against one PostgreSQL database; each (rule, slot)
 * is still acted on once (ledger + claims, see pipeline/runBatch.ts).
 */
import type { PgBoss } from 'pg-boss';
import type { AdPlatformClient } from '../adplatform/types';
import type { DbHandle } from '../db/client';
import type { BlastLimits } from '../judgement/blastRadius';
import type { QualitySource } from '../outcomes/quality';
import { startPushWork, type PushOptions, type PushTrigger, type PushWork } from '../push/engine';
import { createSnapshotStore } from './accountSnapshots';
import type { DueRun } from './dueRuns';
import { pruneOldHistory, type HistoryKept } from './historyPruning';
import type { EngineContext, EngineLog } from './pipeline/context';
import { createBoss, createQueues, type QueueTuning } from './queue';
import { createRunHeartbeat, type RunHeartbeat } from './runHeartbeat';
import { queueDueWork, queueWokenRuns, startScanClock } from './scan';
import { startWorker, type WorkerOptions } from './worker';

export interface RuleEngineOptions extends WorkerOptions, HistoryKept {
  dbh: DbHandle;
  client: AdPlatformClient;
  /** Blast-radius limits; defaults 0.5 of delivering ads, 25 objects. */
  limits?: BlastLimits;
  log?: EngineLog;
  now?: () => Date;
  /** Start the periodic scan (off in tests that drive `scan` by hand). */
  autoScan?: boolean;
  /** How often the clock is looked at; a scan runs when a new quarter hour began. */
  scanCheckMs?: number;
  queue?: QueueTuning;
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

export const consoleLog: EngineLog = {
  info: (m) => console.log(`[engine] ${m}`),
  warn: (m) => console.warn(`[engine] ${m}`),
  error: (m) => console.error(`[engine] ${m}`),
};

const BOSS_STOP_TIMEOUT_MS = 20_000;

function engineContext(options: RuleEngineOptions, now: () => Date, log: EngineLog): EngineContext {
  const db = options.dbh.db;
  return {
    db,
    client: options.client,
    snapshots: createSnapshotStore(db, { client: options.client, now, warn: (m) => log.warn(m) }),
    log,
    now,
    heartbeat: options.heartbeat ?? createRunHeartbeat(db, { warn: (m) => log.warn(m) }),
    limits: options.limits,
    alerts: options.alerts,
    quality: options.quality,
    push: options.push !== undefined,
  };
}

async function startBoss(dbh: DbHandle, tuning: QueueTuning | undefined, log: EngineLog): Promise<PgBoss> {
  const boss = createBoss(dbh, tuning);
  boss.on('error', (error) => log.error(`queue: ${error.message}`));
  await boss.start();
  await createQueues(boss, tuning);
  return boss;
}

export async function startRuleEngine(options: RuleEngineOptions): Promise<RuleEngine> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? consoleLog;
  const db = options.dbh.db;
  const context = engineContext(options, now, log);
  const boss = await startBoss(options.dbh, options.queue, log);
  const worker = await startWorker(boss, context, options);

  async function enqueueRuns(adAccountId: string, ruleIds: number[], slot: Date, trigger: PushTrigger) {
    await queueWokenRuns(boss, adAccountId, ruleIds, slot, trigger);
    worker.nudge();
  }
  const push = options.push
    ? await startPushWork({ dbh: options.dbh, now, log, enqueueRuns, push: options.push })
    : undefined;

  async function scan(at: Date = now()): Promise<DueRun[]> {
    const { due, runJobs } = await queueDueWork(db, boss, at, { push, alertDelaySeconds: options.alertDelaySeconds });
    if (runJobs) worker.nudge();
    await pruneOldHistory(db, context.snapshots, at, options);
    if (push) {
      await push.tidy(at);
      void push.reconcile();
    }
    return due;
  }
  const clock =
    options.autoScan === false ? undefined : startScanClock(scan, { now, log, checkMs: options.scanCheckMs });

  return {
    boss,
    context,
    push,
    scan,
    async stop() {
      await clock?.stop();
      await push?.stop();
      await worker.stop();
      await boss.stop({ graceful: true, timeout: BOSS_STOP_TIMEOUT_MS });
      if (!options.heartbeat) context.heartbeat?.stop();
    },
  };
}
