/** How far the engine bench's slot has got, read from the ledger (rule_runs) and the activity log. */
import type { DbHandle } from '../../server/db/client';

export interface SlotProgress {
  runs: number;
  finished: number;
  failed: number;
  held: number;
  /** Epoch ms (the database's clock) of the last run finished / the last turn-off confirmed. */
  lastFinishedAt: number | null;
  lastActionAt: number | null;
  actions: number;
  errors: number;
  snapshots: number;
}

const ms = (value: unknown) => (value ? new Date(value as string).getTime() : null);

export async function slotProgress(dbh: DbHandle, slot: Date): Promise<SlotProgress> {
  const [runs] = (
    await dbh.sql.query<Record<string, unknown>>(
      `select count(*)::int as runs,
              count(*) filter (where status <> 'running')::int as finished,
              count(*) filter (where outcome = 'failed' or status = 'failed')::int as failed,
              count(*) filter (where outcome = 'held')::int as held,
              max(finished_at) as last_finished
         from rule_runs where slot = $1 and kind = 'run'`,
      [slot.toISOString()],
    )
  ).rows;
  const [activity] = (
    await dbh.sql.query<Record<string, unknown>>(
      `select count(*) filter (where action like 'turn_off_%' and state = 'done')::int as actions,
              count(*) filter (where action = 'error')::int as errors,
              max(created_at) filter (where action like 'turn_off_%' and state = 'done') as last_action
         from rule_activity where slot = $1`,
      [slot.toISOString()],
    )
  ).rows;
  const [snapshots] = (
    await dbh.sql.query<Record<string, unknown>>(
      `select count(*)::int as snapshots from account_snapshots where slot = $1`,
      [slot.toISOString()],
    )
  ).rows;
  return {
    runs: Number(runs!.runs),
    finished: Number(runs!.finished),
    failed: Number(runs!.failed),
    held: Number(runs!.held),
    lastFinishedAt: ms(runs!.last_finished),
    lastActionAt: ms(activity!.last_action),
    actions: Number(activity!.actions),
    errors: Number(activity!.errors),
    snapshots: Number(snapshots!.snapshots),
  };
}
