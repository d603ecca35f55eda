/** An undo's claim on a turn-off and the exemptions it leaves: a rule's objects it no longer touches. */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleActivity, ruleExemptions } from '../db/schema/index';

export function undoAndExemptionsOf(db: Database) {
  return {
    /** Claims the undo of a turn-off: of two users pressing Undo at once, one gets true. */
    async claimUndo(entryId: number, at: Date): Promise<boolean> {
      const claimed = await db
        .update(ruleActivity)
        .set({ undoneAt: at })
        .where(and(eq(ruleActivity.id, entryId), isNull(ruleActivity.undoneAt)))
        .returning({ undoneAt: ruleActivity.undoneAt });
      return claimed.length > 0;
    },

    /** The rule leaves the object alone from now on (an undo's exemption); kept when it already does. */
    async exempt(ruleId: number, objectId: string, createdBy: number | null): Promise<void> {
      await db.insert(ruleExemptions).values({ ruleId, objectId, createdBy }).onConflictDoNothing();
    },

    /** The rule may act on the object again; false when it was not exempt. */
    async removeExemption(ruleId: number, objectId: string): Promise<boolean> {
      const removed = await db
        .delete(ruleExemptions)
        .where(and(eq(ruleExemptions.ruleId, ruleId), eq(ruleExemptions.objectId, objectId)))
        .returning();
      return removed.length > 0;
    },

    /** Each rule's exempt objects (a rule with none has no entry). */
    async exemptObjectsOf(ruleIds: number[]): Promise<Map<number, Set<string>>> {
      const exempt = new Map<number, Set<string>>();
      if (!ruleIds.length) return exempt;
      const rows = await db
        .select({ ruleId: ruleExemptions.ruleId, objectId: ruleExemptions.objectId })
        .from(ruleExemptions)
        .where(inArray(ruleExemptions.ruleId, ruleIds));
      for (const row of rows) {
        const own = exempt.get(row.ruleId);
        if (own) own.add(row.objectId);
        else exempt.set(row.ruleId, new Set([row.objectId]));
      }
      return exempt;
    },
  };
}
