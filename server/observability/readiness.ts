/**
 * What /readyz checks: the database answers, every migration of the journal is applied, and, in
 * the roles that run background work (ROLE all/worker), the job queue is running. Each check
 * throws a short, public message when it fails.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PgBoss } from 'pg-boss';
import type { Config } from '../config';
import { MIGRATIONS_FOLDER, type DbHandle } from '../db/client';

/** Whether this process's job queue is running (see pgBossProbe). */
export interface JobQueueProbe {
  check(): Promise<void>;
}

export interface ReadinessDeps {
  config: Pick<Config, 'role'>;
  dbh: Pick<DbHandle, 'sql'>;
  jobQueue?: JobQueueProbe;
}

export type CheckName = 'database' | 'migrations' | 'job_queue';

export interface Readiness {
  ready: boolean;
  /** 'ok' or what is wrong, per check. */
  checks: Partial<Record<CheckName, string>>;
  failed: CheckName[];
}

/** A check that hangs (a database that does not answer) fails after this long. */
const CHECK_TIMEOUT_MS = 5_000;

class NotReady extends Error {}

async function journalTimestamps(): Promise<{ tag: string; when: number }[]> {
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries;
}

async function checkDatabase(deps: ReadinessDeps): Promise<void> {
  try {
    await deps.dbh.sql.query('select 1');
  } catch {
    throw new NotReady('the database does not answer');
  }
}

/** drizzle records each applied migration with its journal timestamp (created_at). */
async function checkMigrations(deps: ReadinessDeps): Promise<void> {
  let applied: Set<number>;
  try {
    const { rows } = await deps.dbh.sql.query<{ created_at: string }>(
      'select created_at from drizzle.__drizzle_migrations',
    );
    applied = new Set(rows.map((r) => Number(r.created_at)));
  } catch {
    throw new NotReady('no migration has been applied');
  }
  const missing = (await journalTimestamps()).filter((entry) => !applied.has(entry.when));
  if (missing.length) throw new NotReady(`migrations not applied: ${missing.map((m) => m.tag).join(', ')}`);
}

async function checkJobQueue(deps: ReadinessDeps): Promise<void> {
  if (!deps.jobQueue) throw new NotReady('the job queue was not started');
  await deps.jobQueue.check();
}

function withTimeout(check: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NotReady(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([check, timeout]).finally(() => clearTimeout(timer));
}

export async function readiness(deps: ReadinessDeps): Promise<Readiness> {
  const checks: [CheckName, (deps: ReadinessDeps) => Promise<void>][] = [
    ['database', checkDatabase],
    ['migrations', checkMigrations],
  ];
  if (deps.config.role !== 'api') checks.push(['job_queue', checkJobQueue]);
  const results = await Promise.all(
    checks.map(async ([name, check]) => {
      try {
        await withTimeout(check(deps));
        return [name, 'ok'] as const;
      } catch (error) {
        return [name, error instanceof NotReady ? error.message : 'failed'] as const;
      }
    }),
  );
  const failed = results.filter(([, result]) => result !== 'ok').map(([name]) => name);
  return { ready: failed.length === 0, checks: Object.fromEntries(results), failed };
}

/**
 * A pg-boss: running until it stops, and `queue` readable in the database. The owner names the
 * queue (the rule engine its runs'), so observability knows no engine module.
 */
export function pgBossProbe(boss: PgBoss, queue: string): JobQueueProbe {
  let stopped = false;
  boss.on('stopped', () => {
    stopped = true;
  });
  return {
    async check() {
      if (stopped) throw new NotReady('the job queue has stopped');
      let found: unknown;
      try {
        found = await boss.getQueue(queue);
      } catch {
        throw new NotReady('the job queue cannot read its tables');
      }
      if (!found) throw new NotReady(`the job queue has no "${queue}" queue`);
    },
  };
}
