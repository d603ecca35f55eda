/**
 * Backtest jobs in the database (backtest_jobs, backtest_pauses), so that a finished result costs
 * the API processes no memory and any of them can answer the polling of a job another one runs.
 *
 * Bounded: a person has at most MAX_RUNNING_PER_OWNER jobs running and KEPT_PER_OWNER finished
 * ones (the newest); a finished job is forgotten KEEP_MS after it ended; a result keeps its
 * summary (totals, per day) and its first MAX_LISTED_PAUSES pauses (keptResult.ts).
 */
import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { BACKTEST_PAUSES_PAGE, type BacktestPause, type BacktestResult } from '../../shared/backtest';
import type { Database } from '../db/client';
import { backtestJobs, backtestPauses } from '../db/schema/index';
import { resultRows, type PageRequest, type Slice } from '../http/pagination';
import type { BacktestSummary } from './keptResult';

export const KEEP_MS = 15 * 60_000;
/** A running job whose heartbeat is older than this belongs to a process that stopped. */
export const STALE_MS = 60_000;
export const MAX_RUNNING_PER_OWNER = 2;
export const KEPT_PER_OWNER = 5;
/** The pauses a job's answer carries; the rest are paged. */
export const FIRST_PAGE = BACKTEST_PAUSES_PAGE;

export type JobState = 'running' | 'done' | 'failed' | 'cancelled';

export interface JobView {
  id: string;
  state: JobState;
  progress: { done: number; total: number };
  result: BacktestResult | null;
  error: string | null;
}

export interface FinishedJob {
  state: Exclude<JobState, 'running'>;
  progress: { done: number; total: number };
  summary?: BacktestSummary;
  pauses?: BacktestPause[];
  error?: string | null;
}

const STOPPED_PROCESS = 'The server running this backtest stopped before it finished. Run it again.';

const seconds = (ms: number) => sql.raw(`interval '${Math.round(ms / 1000)} seconds'`);
const isLive = sql`${backtestJobs.heartbeatAt} > now() - ${seconds(STALE_MS)}`;

export function createBacktestJobStore(db: Database) {
  const pauseRows = (jobId: string, { limit, offset }: PageRequest) =>
    db
      .select({ pause: backtestPauses.pause })
      .from(backtestPauses)
      .where(
        and(
          eq(backtestPauses.jobId, jobId),
          gte(backtestPauses.position, offset),
          lt(backtestPauses.position, offset + limit),
        ),
      )
      .orderBy(asc(backtestPauses.position));

  const ownJob = async (ownerId: number, id: string) => {
    const [job] = await db
      .select({
        id: backtestJobs.id,
        state: backtestJobs.state,
        done: backtestJobs.progressDone,
        total: backtestJobs.progressTotal,
        summary: backtestJobs.summary,
        error: backtestJobs.error,
        live: sql<boolean>`${isLive}`,
      })
      .from(backtestJobs)
      .where(and(eq(backtestJobs.id, id), eq(backtestJobs.ownerId, ownerId)));
    return job ?? null;
  };

  return {
    /**
     * Forgets jobs finished (or silent) for longer than KEEP_MS, then opens `id` for the owner
     * unless they already have MAX_RUNNING_PER_OWNER live ones: false then.
     */
    async open(ownerId: number, id: string): Promise<boolean> {
      await db
        .delete(backtestJobs)
        .where(sql`coalesce(${backtestJobs.finishedAt}, ${backtestJobs.heartbeatAt}) < now() - ${seconds(KEEP_MS)}`);
      const opened = await db.execute(sql`
        insert into backtest_jobs (id, owner_id)
        select ${id}, ${ownerId}
        where (select count(*) from backtest_jobs
               where owner_id = ${ownerId} and state = 'running' and ${isLive}) < ${MAX_RUNNING_PER_OWNER}
        returning id`);
      return resultRows(opened).length > 0;
    },

    /** Writes a running job's progress (its heartbeat too); answers whether a cancel was asked for. */
    async progress(id: string, done: number, total: number): Promise<{ cancelRequested: boolean }> {
      const [job] = await db
        .update(backtestJobs)
        .set({ progressDone: done, progressTotal: total, heartbeatAt: sql`now()` })
        .where(and(eq(backtestJobs.id, id), eq(backtestJobs.state, 'running')))
        .returning({ cancelRequested: backtestJobs.cancelRequested });
      return { cancelRequested: job?.cancelRequested ?? false };
    },

    /** Ends a job with its outcome and pauses, then forgets the owner's finished jobs beyond KEPT_PER_OWNER. */
    async finish(id: string, outcome: FinishedJob): Promise<void> {
      await db.transaction(async (tx) => {
        const [job] = await tx
          .update(backtestJobs)
          .set({
            state: outcome.state,
            progressDone: outcome.progress.done,
            progressTotal: outcome.progress.total,
            summary: outcome.summary ?? null,
            error: outcome.error ?? null,
            finishedAt: sql`now()`,
          })
          .where(and(eq(backtestJobs.id, id), eq(backtestJobs.state, 'running')))
          .returning({ ownerId: backtestJobs.ownerId });
        if (!job) return;
        if (outcome.pauses?.length)
          await tx.execute(sql`
            insert into backtest_pauses (job_id, position, pause)
            select ${id}, (p.ordinality - 1)::int, p.value
            from json_array_elements(${JSON.stringify(outcome.pauses)}::json) with ordinality as p`);
        const kept = tx
          .select({ id: backtestJobs.id })
          .from(backtestJobs)
          .where(and(eq(backtestJobs.ownerId, job.ownerId), sql`${backtestJobs.finishedAt} is not null`))
          .orderBy(desc(backtestJobs.finishedAt), desc(backtestJobs.startedAt))
          .limit(KEPT_PER_OWNER);
        await tx
          .delete(backtestJobs)
          .where(
            and(
              eq(backtestJobs.ownerId, job.ownerId),
              sql`${backtestJobs.finishedAt} is not null`,
              sql`${backtestJobs.id} not in (${kept})`,
            ),
          );
      });
    },

    /** The owner's job as the API answers it (its first FIRST_PAGE pauses once done); null: none. */
    async view(ownerId: number, id: string): Promise<JobView | null> {
      const job = await ownJob(ownerId, id);
      if (!job) return null;
      const stopped = job.state === 'running' && !job.live;
      const summary = job.summary as BacktestSummary | null;
      const pauses = summary && job.state === 'done' ? await pauseRows(id, { limit: FIRST_PAGE, offset: 0 }) : [];
      return {
        id: job.id,
        state: stopped ? 'failed' : (job.state as JobState),
        progress: { done: job.done, total: job.total },
        result: summary ? { ...summary, results: pauses.map((p) => p.pause as BacktestPause) } : null,
        error: stopped ? STOPPED_PROCESS : job.error,
      };
    },

    /** A page of a finished job's listed pauses; null when the owner has no such job. */
    async pauses(ownerId: number, id: string, page: PageRequest): Promise<Slice<BacktestPause> | null> {
      const job = await ownJob(ownerId, id);
      if (!job) return null;
      const listed = (job.summary as BacktestSummary | null)?.results_listed ?? 0;
      const rows = listed > page.offset ? await pauseRows(id, page) : [];
      return { count: listed, results: rows.map((r) => r.pause as BacktestPause) };
    },

    /** Marks the owner's running job to be cancelled (by whichever process runs it); false: no such job. */
    async requestCancel(ownerId: number, id: string): Promise<boolean> {
      const job = await ownJob(ownerId, id);
      if (!job) return false;
      if (job.state === 'running')
        await db
          .update(backtestJobs)
          .set({ cancelRequested: true })
          .where(and(eq(backtestJobs.id, id), eq(backtestJobs.state, 'running')));
      return true;
    },
  };
}

export type BacktestJobStore = ReturnType<typeof createBacktestJobStore>;
