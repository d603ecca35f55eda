/**
 * The scan: what is due now (dueRuns.ts) becomes queued jobs — one run job per ad account and slot
 * (an account with many rules due gets several), one alert job per rule and alert hour — and the
 * clock that scans once each quarter hour. The job shapes here are what the worker (worker.ts) takes.
 */
import type { JobInsert, PgBoss } from 'pg-boss';
import type { Database } from '../db/client';
import type { PushTrigger, PushWork } from '../push/engine';
import type { EngineLog } from './pipeline/context';
import { dueWork, type DueRun } from './dueRuns';
import { QUEUES, runJobSubject, slotJobId, slotKey } from './queue';

export interface DueRunData {
  ruleId: number;
  missed?: string[];
  late?: boolean;
  trigger?: PushTrigger;
}

/** A run job: the due rules of one ad account at one slot (a job queued by an earlier version: one rule). */
export interface RunJobData extends Partial<DueRunData> {
  slot: string;
  account?: string;
  runs?: DueRunData[];
  /** Queued by a push or a recheck rather than the schedule. */
  trigger?: PushTrigger;
}

export interface AlertJobData {
  ruleId: number;
  slot: string;
}

/** Jobs per insert statement when a scan enqueues a slot. */
const ENQUEUE_CHUNK = 500;
/** An account with more rules due at once than this gets several jobs (they share its snapshot). */
const RULES_PER_JOB = 50;
/** Alert jobs wait this long unless told otherwise, so the digest includes the runs of the same hour. */
const DEFAULT_ALERT_DELAY_SECONDS = 120;
const DEFAULT_SCAN_CHECK_MS = 20_000;

/** Every slot instant is on a quarter hour of UTC (all zone offsets are multiples of 15 minutes). */
const quarterOf = (date: Date) => Math.floor(date.getTime() / (15 * 60 * 1000));

const partsOf = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** One run job of an account's rules at a slot; its id and singleton key keep it queued once. */
function runJobOf(adAccountId: string, slot: Date, runs: DueRunData[], trigger?: PushTrigger): JobInsert<RunJobData> {
  const subject = runJobSubject(
    adAccountId,
    runs.map((r) => r.ruleId),
  );
  return {
    id: slotJobId(QUEUES.run, subject, slot),
    singletonKey: slotKey(subject, slot),
    data: { account: adAccountId, slot: slot.toISOString(), runs, ...(trigger ? { trigger } : {}) },
  };
}

const runDataOf = (due: DueRun): DueRunData => ({
  ruleId: due.ruleId,
  ...(due.missed.length ? { missed: due.missed.map((s) => s.toISOString()) } : {}),
  ...(due.late ? { late: true } : {}),
  ...(due.trigger ? { trigger: due.trigger } : {}),
});

/** The due runs as run jobs: each (account, slot)'s rules in parts of RULES_PER_JOB. */
function runJobsOf(due: DueRun[]): JobInsert<RunJobData>[] {
  const accountSlots = new Map<string, DueRun[]>();
  for (const item of due.filter((d) => d.queue === 'run')) {
    const key = slotKey(item.adAccountId, item.slot);
    const same = accountSlots.get(key);
    if (same) same.push(item);
    else accountSlots.set(key, [item]);
  }
  return [...accountSlots.values()].flatMap((items) =>
    partsOf(items, RULES_PER_JOB).map((part) => runJobOf(part[0]!.adAccountId, part[0]!.slot, part.map(runDataOf))),
  );
}

function alertJobsOf(due: DueRun[], alertDelaySeconds: number): JobInsert<AlertJobData>[] {
  return due
    .filter((d) => d.queue === 'alert')
    .map((item) => ({
      id: slotJobId(QUEUES.alert, item.ruleId, item.slot),
      singletonKey: slotKey(item.ruleId, item.slot),
      data: { ruleId: item.ruleId, slot: item.slot.toISOString() },
      ...(alertDelaySeconds ? { startAfter: alertDelaySeconds } : {}),
    }));
}

export interface ScanOptions {
  /** Under push: the scheduled runs its floor keeps (server/push/floor.ts). */
  push?: Pick<PushWork, 'floor'>;
  alertDelaySeconds?: number;
}

/**
 * Queues every run and alert due at `at` and not yet taken up; answers what was due and how many
 * run jobs were offered (some may have been queued already).
 */
export async function queueDueWork(
  db: Database,
  boss: PgBoss,
  at: Date,
  options: ScanOptions = {},
): Promise<{ due: DueRun[]; runJobs: number }> {
  const found = await dueWork(db, at);
  const due = options.push ? await options.push.floor(found) : found;
  const runJobs = runJobsOf(due);
  const alertJobs = alertJobsOf(due, options.alertDelaySeconds ?? DEFAULT_ALERT_DELAY_SECONDS);
  // One multi-row insert per chunk rather than a round trip per job: a slot of thousands of rules
  // is enqueued in a second. Conflicts (same id, or the same singleton key queued or active under
  // the exclusive policy) are skipped, exactly as a refused send.
  for (const [queue, jobs] of [
    [QUEUES.run, runJobs],
    [QUEUES.alert, alertJobs],
  ] as const)
    for (const chunk of partsOf<JobInsert>(jobs, ENQUEUE_CHUNK)) await boss.insert(queue, chunk);
  return { due, runJobs: runJobs.length };
}

/** One run job per (account, slot) for rules a push or a recheck woke; the job ids keep it once. */
export async function queueWokenRuns(
  boss: PgBoss,
  adAccountId: string,
  ruleIds: number[],
  slot: Date,
  trigger: PushTrigger,
): Promise<void> {
  const jobs = partsOf(ruleIds, RULES_PER_JOB).map((part) =>
    runJobOf(
      adAccountId,
      slot,
      part.map((ruleId) => ({ ruleId })),
      trigger,
    ),
  );
  await boss.insert(QUEUES.run, jobs);
}

export interface ScanClock {
  /** Looks at the clock no more and waits for a scan under way. */
  stop(): Promise<void>;
}

/**
 * Looks at the clock now and every `checkMs` (default 20 s), and scans when a new quarter hour
 * began; a scan that failed is tried again at the next look.
 */
export function startScanClock(
  scan: (at: Date) => Promise<unknown>,
  options: { now(): Date; log: EngineLog; checkMs?: number },
): ScanClock {
  let lastQuarter = -1;
  let scanning: Promise<unknown> = Promise.resolve();
  const check = () => {
    const at = options.now();
    if (quarterOf(at) === lastQuarter) return;
    lastQuarter = quarterOf(at);
    scanning = scan(at).catch((error: Error) => {
      lastQuarter = -1; // look again at the next check
      options.log.error(`scan: ${error.message}`);
    });
  };
  check();
  const timer = setInterval(check, options.checkMs ?? DEFAULT_SCAN_CHECK_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await scanning;
    },
  };
}
