/**
 * The rule_runs ledger: one row per (rule, slot, kind) taken up. A slot that is done (or was
 * folded into a later catch-up run) is never run again, whoever enqueues it and however often.
 */
import { and, eq, gte, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleRuns } from '../db/schema/index';

export type RunKind = 'run' | 'alert' | 'manual';
export type RunStatus = 'running' | 'done' | 'failed' | 'superseded';

export type Claim = 'claimed' | 'finished' | 'busy';

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
): Promise<Claim> {
  const staleBefore = new Date(Date.now() - staleAfterMs);
  const rows = await db
    .insert(ruleRuns)
    .values({ ruleId, slot, kind, status: 'running' })
    .onConflictDoUpdate({
      target: [ruleRuns.ruleId, ruleRuns.slot, ruleRuns.kind],
      set: { status: 'running', attempts: sql`${ruleRuns.attempts} + 1`, startedAt: sql`now()`, error: null },
      setWhere: or(
        eq(ruleRuns.status, 'failed'),
        and(eq(ruleRuns.status, 'running'), lt(ruleRuns.startedAt, staleBefore)),
      ),
    })
    .returning({ status: ruleRuns.status });
  if (rows.length) return 'claimed';
  const [row] = await db
    .select({ status: ruleRuns.status })
    .from(ruleRuns)
    .where(and(eq(ruleRuns.ruleId, ruleId), eq(ruleRuns.slot, slot), eq(ruleRuns.kind, kind)));
  return row?.status === 'running' ? 'busy' : 'finished';
}

export async function finishRun(
  db: Database,
  ruleId: number,
  slot: Date,
  kind: RunKind,
  outcome: { status: Exclude<RunStatus, 'running'>; note?: string; error?: string },
): Promise<void> {
  await db
    .update(ruleRuns)
    .set({ status: outcome.status, note: outcome.note ?? null, error: outcome.error ?? null, finishedAt: sql`now()` })
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
