/**
 * The periodic campaign sync (CAMPAIGN_SYNC_MINUTES, default 15). Every process that runs the job
 * checks a lease row in `sync_state` first, so in a scaled-out deployment one process syncs per
 * period. A run that failed in part (some ad accounts kept their old data) is retried sooner, with
 * back-off, until it succeeds.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { syncState } from '../db/schema/index';
import type { CampaignSync, SyncLog, SyncReport } from './sync';
import { errorMessage } from '../errorMessage';
import { campaignSyncs } from '../observability/counters';

export const CAMPAIGN_SYNC_JOB = 'campaigns';

export interface SyncJobOptions {
  intervalMinutes: number;
  /** First retry after a failed run (doubling up to the interval). */
  retrySeconds?: number;
  log?: SyncLog;
}

export interface SyncJob {
  /** Runs a sync now if no other process holds the lease; null when it was skipped. */
  runOnce(options?: { force?: boolean }): Promise<SyncReport | null>;
  stop(): Promise<void>;
}

/** When the campaign sync last succeeded; null when it never has. */
export async function lastSuccessfulSync(db: Database): Promise<Date | null> {
  const [row] = await db
    .select({ lastSuccessAt: syncState.lastSuccessAt })
    .from(syncState)
    .where(eq(syncState.name, CAMPAIGN_SYNC_JOB));
  return row?.lastSuccessAt ?? null;
}

/** Takes the job's lease if it is free and the job is due; false when another process has it. */
export async function acquireLease(db: Database, name: string, leaseMs: number, dueAfterMs: number): Promise<boolean> {
  await db.insert(syncState).values({ name }).onConflictDoNothing();
  const taken = await db
    .update(syncState)
    .set({ leaseUntil: sql`now() + (${leaseMs} * interval '1 millisecond')`, lastStartedAt: sql`now()` })
    .where(
      sql`${syncState.name} = ${name}
        and (${syncState.leaseUntil} is null or ${syncState.leaseUntil} < now())
        and (${syncState.lastSuccessAt} is null or ${syncState.lastSuccessAt} <= now() - (${dueAfterMs} * interval '1 millisecond'))`,
    )
    .returning({ name: syncState.name });
  return taken.length > 0;
}

export async function releaseLease(
  db: Database,
  name: string,
  outcome: { ok: boolean; error?: string },
): Promise<void> {
  await db
    .update(syncState)
    .set({
      leaseUntil: null,
      lastFinishedAt: sql`now()`,
      ...(outcome.ok ? { lastSuccessAt: sql`now()`, lastError: null } : { lastError: outcome.error ?? 'failed' }),
    })
    .where(eq(syncState.name, name));
}

export function startSyncJob(db: Database, sync: CampaignSync, options: SyncJobOptions): SyncJob {
  const intervalMs = Math.max(1, options.intervalMinutes) * 60_000;
  const firstRetryMs = (options.retrySeconds ?? 30) * 1000;
  let retryMs = firstRetryMs;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), ms);
    timer.unref();
  };

  const runOnce = async ({ force = false } = {}): Promise<SyncReport | null> => {
    // A lease outlives a crashed process by at most twice the interval.
    const leased = await acquireLease(db, CAMPAIGN_SYNC_JOB, 2 * intervalMs, force ? 0 : intervalMs - 5_000);
    if (!leased) return null;
    try {
      const report = await sync.syncAll();
      const ok = report.failures.length === 0;
      campaignSyncs.inc({ outcome: ok ? 'ok' : 'partial' });
      await releaseLease(db, CAMPAIGN_SYNC_JOB, {
        ok,
        error: report.failures.map((f) => `${f.adAccountId}: ${f.error}`).join('; '),
      });
      return report;
    } catch (error) {
      campaignSyncs.inc({ outcome: 'failed' });
      await releaseLease(db, CAMPAIGN_SYNC_JOB, { ok: false, error: errorMessage(error) });
      throw error;
    }
  };

  /** Runs again after the current back-off, which doubles up to the interval. */
  const retryAfter = (problem: string) => {
    options.log?.warn(`${problem}; retrying in ${Math.round(retryMs / 1000)} s`);
    schedule(retryMs);
    retryMs = Math.min(intervalMs, retryMs * 2);
  };

  const tick = async () => {
    const run = runOnce()
      .then((report) => {
        if (report?.failures.length) {
          retryAfter(`sync: ${report.failures.length} ad account(s) failed`);
        } else {
          retryMs = firstRetryMs;
          schedule(intervalMs);
        }
      })
      .catch((error: unknown) => retryAfter(`sync failed: ${errorMessage(error)}`));
    current = run;
    await run;
  };

  schedule(0);
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current.catch(() => undefined);
    },
  };
}
