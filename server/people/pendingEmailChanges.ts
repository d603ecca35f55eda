/**
 * E-mail changes waiting for confirmation, seen and withdrawn from outside the confirmation flow
 * (emailChanges.ts): the account screen shows one and withdraws it; a password change or reset and
 * a deactivation withdraw them too.
 */
import { and, eq, isNull, or } from 'drizzle-orm';
import { actorName, recordAudit, type AuditActor } from '../audit/log';
import type { PendingEmailChangeDto } from '../../shared/people';
import type { Database } from '../db/client';
import { emailChanges, users } from '../db/schema/index';
import { auditActorOf, type UserRow } from './users';

/**
 * Withdraws the pending e-mail changes of an account (and, with `requestedBy`, those its owner
 * asked for on others): a password change or reset, a deactivation or a cancel leaves no path
 * that someone who once knew the password could still confirm. Answers how many were withdrawn.
 */
export async function withdrawPendingEmailChanges(
  db: Database,
  userId: number,
  options: { requestedBy?: boolean } = {},
): Promise<number> {
  const whose = options.requestedBy
    ? or(eq(emailChanges.userId, userId), eq(emailChanges.requestedBy, userId))
    : eq(emailChanges.userId, userId);
  const withdrawn = await db
    .delete(emailChanges)
    .where(and(whose, isNull(emailChanges.usedAt)))
    .returning({ userId: emailChanges.userId });
  return withdrawn.length;
}

/** The account's e-mail change waiting for confirmation, if any (expired ones included: they still show). */
export async function findPendingEmailChange(db: Database, userId: number): Promise<PendingEmailChangeDto | undefined> {
  const [row] = await db
    .select({ change: emailChanges, first: users.firstName, last: users.lastName })
    .from(emailChanges)
    .leftJoin(users, eq(users.id, emailChanges.requestedBy))
    .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt)));
  if (!row) return undefined;
  return {
    new_email: row.change.newEmail,
    requested_by: row.first === null ? null : [row.first, row.last].filter(Boolean).join(' '),
    created_at: row.change.createdAt.toISOString(),
    expires_at: row.change.expiresAt.toISOString(),
  };
}

/** Withdraws the account's pending change (audited); false when there was none. */
export async function cancelEmailChange(db: Database, actor: AuditActor, user: UserRow): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await withdrawPendingEmailChanges(tx, user.id))) return false;
    await recordAudit(tx, actor, { action: `Withdrew the e-mail change of user ${actorName(auditActorOf(user))}` });
    return true;
  });
}
