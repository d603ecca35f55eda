/** How a claimed switch ends: confirmed done (on the engine's clock) or turned into an error entry. */
import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleActivity } from '../db/schema/index';
import type { ActivityRow } from './entryTypes';

export function claimOutcomesOf(db: Database) {
  return {
    /**
     * Confirms switches made at `at`, the engine's clock: the cool-down, the revive window and the
     * flapping alert compare these times with the engine's now, so both come from one clock.
     */
    async markDone(ids: number[], at: Date): Promise<void> {
      if (!ids.length) return;
      await db.update(ruleActivity).set({ state: 'done', createdAt: at }).where(inArray(ruleActivity.id, ids));
    },

    /**
     * Confirms turn-offs whose sending was not seen to end (the run's process stopped) and that the
     * ad platform shows made, each reason saying how it was confirmed.
     */
    async confirmTurnOffs(entries: ActivityRow[], at: Date, how: string): Promise<void> {
      for (const entry of entries)
        await db
          .update(ruleActivity)
          .set({ state: 'done', createdAt: at, reason: { ...entry.reason, Confirmed: how } })
          .where(and(eq(ruleActivity.id, entry.id), eq(ruleActivity.state, 'pending')));
    },

    /** A switch that did not happen becomes an error entry saying so (and frees its claim). */
    async markFailed(entry: ActivityRow, error: string, at: Date): Promise<void> {
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
    },
  };
}
