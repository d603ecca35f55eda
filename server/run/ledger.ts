/**
 * The rule_runs ledger: one row per (rule, slot, kind) taken up. A slot that is done (or was
 * folded into a later catch-up run) is never run again, whoever enqueues it and however often.
 * Every write of rule_runs goes through this store: claims, heartbeats, take-overs of silent runs,
 * finishes, skipped and superseded slots, and the decisions on held runs.
 */
import { and, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
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

/** One rule's slot to take up in a batch claim (`claimRuns`). */
export interface RunClaim {
  ruleId: number;
  trigger?: string;
}

/** A running attempt whose process has not renewed it for `ms` (runHeartbeat.ts). */
const silentFor = (ms: number) =>
  sql`coalesce(${ruleRuns.heartbeatAt}, ${ruleRuns.startedAt}) < now() - ${ms} * interval '1 millisecond'`;

/** How an attempt ends, for `finishRun` / `finishRuns`. */
export interface RunFinish {
  status: Exclude<RunStatus, 'running'>;
  note?: string;
  error?: string;
  record?: RunRecord;
}

export type RunRow = typeof ruleRuns.$inferSelect;

/** A running attempt taken over from a process gone silent (orphanedRuns.ts). */
export type SilentRun = Pick<RunRow, 'id' | 'ruleId' | 'slot' | 'kind' | 'trigger'>;

export const takenKey = (ruleId: number, kind: string, slot: Date) =>
  `${ruleId}|${kind}|${new Date(slot).toISOString()}`;

/** Taking up slots: claims (one or a batch), the heartbeats that keep them, take-overs of silent runs. */
function runClaimsOf(db: Database) {
  /**
   * `claimRun` for many rules of one slot in one statement (a second one only when some were not
   * taken): the answers are in the order of `claims`.
   */
  async function claimRuns(slot: Date, kind: RunKind, claims: RunClaim[], silentForMs: number): Promise<ClaimResult[]> {
    if (!claims.length) return [];
    const taken = await db
      .insert(ruleRuns)
      .values(
        claims.map((c) => ({
          ruleId: c.ruleId,
          slot,
          kind,
          status: 'running',
          outcome: 'running',
          trigger: c.trigger ?? null,
          heartbeatAt: sql`now()`,
        })),
      )
      .onConflictDoUpdate({
        target: [ruleRuns.ruleId, ruleRuns.slot, ruleRuns.kind],
        set: {
          status: 'running',
          outcome: 'running',
          attempts: sql`${ruleRuns.attempts} + 1`,
          startedAt: sql`now()`,
          heartbeatAt: sql`now()`,
          error: null,
        },
        setWhere: or(eq(ruleRuns.status, 'failed'), and(eq(ruleRuns.status, 'running'), silentFor(silentForMs))),
      })
      .returning({ ruleId: ruleRuns.ruleId, id: ruleRuns.id });
    const claimed = new Map(taken.map((r) => [r.ruleId, r.id]));
    const others = claims.filter((c) => !claimed.has(c.ruleId)).map((c) => c.ruleId);
    const existing = others.length
      ? await db
          .select({ ruleId: ruleRuns.ruleId, status: ruleRuns.status, id: ruleRuns.id })
          .from(ruleRuns)
          .where(and(inArray(ruleRuns.ruleId, others), eq(ruleRuns.slot, slot), eq(ruleRuns.kind, kind)))
      : [];
    const byRule = new Map(existing.map((r) => [r.ruleId, r]));
    return claims.map((c): ClaimResult => {
      const id = claimed.get(c.ruleId);
      if (id !== undefined) return { claim: 'claimed', id };
      const row = byRule.get(c.ruleId);
      return { claim: row?.status === 'running' ? 'busy' : 'finished', id: row?.id ?? null };
    });
  }

  return {
    /**
     * Takes the slot for this attempt. 'finished': it was done (or folded into a catch-up) before;
     * 'busy': another attempt is running it and its process has renewed it (runHeartbeat.ts) within
     * `silentForMs` (a process that died mid-run is taken over once it has been that silent, as
     * pg-boss retries its job). Silence is measured on the database's clock, the same for every process.
     */
    async claimRun(
      ruleId: number,
      slot: Date,
      kind: RunKind,
      silentForMs: number,
      trigger?: string,
    ): Promise<ClaimResult> {
      const [result] = await claimRuns(slot, kind, [{ ruleId, trigger }], silentForMs);
      return result!;
    },
    claimRuns,

    /** Renews the running attempts of this process (runHeartbeat.ts): they are not silent. */
    async renewHeartbeats(runIds: number[]): Promise<void> {
      await db
        .update(ruleRuns)
        .set({ heartbeatAt: sql`now()` })
        .where(and(inArray(ruleRuns.id, runIds), eq(ruleRuns.status, 'running')));
    },

    /**
     * Takes over up to `limit` running attempts silent for longer than their kind allows (a Run now or
     * an approval: `manualMs`; any: `scheduledMs`), in one conditional update: of two processes
     * sweeping at once, each run goes to one.
     */
    takeOverSilentRuns(silence: { manualMs: number; scheduledMs: number }, limit: number): Promise<SilentRun[]> {
      const candidates = db
        .select({ id: ruleRuns.id })
        .from(ruleRuns)
        .where(
          and(
            eq(ruleRuns.status, 'running'),
            or(
              and(inArray(ruleRuns.kind, ['manual', 'approval']), silentFor(silence.manualMs)),
              silentFor(silence.scheduledMs),
            ),
          ),
        )
        .limit(limit)
        .for('update', { skipLocked: true });
      return db
        .update(ruleRuns)
        .set({ heartbeatAt: sql`now()`, attempts: sql`${ruleRuns.attempts} + 1` })
        .where(and(inArray(ruleRuns.id, candidates), eq(ruleRuns.status, 'running')))
        .returning({
          id: ruleRuns.id,
          ruleId: ruleRuns.ruleId,
          slot: ruleRuns.slot,
          kind: ruleRuns.kind,
          trigger: ruleRuns.trigger,
        });
    },
  };
}

/** How attempts end: finished, superseded by a catch-up, skipped; and old records pruned. */
function runEndingsOf(db: Database) {
  /**
   * Ends the attempts of many rules of one slot in one statement, each with its own status, note,
   * outcome and record (a fetched batch finishes together). Fields a record leaves out keep their value.
   */
  async function finishRuns(slot: Date, kind: RunKind, finishes: (RunFinish & { ruleId: number })[]): Promise<void> {
    if (!finishes.length) return;
    const rows = finishes.map(({ ruleId, status, note, error, record = {} }) => ({
      rule_id: ruleId,
      status,
      note: note ?? null,
      error: error ?? null,
      outcome: record.outcome ?? (status === 'failed' ? 'failed' : 'done'),
      trigger: record.trigger ?? null,
      counts: record.counts ?? null,
      details: record.details ?? null,
      has_details: record.details !== undefined,
      snapshot_id: record.snapshotId ?? null,
      has_snapshot: record.snapshotId !== undefined,
    }));
    // The rule ids are named as well as joined: the primary key then finds the rows, rather than
    // the planner hashing every run of the slot (thousands, in a busy slot) for each batch.
    await db.execute(sql`
      update rule_runs set
        status = x.status, note = x.note, error = x.error, finished_at = now(), outcome = x.outcome,
        trigger = coalesce(x.trigger, rule_runs.trigger),
        counts = coalesce(x.counts, rule_runs.counts),
        details = case when x.has_details then x.details else rule_runs.details end,
        snapshot_id = case when x.has_snapshot then x.snapshot_id else rule_runs.snapshot_id end
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(
        rule_id integer, status text, note text, error text, outcome text, trigger text,
        counts jsonb, details jsonb, has_details boolean, snapshot_id integer, has_snapshot boolean)
      where ${inArray(
        ruleRuns.ruleId,
        rows.map((r) => r.rule_id),
      )} and rule_runs.rule_id = x.rule_id
        and rule_runs.slot = ${slot.toISOString()}::timestamptz and rule_runs.kind = ${kind}`);
  }

  return {
    async finishRun(ruleId: number, slot: Date, kind: RunKind, outcome: RunFinish): Promise<void> {
      await finishRuns(slot, kind, [{ ruleId, ...outcome }]);
    },
    finishRuns,

    /** Missed slots of today that a later catch-up run covered, for every run of a batch: one statement. */
    async supersedeAll(kind: RunKind, runs: { ruleId: number; slots: Date[]; note: string }[]): Promise<void> {
      const values = runs.flatMap(({ ruleId, slots, note }) =>
        slots.map((slot) => ({ ruleId, slot, kind, status: 'superseded', note, finishedAt: new Date() })),
      );
      if (!values.length) return;
      await db.insert(ruleRuns).values(values).onConflictDoNothing();
    },

    /** Scheduled runs not run (push's floor, ../push/floor.ts): each slot recorded done and skipped, with why. */
    async recordSkippedRuns(skipped: { ruleId: number; slot: Date }[], note: string): Promise<void> {
      const rows = skipped.map(({ ruleId, slot }) => ({
        ruleId,
        slot,
        kind: 'run',
        status: 'done',
        outcome: 'skipped',
        trigger: 'schedule',
        note,
        finishedAt: new Date(),
      }));
      for (let i = 0; i < rows.length; i += 1000)
        await db
          .insert(ruleRuns)
          .values(rows.slice(i, i + 1000))
          .onConflictDoNothing();
    },

    /** Run records older than `before` go (the ledger only ever looks at today's slots). */
    async pruneRuns(before: Date): Promise<void> {
      await db.delete(ruleRuns).where(and(lt(ruleRuns.slot, before), sql`${ruleRuns.status} <> 'running'`));
    },
  };
}

/** The ledger's reads: the slots taken up, one run record. */
function ledgerReadsOf(db: Database) {
  return {
    /** `${ruleId}|${kind}|${iso}` of every slot taken up since `since`, in any state. */
    async takenSlots(since: Date): Promise<Set<string>> {
      const rows = await db
        .select({ ruleId: ruleRuns.ruleId, slot: ruleRuns.slot, kind: ruleRuns.kind })
        .from(ruleRuns)
        .where(gte(ruleRuns.slot, since));
      return new Set(rows.map((r) => takenKey(r.ruleId, r.kind, r.slot)));
    },

    /** One run record, whatever its kind and state. */
    async runById(runId: number): Promise<RunRow | undefined> {
      const [row] = await db.select().from(ruleRuns).where(eq(ruleRuns.id, runId));
      return row;
    },
  };
}

/** The decisions on held runs: one taken, or all of a rule's dismissed. */
function heldRunDecisionsOf(db: Database) {
  return {
    /** Takes the decision on a held run; the first caller wins (null for the others). */
    async decideHeldRun(runId: number, decision: 'approved' | 'dismissed', deciderId: number): Promise<RunRow | null> {
      const [row] = await db
        .update(ruleRuns)
        .set({ decision, decidedBy: deciderId, decidedAt: sql`now()` })
        .where(and(eq(ruleRuns.id, runId), eq(ruleRuns.outcome, 'held'), isNull(ruleRuns.decision)))
        .returning();
      return row ?? null;
    },

    /**
     * Dismisses the rule's held runs not decided yet (a rule switched off or to notify-only): the
     * statement, to await or to put in a WITH of the rule's save (a store on the save's transaction).
     */
    dismissHeldRuns: (ruleId: number, deciderId: number) =>
      db
        .update(ruleRuns)
        .set({ decision: 'dismissed', decidedBy: deciderId, decidedAt: sql`now()` })
        .where(and(eq(ruleRuns.ruleId, ruleId), eq(ruleRuns.outcome, 'held'), isNull(ruleRuns.decision))),
  };
}

export function createLedgerStore(db: Database) {
  return {
    ...runClaimsOf(db),
    ...runEndingsOf(db),
    ...ledgerReadsOf(db),
    ...heldRunDecisionsOf(db),
  };
}

export type LedgerStore = ReturnType<typeof createLedgerStore>;
