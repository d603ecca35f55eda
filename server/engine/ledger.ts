/**
 * The rule_runs ledger: one row per (rule, slot, kind) taken up. A slot that is done (or was
 * folded into a later catch-up run) is never run again, whoever enqueues it and however often.
 */
import { and, eq, gte, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleRuns } from '../db/schema/index';

export type RunKind = 'run' | 'alert' | 'manual' | 'approval';
export type RunStatus = 'running' | 'done' | 'failed' | 'superseded';

export type Claim = 'claimed' | 'finished' | 'busy';

/** The claim, and the run record's id (what activity entries and the runs API link to). */
export interface ClaimResult {
  claim: Claim;
  id: number | null;
}

/** What a finished run records about itself (runRecord.ts). */
export interface RunRecord {
  trigger?: string;
  outcome?: string;
  counts?: Record<string, number>;
  details?: unknown;
  snapshotId?: number | null;
}

/**
 * Takes the slot for this attempt. 'finished': it was done (or folded into a catch-up) before;
 * 'busy': another attempt is running it and has not been silent for longer than `staleAfterMs`
 * (a worker that died mid-run is taken over once its attempt is that old, as pg-boss retries it).
 */
export async function claimRun(
  db: Database,
  ruleId: number,
  slot: Date,
  kind: RunKind,
  staleAfterMs: number,
  trigger?: string,
): Promise<ClaimResult> {
  const staleBefore = new Date(Date.now() - staleAfterMs);
  const rows = await db
    .insert(ruleRuns)
    .values({ ruleId, slot, kind, status: 'running', outcome: 'running', trigger: trigger ?? null })
    .onConflictDoUpdate({
      target: [ruleRuns.ruleId, ruleRuns.slot, ruleRuns.kind],
      set: {
        status: 'running',
        outcome: 'running',
        attempts: sql`${ruleRuns.attempts} + 1`,
        startedAt: sql`now()`,
        error: null,
      },
      setWhere: or(
        eq(ruleRuns.status, 'failed'),
        and(eq(ruleRuns.status, 'running'), lt(ruleRuns.startedAt, staleBefore)),
      ),
    })
    .returning({ id: ruleRuns.id });
  if (rows.length) return { claim: 'claimed', id: rows[0]!.id };
  const [row] = await db
    .select({ status: ruleRuns.status, id: ruleRuns.id })
    .from(ruleRuns)
    .where(and(eq(ruleRuns.ruleId, ruleId), eq(ruleRuns.slot, slot), eq(ruleRuns.kind, kind)));
  return { claim: row?.status === 'running' ? 'busy' : 'finished', id: row?.id ?? null };
}

export async function finishRun(
  db: Database,
  ruleId: number,
  slot: Date,
  kind: RunKind,
  outcome: { status: Exclude<RunStatus, 'running'>; note?: string; error?: string; record?: RunRecord },
): Promise<void> {
  const record = outcome.record ?? {};
  await db
    .update(ruleRuns)
    .set({
      status: outcome.status,
      note: outcome.note ?? null,
      error: outcome.error ?? null,
      finishedAt: sql`now()`,
      outcome: record.outcome ?? (outcome.status === 'failed' ? 'failed' : 'done'),
      ...(record.trigger ? { trigger: record.trigger } : {}),
      ...(record.counts ? { counts: record.counts } : {}),
      ...(record.details !== undefined ? { details: record.details } : {}),
      ...(record.snapshotId !== undefined ? { snapshotId: record.snapshotId } : {}),
    })
    .where(and(eq(ruleRuns.ruleId, ruleId), eq(ruleRuns.slot, slot), eq(ruleRuns.kind, kind)));
}

/** Missed slots of today that a later catch-up run covered. */
export async function supersede(
  db: Database,
  ruleId: number,
  slots: Date[],
  kind: RunKind,
  note: string,
): Promise<void> {
  if (!slots.length) return;
  await db
    .insert(ruleRuns)
    .values(slots.map((slot) => ({ ruleId, slot, kind, status: 'superseded', note, finishedAt: new Date() })))
    .onConflictDoNothing();
}

/** `${ruleId}|${kind}|${iso}` of every slot taken up since `since`, in any state. */
export async function takenSlots(db: Database, since: Date): Promise<Set<string>> {
  const rows = await db
    .select({ ruleId: ruleRuns.ruleId, slot: ruleRuns.slot, kind: ruleRuns.kind })
    .from(ruleRuns)
    .where(gte(ruleRuns.slot, since));
  return new Set(rows.map((r) => takenKey(r.ruleId, r.kind, r.slot)));
}

export const takenKey = (ruleId: number, kind: string, slot: Date) =>
  `${ruleId}|${kind}|${new Date(slot).toISOString()}`;

/** Run records older than `before` go (the ledger only ever looks at today's slots). */
export async function pruneRuns(db: Database, before: Date): Promise<void> {
  await db.delete(ruleRuns).where(and(lt(ruleRuns.slot, before), sql`${ruleRuns.status} <> 'running'`));
}
