/** The reads a run's pipeline phases make of rule_activity: pending claims to retry, recent turn-offs, entries by id. */
import { and, eq, gte, inArray, isNull, or } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleActivity } from '../db/schema/index';
import { TURN_OFF_ACTIONS, type ActivityRow } from './entryTypes';

export function pipelineReadsOf(db: Database) {
  /** Entries of these actions that these rules' slot claimed (pending) and no attempt confirmed: a retry sends them again. */
  function pendingEntriesOf(ruleIds: number[], slot: Date, actions: readonly string[]): Promise<ActivityRow[]> {
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
   * `pendingTurnOffs` of many rules of one slot. Only turn-offs: a held run's alert or a digest
   * claimed for the same hour is pending too until its mail is out, and is no status change.
   */
  const pendingTurnOffsOf = (ruleIds: number[], slot: Date) => pendingEntriesOf(ruleIds, slot, TURN_OFF_ACTIONS);

  return {
    pendingEntriesOf,
    pendingTurnOffsOf,

    /** Turn-offs of this rule's slot claimed by an earlier attempt that did not live to confirm them. */
    pendingTurnOffs: (ruleId: number, slot: Date) => pendingTurnOffsOf([ruleId], slot),

    /**
     * Objects turned off since a snapshot was taken, or being turned off (a pending claim, whenever it
     * was made): the snapshot's statuses are stale for them.
     */
    async turnedOffSince(objectIds: string[], since: Date): Promise<Set<string>> {
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
    },

    /** One entry, whatever its state. */
    async entryById(id: number): Promise<ActivityRow | undefined> {
      const [entry] = await db.select().from(ruleActivity).where(eq(ruleActivity.id, id));
      return entry;
    },

    /** The action and reason of each of these entries (a revive reads the turn-offs it may reverse). */
    reasonsOf: (ids: number[]) =>
      db
        .select({ id: ruleActivity.id, reason: ruleActivity.reason, action: ruleActivity.action })
        .from(ruleActivity)
        .where(inArray(ruleActivity.id, ids)),

    /**
     * Revives of the rule's slot still pending; with a run id, only that run's (its own earlier
     * attempt's: a Run now racing the scheduled run leaves their claims to it).
     */
    pendingRevives: (ruleId: number, slot: Date, runId: number | null) =>
      db
        .select()
        .from(ruleActivity)
        .where(
          and(
            eq(ruleActivity.ruleId, ruleId),
            eq(ruleActivity.slot, slot),
            eq(ruleActivity.action, 'revive_ad'),
            eq(ruleActivity.state, 'pending'),
            runId === null ? undefined : eq(ruleActivity.runId, runId),
          ),
        ),
  };
}
