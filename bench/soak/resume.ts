/**
 * How long the product takes to pick up after a process is killed (bench --soak,
 * `seconds_to_resume`): from the kill until every rule_runs row that was running at that moment has
 * moved on — finished, taken over (its attempts went up: a job's retry or the orphan sweep) or
 * renewed after the kill (a live process's heartbeat: the run was never the dead one's). Rows
 * already silent at the kill (no beat for two of RUN_HEARTBEAT_MS: an earlier kill's) are not this one's.
 */
import type pg from 'pg';
import { RUN_HEARTBEAT_MS } from '../../server/run/runHeartbeat';

export interface KillRecord {
  what: string;
  /** Real time of the kill (ms). */
  at: number;
  /** Rows running at the kill, and of them the killed process's own (as far as it told). */
  rows: number;
  own: number;
  /** Seconds until all had moved on; null: not within the watch. */
  seconds: number | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retries a query until it answers (PostgreSQL may be restarting) or `until` passes. */
async function answer<T extends pg.QueryResultRow>(
  pool: pg.Pool,
  text: string,
  values: unknown[],
  until: number,
): Promise<pg.QueryResult<T> | null> {
  while (Date.now() < until) {
    try {
      return await pool.query<T>(text, values);
    } catch {
      await sleep(500);
    }
  }
  return null;
}

/** Call right after the SIGKILL: watches the running rows until all have moved on (at most `watchMs`). */
export async function watchResume(
  pool: pg.Pool,
  what: string,
  own: readonly number[],
  watchMs = 240_000,
): Promise<KillRecord> {
  const at = Date.now();
  const until = at + watchMs;
  const snapshot = await answer<{ killed_at: Date; ids: number[] | null; attempts: number[] | null }>(
    pool,
    `select now() as killed_at, array_agg(id) as ids, array_agg(attempts) as attempts
       from rule_runs where status = 'running'
        and coalesce(heartbeat_at, started_at) > now() - $1 * interval '1 millisecond'`,
    [2 * RUN_HEARTBEAT_MS],
    until,
  );
  const ids = snapshot?.rows[0]?.ids ?? [];
  const attempts = snapshot?.rows[0]?.attempts ?? [];
  const record: KillRecord = {
    what,
    at,
    rows: ids.length,
    own: own.filter((id) => ids.includes(id)).length,
    seconds: null,
  };
  if (!snapshot) return record;
  const killedAt = snapshot.rows[0]!.killed_at;
  while (Date.now() < until) {
    const stuck = await answer<{ n: number }>(
      pool,
      `select count(*)::int as n from rule_runs r join unnest($1::int[], $2::int[]) as k(id, attempts) on r.id = k.id
        where r.status = 'running' and r.attempts <= k.attempts
          and coalesce(r.heartbeat_at, r.started_at) <= $3::timestamptz + interval '1 second'`,
      [ids, attempts, killedAt],
      until,
    );
    if (stuck && stuck.rows[0]!.n === 0) {
      record.seconds = Math.round((Date.now() - at) / 100) / 10;
      return record;
    }
    await sleep(500);
  }
  return record;
}
