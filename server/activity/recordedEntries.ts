/** Entries written done at once: finished entries, held runs, flapping alerts and Meta's own pauses. */
import type { Database } from '../db/client';
import { ruleActivity } from '../db/schema/index';
import type { ActivityRow, NewEntry } from './entryTypes';

export function recordedEntriesOf(db: Database) {
  /** Several finished entries in one statement, in order. */
  async function recordEntries(entries: NewEntry[]): Promise<ActivityRow[]> {
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

  return {
    recordEntries,

    async recordEntry(entry: NewEntry): Promise<ActivityRow> {
      const [row] = await recordEntries([entry]);
      return row!;
    },

    /** A held run's entry (run_held) when no mail goes with it; null when the slot already has one. */
    async recordHeldRun(held: {
      ruleId: number;
      folderId: number;
      slot: Date;
      reason: Record<string, string>;
      runId: number;
    }): Promise<ActivityRow | null> {
      const [entry] = await db
        .insert(ruleActivity)
        .values({
          ruleId: held.ruleId,
          folderId: held.folderId,
          action: 'run_held',
          slot: held.slot,
          reason: held.reason,
          runId: held.runId,
        })
        .onConflictDoNothing()
        .returning();
      return entry ?? null;
    },

    /**
     * An object's flapping alert of a UTC day (`day`): not one rule's, any rules, undo or hand may
     * have switched it. Null when the day already has it (a unique index): whoever wrote it alerts.
     */
    async recordFlapping(flapping: {
      folderId: number;
      objectId: string;
      reason: Record<string, string>;
      day: Date;
      runId: number | null;
    }): Promise<ActivityRow | null> {
      const [entry] = await db
        .insert(ruleActivity)
        .values({
          ruleId: null,
          folderId: flapping.folderId,
          action: 'flapping',
          adId: flapping.objectId,
          reason: flapping.reason,
          slot: flapping.day,
          runId: flapping.runId,
        })
        .onConflictDoNothing()
        .returning();
      return entry ?? null;
    },

    /**
     * The pauses Meta made itself that a snapshot shows (paused_by_meta), in the caller's
     * transaction (which holds the objects' lock and read their last switches).
     */
    recordMetaPauses: (
      tx: Pick<Database, 'insert'>,
      input: {
        folderId: number;
        slot: Date;
        snapshotId: number;
        pauses: { objectId: string; objectType: string; reason: Record<string, string> }[];
      },
    ): Promise<ActivityRow[]> =>
      tx
        .insert(ruleActivity)
        .values(
          input.pauses.map((pause) => ({
            ruleId: null,
            folderId: input.folderId,
            action: 'paused_by_meta',
            adId: pause.objectId,
            objectType: pause.objectType,
            reason: pause.reason,
            slot: input.slot,
            snapshotId: input.snapshotId,
          })),
        )
        .returning(),
  };
}
