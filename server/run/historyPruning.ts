/**
 * What each scan prunes: account snapshots older than two days, run records and metric history
 * older than their kept days, and lead outcomes past their retention (server/outcomes/retention.ts).
 */
import type { Database } from '../db/client';
import { DEFAULT_HISTORY_DAYS } from '../history/reading';
import { pruneHistory } from '../history/store';
import { outcomeRetentionStart, pruneOutcomes } from '../outcomes/retention';
import type { SnapshotStore } from './accountSnapshots';
import { createLedgerStore } from './ledger';

export interface HistoryKept {
  /** Run records older than this many days are pruned at each scan (default 30). */
  runHistoryDays?: number;
  /** Metric history older than this many days is pruned at each scan (default 35). */
  historyDays?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const SNAPSHOT_DAYS = 2;
const DEFAULT_RUN_HISTORY_DAYS = 30;

const daysBefore = (at: Date, days: number) => new Date(at.getTime() - days * DAY_MS);

export async function pruneOldHistory(
  db: Database,
  snapshots: SnapshotStore,
  at: Date,
  kept: HistoryKept = {},
): Promise<void> {
  await snapshots.prune(daysBefore(at, SNAPSHOT_DAYS));
  await createLedgerStore(db).pruneRuns(daysBefore(at, kept.runHistoryDays ?? DEFAULT_RUN_HISTORY_DAYS));
  await pruneHistory(db, daysBefore(at, kept.historyDays ?? DEFAULT_HISTORY_DAYS));
  await pruneOutcomes(db, outcomeRetentionStart(at));
}
