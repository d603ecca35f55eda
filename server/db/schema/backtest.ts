import { boolean, index, integer, json, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { instant, instantNow } from './columns';
import { users } from './people';

/**
 * Backtests (server/backtest/jobs.ts): one row per job, written by the process running it and read
 * by whichever API process answers the polling. `summary` is the result without its pauses
 * (totals, per day); the pauses are rows of backtest_pauses. A running job renews heartbeat_at;
 * silent for a minute, its process died. Finished jobs are deleted 15 minutes after they end.
 */
export const backtestJobs = pgTable(
  'backtest_jobs',
  {
    id: text('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** running | done | failed | cancelled */
    state: text('state').notNull().default('running'),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    summary: jsonb('summary'),
    error: text('error'),
    /** Set by a cancel that reached another process than the one running the job. */
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    startedAt: instantNow('started_at'),
    heartbeatAt: instantNow('heartbeat_at'),
    finishedAt: instant('finished_at'),
  },
  (t) => [index('backtest_jobs_owner_idx').on(t.ownerId, t.startedAt)],
);

/**
 * A finished backtest's pauses in order (the first MAX_LISTED_PAUSES of them), paged by the API.
 * json, not jsonb: a pause's reason lists its numbers in the engine's order, which jsonb would sort.
 */
export const backtestPauses = pgTable(
  'backtest_pauses',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => backtestJobs.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    pause: json('pause').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.position] })],
);
