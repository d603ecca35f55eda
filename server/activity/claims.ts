/** Claims of switches (turn-offs, turn-ons, revives) and of budget changes: pending entries, exactly once under a lock per object. */
import { and, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleActivity } from '../db/schema/index';
import {
  SWITCH_ACTIONS,
  TURN_OFF_ACTIONS,
  type ActivityRow,
  type BudgetClaim,
  type PlannedRevive,
  type PlannedTurnOn,
  type ReasonedAction,
  type RunScope,
} from './entryTypes';

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

/** Turn-offs claimed pending, for one run or a batch's runs. */
export function turnOffClaimsOf(db: Database) {
  /**
   * `claimTurnOffs` for the runs of a batch in one transaction: exactly once across runs, slots and
   * processes. Under a lock per object (taken in one order, so two claimers never deadlock) it
   * looks for a turn-off of the object that is still pending — in flight, whoever started it, until
   * it is settled — or confirmed since the run read its statuses, and claims only the others. The
   * look and the claim are one step for every claimer of the object, whatever its snapshot. Within
   * the batch the first run to plan an object claims it.
   */
  async function claimTurnOffsOf(runs: { scope: RunScope; actions: ReasonedAction[] }[]): Promise<ActivityRow[]> {
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

  return {
    /**
     * Claims each planned turn-off as a pending entry. An object already being turned off, or turned
     * off since the run read its statuses, is left out (see `claimTurnOffsOf`).
     */
    claimTurnOffs: (scope: RunScope, actions: ReasonedAction[]) => claimTurnOffsOf([{ scope, actions }]),
    claimTurnOffsOf,
  };
}

/** Switches back on claimed pending: a turn_on rule's switch-ons, and revives. */
export function turnOnClaimsOf(db: Database) {
  return {
    /**
     * Claims a turn_on rule's switch-ons, pending, in one transaction: under a lock per object (the
     * turn-offs' lock), an object with a switch in flight (pending) or made since the run read its
     * statuses — any rule's turn-off or turn-on, an undo, a revive — is left out.
     */
    async claimTurnOns(scope: RunScope, plans: PlannedTurnOn[]): Promise<ActivityRow[]> {
      const ids = plans.map((p) => p.objectId);
      return db.transaction(async (tx) => {
        await lockObjects(tx, 'turn-off', ids);
        const moved = await tx
          .select({ adId: ruleActivity.adId })
          .from(ruleActivity)
          .where(
            and(
              inArray(ruleActivity.adId, ids),
              inArray(ruleActivity.action, SWITCH_ACTIONS),
              or(eq(ruleActivity.state, 'pending'), gte(ruleActivity.createdAt, scope.readAt)),
            ),
          );
        const skip = new Set(moved.map((m) => m.adId));
        const values = plans
          .filter((p) => !skip.has(p.objectId))
          .map((p) => ({
            ruleId: scope.ruleId,
            folderId: scope.folderId,
            action: p.level === 'campaign' ? 'rule_turn_on_campaign' : 'rule_turn_on_ad',
            adId: p.objectId,
            objectType: p.level,
            reason: p.reason,
            state: 'pending',
            slot: scope.slot,
            snapshotId: scope.snapshotId,
            actorId: scope.actorId,
            runId: scope.runId ?? null,
            createdAt: scope.at,
          }));
        return values.length ? tx.insert(ruleActivity).values(values).returning() : [];
      });
    },

    /** Claims revives, pending: the unique index allows one per turn-off reversed, whoever gets there first. */
    async claimRevives(
      scope: Pick<RunScope, 'ruleId' | 'folderId' | 'slot' | 'actorId' | 'runId'>,
      revives: PlannedRevive[],
    ): Promise<ActivityRow[]> {
      if (!revives.length) return [];
      return db
        .insert(ruleActivity)
        .values(
          revives.map((d) => ({
            ruleId: scope.ruleId,
            folderId: scope.folderId,
            action: 'revive_ad',
            adId: d.objectId,
            objectType: 'ad',
            reason: d.reason,
            state: 'pending',
            slot: scope.slot,
            actorId: scope.actorId,
            runId: scope.runId ?? null,
            reversesId: d.reverses,
          })),
        )
        .onConflictDoNothing()
        .returning();
    },
  };
}

/** A budget change's claim, and the reads of earlier raises its checks make. */
export function budgetClaimsOf(db: Database) {
  return {
    /**
     * Claims one budget change, pending, in the caller's transaction (which holds the object's lock
     * and read its history); undefined when the unique indexes already have it.
     */
    async claimBudgetChange(tx: Pick<Database, 'insert'>, claim: BudgetClaim): Promise<ActivityRow | undefined> {
      const { scope } = claim;
      const [entry] = await tx
        .insert(ruleActivity)
        .values({
          ruleId: scope.ruleId,
          folderId: scope.folderId,
          action: claim.action,
          adId: claim.objectId,
          objectType: claim.objectType,
          reason: claim.reason,
          state: 'pending',
          slot: scope.slot,
          snapshotId: scope.snapshotId,
          actorId: scope.actorId,
          runId: scope.runId ?? null,
          createdAt: scope.at,
          budgetBefore: claim.before,
          budgetAfter: claim.after,
          reversesId: claim.reverses,
        })
        .onConflictDoNothing()
        .returning();
      return entry;
    },

    /**
     * A raising rule's raises since `since` that are done, not undone and not restored yet, for the
     * roll-backs it may owe.
     */
    raisesToRollBack(ruleId: number, since: Date): Promise<ActivityRow[]> {
      const restores = sql`(select 1 from ${ruleActivity} r where r.reverses_id = ${ruleActivity.id} and r.action = 'restore_budget')`;
      return db
        .select()
        .from(ruleActivity)
        .where(
          and(
            eq(ruleActivity.ruleId, ruleId),
            eq(ruleActivity.action, 'raise_budget'),
            eq(ruleActivity.state, 'done'),
            gte(ruleActivity.createdAt, since),
            isNull(ruleActivity.undoneAt),
            sql`not exists ${restores}`,
          ),
        );
    },

    /** The daily budget (cents) each folder's rules added since `since`, claimed or made. */
    async budgetAddedSince(folderIds: number[], since: Date): Promise<Map<number, number>> {
      if (!folderIds.length) return new Map();
      const rows = await db
        .select({
          folderId: ruleActivity.folderId,
          added: sql<string>`coalesce(sum(${ruleActivity.budgetAfter} - ${ruleActivity.budgetBefore}), 0)`,
        })
        .from(ruleActivity)
        .where(
          and(
            inArray(ruleActivity.folderId, folderIds),
            eq(ruleActivity.action, 'raise_budget'),
            inArray(ruleActivity.state, ['pending', 'done']),
            gte(ruleActivity.createdAt, since),
          ),
        )
        .groupBy(ruleActivity.folderId);
      return new Map(rows.map((r) => [r.folderId!, Number(r.added)]));
    },
  };
}
