/** The engine's mail sent once: its entry claimed pending before it goes out, kept, withdrawn or marked sent. */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleActivity } from '../db/schema/index';
import type { ActivityRow, MailClaim, StoredMail } from './entryTypes';

export function mailClaimsOf(db: Database) {
  return {
    /**
     * Claims an engine mail before it goes out: its entry written pending (one per rule, slot and
     * kind: rule_activity_mail_once), or the one an earlier attempt wrote.
     */
    async claimMail(mail: MailClaim): Promise<ActivityRow> {
      const [claimed] = await db
        .insert(ruleActivity)
        .values({
          ruleId: mail.ruleId,
          folderId: mail.folderId,
          action: mail.action,
          slot: mail.slot,
          state: 'pending',
          reason: {},
          runId: mail.runId ?? null,
        })
        .onConflictDoNothing()
        .returning();
      if (claimed) return claimed;
      const where = and(
        eq(ruleActivity.ruleId, mail.ruleId),
        eq(ruleActivity.slot, mail.slot),
        eq(ruleActivity.action, mail.action),
      );
      return (await db.select().from(ruleActivity).where(where))[0]!;
    },

    /** Nothing to send after all: the mail's claim goes. */
    async withdrawMail(entryId: number): Promise<void> {
      await db.delete(ruleActivity).where(eq(ruleActivity.id, entryId));
    },

    /** Keeps the composed mail on its claim, so a retry sends exactly this one again. */
    async keepMail(entryId: number, mail: StoredMail, reason: Record<string, string>): Promise<ActivityRow> {
      const [updated] = await db
        .update(ruleActivity)
        .set({ mail, reason })
        .where(eq(ruleActivity.id, entryId))
        .returning();
      return updated!;
    },

    async markMailSent(entryId: number): Promise<ActivityRow> {
      const [done] = await db
        .update(ruleActivity)
        .set({ state: 'done' })
        .where(eq(ruleActivity.id, entryId))
        .returning();
      return done!;
    },
  };
}
