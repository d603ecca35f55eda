/**
 * pg-boss on either database through one small adapter (docs/decisions.md): parameterised SQL through
 * `query`, multi-statement SQL (pg-boss's installs and migrations) through `exec`. On PGlite the
 * queue uses pg-boss's `pglite` backend profile; on PostgreSQL, any number of processes on any
 * number of machines share the same queues.
 */
import { createHash } from 'node:crypto';
import { type Db, PgBoss, type Queue } from 'pg-boss';
import type { DbHandle, SqlExecutor } from '../db/client';
import { errorMessage } from '../errorMessage';

export const QUEUES = {
  /** One job per (ad account, scheduled hour): the account's rules due then, run as one batch. */
  run: 'rule-run',
  /** One job per (rule, alert hour). */
  alert: 'rule-alert',
} as const;

export interface QueueTuning {
  /** How long a run may stay active at most before pg-boss takes it as lost and retries it. */
  expireInSeconds?: number;
  /**
   * A job whose worker has not renewed it (jobPump.ts, pg-boss's work()) for this long is failed and
   * retried: a dead worker's job is taken over in well under a minute, not at its expiry.
   */
  heartbeatSeconds?: number;
  /** pg-boss's supervision period (expired jobs are found at this pace). */
  superviseIntervalSeconds?: number;
  retryLimit?: number;
  retryDelaySeconds?: number;
}

const MULTIPLE_STATEMENTS = /cannot insert multiple commands into a prepared statement/i;

/** pg-boss's `IDatabase` over the project's SqlExecutor. */
export function bossDatabase(sql: SqlExecutor): Db {
  return {
    async executeSql(text, values) {
      if (values?.length) return sql.query(text, values);
      try {
        return await sql.query(text);
      } catch (error) {
        if (!(error instanceof Error) || !MULTIPLE_STATEMENTS.test(error.message)) throw error;
        await sql.exec(text);
        return { rows: [] };
      }
    },
  };
}

export function createBoss(dbh: DbHandle, tuning: QueueTuning = {}): PgBoss {
  return new PgBoss({
    db: bossDatabase(dbh.sql),
    backend: dbh.kind === 'pglite' ? 'pglite' : 'postgres',
    schema: 'pgboss',
    // Supervision finds jobs whose worker died (silent, or expired) at this pace.
    superviseIntervalSeconds: tuning.superviseIntervalSeconds ?? DEFAULT_SUPERVISE_SECONDS,
    monitorIntervalSeconds: tuning.superviseIntervalSeconds ?? DEFAULT_SUPERVISE_SECONDS,
    // Cron and maintenance beyond supervision are not used: the engine's own scan enqueues slots.
    schedule: false,
  });
}

/**
 * A process's own pg-boss client for one queue it sends to and works (the push queue, alert
 * deliveries), so an API process enqueues too: it neither supervises nor schedules (the engine's
 * client does, for every queue). It starts at its first use (a failed start is tried again at the
 * next) and creates the queue, or sets its settings again; another process creating the queue at
 * the same moment is no error.
 */
export function ownQueueClient(
  dbh: DbHandle,
  queue: { name: string; policy: Queue['policy']; settings: Omit<Queue, 'name' | 'policy'> },
  log: { warn(message: string): void },
  label: string,
) {
  const boss = new PgBoss({
    db: bossDatabase(dbh.sql),
    backend: dbh.kind === 'pglite' ? 'pglite' : 'postgres',
    schema: 'pgboss',
    supervise: false,
    schedule: false,
  });
  boss.on('error', (error) => log.warn(`${label}: ${errorMessage(error)}`));
  let started: Promise<void> | null = null;

  async function createQueue() {
    if (await boss.getQueue(queue.name)) return boss.updateQueue(queue.name, queue.settings);
    try {
      await boss.createQueue(queue.name, { ...queue.settings, policy: queue.policy });
    } catch (error) {
      if (!(await boss.getQueue(queue.name))) throw error; // not another process creating it
    }
  }

  return {
    boss,
    ready(): Promise<void> {
      started ??= (async () => {
        await boss.start();
        await createQueue();
      })().catch((error) => {
        started = null;
        throw error;
      });
      return started;
    },
    async stop(timeoutMs: number) {
      if (started) await boss.stop({ graceful: true, close: false, timeout: timeoutMs }).catch(() => undefined);
    },
  };
}

/**
 * A worker that dies is noticed within heartbeat + supervision, and its job is run again after a
 * retry's delay: 10–20 s, never more however often the job failed before (a death counts as one
 * more failure in pg-boss's back-off, so an uncapped back-off after an outage kept a dead worker's
 * job waiting minutes): under a minute in all (bench --soak, seconds_to_resume). Eight retries
 * span about two and a half minutes, so a short platform outage does not fail a run.
 */
export const DEFAULT_HEARTBEAT_SECONDS = 15;
const DEFAULT_SUPERVISE_SECONDS = 10;
const DEFAULT_RETRY_DELAY_SECONDS = 10;
const MAX_RETRY_DELAY_SECONDS = 20;
const DEFAULT_RETRY_LIMIT = 8;

export async function createQueues(boss: PgBoss, tuning: QueueTuning = {}): Promise<void> {
  const options = {
    // One job per key may be queued or active: a second process enqueuing the same slot is refused.
    policy: 'exclusive' as const,
    expireInSeconds: tuning.expireInSeconds ?? 10 * 60,
    heartbeatSeconds: tuning.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS,
    retryLimit: tuning.retryLimit ?? DEFAULT_RETRY_LIMIT,
    retryDelay: tuning.retryDelaySeconds ?? DEFAULT_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    retryDelayMax: Math.max(tuning.retryDelaySeconds ?? 0, MAX_RETRY_DELAY_SECONDS),
    deleteAfterSeconds: 3 * 24 * 60 * 60,
  };
  const { policy: _fixedAtCreation, ...updatable } = options;
  for (const name of Object.values(QUEUES)) {
    if (!(await boss.getQueue(name))) {
      try {
        await boss.createQueue(name, options);
        continue;
      } catch (error) {
        if (!(await boss.getQueue(name))) throw error; // not a second process creating it at the same moment
      }
    }
    // Another process (or an earlier start) made it: bring its settings up to date.
    await boss.updateQueue(name, updatable);
  }
}

/**
 * A stable job id per (queue, subject, slot): re-sending the same slot is refused by the primary
 * key. The subject is a rule id (alerts) or `runJobSubject` (an account's runs).
 */
export function slotJobId(queue: string, subject: number | string, slot: Date): string {
  const hex = createHash('sha256').update(`${queue}:${subject}:${slot.toISOString()}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const slotKey = (subject: number | string, slot: Date) => `${subject}@${slot.toISOString()}`;

/**
 * What a run job is about: the ad account and its rules in it. A later scan that finds the same
 * rules due (not yet run) makes the same job and is refused; a rule switched on since then makes
 * a new one (the rules already run are found finished in the ledger).
 */
export const runJobSubject = (adAccountId: string, ruleIds: number[]) =>
  `${adAccountId}:${[...ruleIds].sort((a, b) => a - b).join(',')}`;
