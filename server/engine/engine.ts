/**
 * The rule engine of a worker process: pg-boss queues for runs and alerts, the workers that take
 * jobs from them, and the scan that enqueues due slots. Any number of these may run against one
 * PostgreSQL database; each (rule, slot) is still acted on once (ledger + claims, see execute.ts).
 */
import type { PgBoss } from 'pg-boss';
import type { AdPlatformClient } from '../adplatform/types';
import type { DbHandle } from '../db/client';
import type { Mailer } from '../mail/mailer';
import { runAlert, type AlertContext } from './alerts';
import {
  recordRunFailure,
  releaseAfterError,
  runSlot,
  type EngineContext,
  type EngineLog,
  type SlotRun,
} from './execute';
import { createBoss, createQueues, QUEUES, slotJobId, slotKey, type QueueTuning } from './queue';
import { dueWork, type DueRun } from './scheduler';
import { SnapshotStore } from './snapshots';
import { countRun } from '../observability/metrics';
import type { BlastLimits } from './blastRadius';
import { pruneRuns } from './ledger';

export interface RuleEngineOptions {
  dbh: DbHandle;
  client: AdPlatformClient;
  /** Digest and held-run mailer and recipients (see alertDelivery). */
  alerts: { mailer: Mailer; recipients: string[]; publicUrl: string; sender?: string };
  /** Blast-radius limits; defaults 0.5 of delivering ads, 25 objects. */
  limits?: BlastLimits;
  /** Run records older than this many days are pruned at each scan (default 30). */
  runHistoryDays?: number;
  log?: EngineLog;
  now?: () => Date;
  /** Start the periodic scan (off in tests that drive `scan` by hand). */
  autoScan?: boolean;
  /** How often the clock is looked at; a scan runs when a new quarter hour began. */
  scanCheckMs?: number;
  queue?: QueueTuning;
  pollingIntervalSeconds?: number;
  /** Jobs one process works on at once, per queue. */
  concurrency?: number;
  /** Alert jobs wait this long, so the digest includes the runs of the same hour. */
  alertDelaySeconds?: number;
}

export interface RuleEngine {
  boss: PgBoss;
  context: EngineContext;
  /** Enqueues every due slot not yet taken up; answers what it found due. */
  scan(now?: Date): Promise<DueRun[]>;
  stop(): Promise<void>;
}

interface SlotJobData {
  ruleId: number;
  slot: string;
  missed?: string[];
  late?: boolean;
}

export const consoleLog: EngineLog = {
  info: (m) => console.log(`[engine] ${m}`),
  warn: (m) => console.warn(`[engine] ${m}`),
  error: (m) => console.error(`[engine] ${m}`),
};

/** Every slot instant is on a quarter hour of UTC (all zone offsets are multiples of 15 minutes). */
const quarterOf = (date: Date) => Math.floor(date.getTime() / (15 * 60 * 1000));

export async function startRuleEngine(options: RuleEngineOptions): Promise<RuleEngine> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? consoleLog;
  const db = options.dbh.db;
  const context: EngineContext = {
    db,
    client: options.client,
    snapshots: new SnapshotStore(db, options.client),
    log,
    now,
    runLeaseMs: (options.queue?.expireInSeconds ?? 600) * 1000,
    limits: options.limits,
    alerts: options.alerts,
  };
  const alertContext: AlertContext = { db, log, ...options.alerts };

  const boss = createBoss(options.dbh, options.queue);
  boss.on('error', (error) => log.error(`queue: ${error.message}`));
  await boss.start();
  await createQueues(boss, options.queue);

  const workOptions = {
    batchSize: 1,
    includeMetadata: true,
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
    localConcurrency: options.concurrency ?? 2,
  } as const;

  await boss.work<SlotJobData, unknown, typeof workOptions>(QUEUES.run, workOptions, async ([job]) => {
    const data = job!.data;
    const run: SlotRun = {
      ruleId: data.ruleId,
      slot: new Date(data.slot),
      kind: 'run',
      missed: (data.missed ?? []).map((s) => new Date(s)),
      late: data.late ?? false,
    };
    try {
      countRun(run, await runSlot(context, run));
    } catch (error) {
      if (job!.retryCount >= job!.retryLimit) await recordRunFailure(context, run, error);
      else await releaseAfterError(context, run, error);
      throw error;
    }
  });

  await boss.work<SlotJobData, unknown, typeof workOptions>(QUEUES.alert, workOptions, async ([job]) => {
    await runAlert(alertContext, job!.data.ruleId, new Date(job!.data.slot));
  });

  async function scan(at: Date = now()): Promise<DueRun[]> {
    const due = await dueWork(db, at);
    for (const item of due) {
      const queue = QUEUES[item.queue];
      const data: SlotJobData = {
        ruleId: item.ruleId,
        slot: item.slot.toISOString(),
        missed: item.missed.map((s) => s.toISOString()),
        late: item.late,
      };
      const delay = item.queue === 'alert' ? (options.alertDelaySeconds ?? 120) : 0;
      await boss.send(queue, data, {
        id: slotJobId(queue, item.ruleId, item.slot),
        singletonKey: slotKey(item.ruleId, item.slot),
        ...(delay ? { startAfter: delay } : {}),
      });
    }
    const day = 24 * 60 * 60 * 1000;
    await context.snapshots.prune(new Date(at.getTime() - 2 * day));
    await pruneRuns(db, new Date(at.getTime() - (options.runHistoryDays ?? 30) * day));
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
    scan,
    async stop() {
      if (timer) clearInterval(timer);
      await scanning;
      // Jobs still running after 20 s are failed by pg-boss, so another worker retries them.
      await boss.stop({ graceful: true, timeout: 20_000 });
    },
  };
}
