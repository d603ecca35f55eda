/** Writing rule-activity entries: claims of turn-offs, their outcome, errors and alerts. */
import { and, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleActivity } from '../db/schema/index';
import type { PlannedAction } from '../judgement/evaluate';

export type ActivityRow = typeof ruleActivity.$inferSelect;

export const TURN_OFF_ACTIONS = ['turn_off_ad', 'turn_off_campaign'] as const;
export const TURN_ON_FOR: Record<string, 'turn_on_ad' | 'turn_on_campaign'> = {
  turn_off_ad: 'turn_on_ad',
  turn_off_campaign: 'turn_on_campaign',
};

/**
 * Locks objects for the rest of a transaction, one advisory lock per (kind, object id), taken in one
 * order so that two claimers never deadlock. A kind ('turn-off', 'budget' …) names what is claimed:
 * claimers of one kind wait for each other, others do not.
 */
export async function lockObjects(tx: Pick<Database, 'execute'>, kind: string, ids: readonly string[]): Promise<void> {
  await tx.execute(sql`
    select pg_advisory_xact_lock(k) from (
      select distinct hashtextextended(${`${kind} `} || id, 0) as k
      from unnest(array[${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}]::text[]) as id order by 1
    ) as objects`);
}

export interface RunScope {
  ruleId: number;
  folderId: number;
  slot: Date;
  snapshotId: number | null;
  actorId: number | null;
  runId?: number | null;
  /** The engine's now: a claim is stamped with it, as is its confirmation (markDone). */
  at: Date;
  /**
   * When the statuses the run decided on were read (its snapshot's time): a turn-off of the same
   * object confirmed since then is one this run did not see, so it does not claim the object again.
   */
  readAt: Date;
}

/** A planned turn-off with the reason its activity entry will carry. */
export type ReasonedAction = PlannedAction & { reason: Record<string, string> };

/**
 * Claims each planned turn-off as a pending entry. An object already being turned off, or turned
 * off since the run read its statuses, is left out (see `claimTurnOffsOf`).
 */
export async function claimTurnOffs(db: Database, scope: RunScope, actions: ReasonedAction[]): Promise<ActivityRow[]> {
  return claimTurnOffsOf(db, [{ scope, actions }]);
}

/**
 * `claimTurnOffs` for the runs of a batch in one transaction: exactly once across runs, slots and
 * processes. Under a lock per object (taken in one order, so two claimers never deadlock) it
 * looks for a turn-off of the object that is still pending — in flight, whoever started it, until
 * it is settled — or confirmed since the run read its statuses, and claims only the others. The
 * look and the claim are one step for every claimer of the object, whatever its snapshot. Within
 * the batch the first run to plan an object claims it.
 */
export async function claimTurnOffsOf(
  db: Database,
  runs: { scope: RunScope; actions: ReasonedAction[] }[],
): Promise<ActivityRow[]> {
  const wanted: { scope: RunScope; action: ReasonedAction }[] = [];
  const seen = new Set<string>();
  for (const { scope, actions } of runs)
    for (const action of actions)
      if (!seen.has(action.objectId)) {
        seen.add(action.objectId);
        wanted.push({ scope, action });
      }
  if (!wanted.length) return [];
  const ids = wanted.map((w) => w.action.objectId);
  const earliestRead = new Date(Math.min(...wanted.map((w) => w.scope.readAt.getTime())));
  return db.transaction(async (tx) => {
    await lockObjects(tx, 'turn-off', ids);
    const existing = await tx
      .select({ adId: ruleActivity.adId, state: ruleActivity.state, createdAt: ruleActivity.createdAt })
      .from(ruleActivity)
      .where(
        and(
          inArray(ruleActivity.action, [...TURN_OFF_ACTIONS]),
          inArray(ruleActivity.adId, ids),
          isNull(ruleActivity.undoneAt),
          or(eq(ruleActivity.state, 'pending'), gte(ruleActivity.createdAt, earliestRead)),
        ),
      );
    const actedOn = (objectId: string, readAt: Date) =>
      existing.some((e) => e.adId === objectId && (e.state === 'pending' || e.createdAt >= readAt));
    const values = wanted
      .filter(({ scope, action }) => !actedOn(action.objectId, scope.readAt))
      .map(({ scope, action: a }) => ({
        ruleId: scope.ruleId,
        folderId: scope.folderId,
        action: a.action,
        adId: a.objectId,
        objectType: a.action === 'turn_off_campaign' ? 'campaign' : 'ad',
        reason: a.reason,
        state: 'pending',
        slot: scope.slot,
        snapshotId: scope.snapshotId,
        actorId: scope.actorId,
        runId: scope.runId ?? null,
        createdAt: scope.at,
      }));
    if (!values.length) return [];
    return tx.insert(ruleActivity).values(values).onConflictDoNothing().returning();
  });
}

/** Turn-offs of this rule's slot claimed by an earlier attempt that did not live to confirm them. */
export function pendingTurnOffs(db: Database, ruleId: number, slot: Date): Promise<ActivityRow[]> {
  return pendingTurnOffsOf(db, [ruleId], slot);
}

/**
 * `pendingTurnOffs` of many rules of one slot. Only turn-offs: a held run's alert or a digest
 * claimed for the same hour is pending too until its mail is out, and is no status change.
 */
export function pendingTurnOffsOf(db: Database, ruleIds: number[], slot: Date): Promise<ActivityRow[]> {
  return pendingEntriesOf(db, ruleIds, slot, TURN_OFF_ACTIONS);
}

/** Entries of these actions that these rules' slot claimed (pending) and no attempt confirmed: a retry sends them again. */
export function pendingEntriesOf(
  db: Database,
  ruleIds: number[],
  slot: Date,
  actions: readonly string[],
): Promise<ActivityRow[]> {
  if (!ruleIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(ruleActivity)
    .where(
      and(
        inArray(ruleActivity.ruleId, ruleIds),
        eq(ruleActivity.slot, slot),
        eq(ruleActivity.state, 'pending'),
        inArray(ruleActivity.action, [...actions]),
      ),
    );
}

/**
 * Objects turned off since a snapshot was taken, or being turned off (a pending claim, whenever it
 * was made): the snapshot's statuses are stale for them.
 */
export async function turnedOffSince(db: Database, objectIds: string[], since: Date): Promise<Set<string>> {
  if (!objectIds.length) return new Set();
  const rows = await db
    .select({ adId: ruleActivity.adId })
    .from(ruleActivity)
    .where(
      and(
        inArray(ruleActivity.action, [...TURN_OFF_ACTIONS]),
        inArray(ruleActivity.adId, objectIds),
        or(eq(ruleActivity.state, 'pending'), gte(ruleActivity.createdAt, since)),
        isNull(ruleActivity.undoneAt),
      ),
    );
  return new Set(rows.map((r) => r.adId!));
}

/**
 * Confirms switches made at `at`, the engine's clock: the cool-down, the revive window and the
 * flapping alert compare these times with the engine's now, so both come from one clock.
 */
export async function markDone(db: Database, ids: number[], at: Date): Promise<void> {
  if (!ids.length) return;
  await db.update(ruleActivity).set({ state: 'done', createdAt: at }).where(inArray(ruleActivity.id, ids));
}

/**
 * Confirms turn-offs whose sending was not seen to end (the run's process stopped) and that the
 * ad platform shows made, each reason saying how it was confirmed.
 */
export async function confirmTurnOffs(db: Database, entries: ActivityRow[], at: Date, how: string): Promise<void> {
  for (const entry of entries)
    await db
      .update(ruleActivity)
      .set({ state: 'done', createdAt: at, reason: { ...entry.reason, Confirmed: how } })
      .where(and(eq(ruleActivity.id, entry.id), eq(ruleActivity.state, 'pending')));
}

/** A turn-off that did not happen becomes an error entry saying so (and frees its claim). */
export async function markFailed(db: Database, entry: ActivityRow, error: string, at: Date): Promise<void> {
  const wanted = entry.action.replaceAll('_', ' ');
  await db
    .update(ruleActivity)
    .set({
      action: 'error',
      state: 'done',
      createdAt: at,
      reason: { ...entry.reason, Error: `Could not ${wanted}: ${error}` },
    })
    .where(eq(ruleActivity.id, entry.id));
}

export interface NewEntry {
  ruleId: number | null;
  folderId: number | null;
  action: string;
  adId?: string | null;
  objectType?: string | null;
  reason: Record<string, string>;
  slot?: Date | null;
  actorId?: number | null;
  runId?: number | null;
}

export async function recordEntry(db: Database, entry: NewEntry): Promise<ActivityRow> {
  const [row] = await recordEntries(db, [entry]);
  return row!;
}

/** Several finished entries in one statement, in order. */
export async function recordEntries(db: Database, entries: NewEntry[]): Promise<ActivityRow[]> {
  if (!entries.length) return [];
  return db
    .insert(ruleActivity)
    .values(
      entries.map((entry) => ({
        ruleId: entry.ruleId,
        folderId: entry.folderId,
        action: entry.action,
        adId: entry.adId ?? null,
        objectType: entry.objectType ?? null,
        reason: entry.reason,
        state: 'done',
        slot: entry.slot ?? null,
        actorId: entry.actorId ?? null,
        runId: entry.runId ?? null,
      })),
    )
    .returning();
}
