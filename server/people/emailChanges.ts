/**
 * E-mail changes: never applied at once. A single-use token, good for 24 hours and stored only as
 * its hash, is mailed to the new address; confirming it sets the address and spends the account's
 * outstanding reset links. Asking again replaces any earlier request of the same account; a
 * password change or reset, a deactivation or a cancel withdraws it.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { emailChanges, passwordResets, users } from '../db/schema/index';
import { actorName, describeChanges, recordAudit, type AuditActor } from '../audit/log';
import { EMAIL_CHANGE_LIFETIME_MS, PEOPLE_MESSAGES } from '../../shared/people';
import { hashLinkSecret, newLinkSecret } from './secrets';
import { assertEmailFree, catchingEmailRace, normaliseEmail } from './team';
import type { FastifyBaseLogger } from 'fastify';
import { PEOPLE_ACCESS } from '../../shared/permissions';
import { notFound, permissionDenied, ValidationError } from '../http/errors';
import { assertMayManageUser } from './access';
import type { PeopleDeps } from './deps';
import { emailChangedMail } from './mails';
import { cancelEmailChange, findPendingEmailChange } from './pendingEmailChanges';
import { auditActorOf, findUserById, loadAuthUser, type AuthUser, type UserRow } from './users';

/** Records the request (audited) and answers the token to mail to the new address. */
export async function createEmailChange(
  db: Database,
  requestedBy: AuditActor,
  user: UserRow,
  rawEmail: string,
): Promise<string> {
  const newEmail = normaliseEmail(rawEmail);
  await assertEmailFree(db, newEmail, user.id);
  const token = newLinkSecret();
  await db.transaction(async (tx) => {
    await tx.delete(emailChanges).where(and(eq(emailChanges.userId, user.id), isNull(emailChanges.usedAt)));
    await tx.insert(emailChanges).values({
      tokenHash: hashLinkSecret(token),
      userId: user.id,
      newEmail,
      requestedBy: requestedBy.id,
      expiresAt: new Date(Date.now() + EMAIL_CHANGE_LIFETIME_MS),
    });
    await recordAudit(tx, requestedBy, {
      action: `Requested e-mail change of user ${actorName(auditActorOf(user))}`,
      changesText: `email: ${user.email} → ${newEmail} (until confirmed from the new address)`,
    });
  });
  return token;
}

/** The mail could not be sent: the token was never delivered, so it must not stay valid. */
export async function withdrawEmailChange(db: Database, token: string): Promise<void> {
  await db.delete(emailChanges).where(eq(emailChanges.tokenHash, hashLinkSecret(token)));
}

const tokenError = (message: string) => new ValidationError({ token: [message] });

interface ConfirmedEmailChange {
  userId: number;
  oldEmail: string;
  newEmail: string;
}

/** Spends the token and gives the (still active) user the new address. The caller ends their sessions. */
async function confirmEmailChange(db: Database, token: string): Promise<ConfirmedEmailChange> {
  const tokenHash = hashLinkSecret(token);
  const [change] = await db.select().from(emailChanges).where(eq(emailChanges.tokenHash, tokenHash));
  if (!change) throw tokenError(PEOPLE_MESSAGES.emailChangeInvalid);
  if (change.usedAt) throw tokenError(PEOPLE_MESSAGES.emailChangeUsed);
  if (change.expiresAt.getTime() <= Date.now()) throw tokenError(PEOPLE_MESSAGES.emailChangeExpired);
  await assertEmailFree(db, change.newEmail, change.userId);

  return catchingEmailRace(() =>
    db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(emailChanges)
        .set({ usedAt: sql`now()` })
        .where(and(eq(emailChanges.tokenHash, tokenHash), isNull(emailChanges.usedAt)))
        .returning();
      if (!claimed) throw tokenError(PEOPLE_MESSAGES.emailChangeUsed);
      const [before] = await tx.select().from(users).where(eq(users.id, claimed.userId)).for('update');
      if (!before?.isActive) throw tokenError(PEOPLE_MESSAGES.emailChangeInvalid);
      const [after] = await tx
        .update(users)
        .set({ email: claimed.newEmail })
        .where(eq(users.id, before.id))
        .returning();
      // A reset link mailed to the old address must not take the account back.
      await tx
        .update(passwordResets)
        .set({ usedAt: sql`now()` })
        .where(and(eq(passwordResets.userId, before.id), isNull(passwordResets.usedAt)));
      await recordAudit(tx, auditActorOf(after!), {
        action: `Confirmed e-mail change of user ${actorName(auditActorOf(after!))}`,
        changesText: describeChanges({ email: [before.email, after!.email] }),
      });
      return { userId: before.id, oldEmail: before.email, newEmail: after!.email };
    }),
  );
}

/** The confirmation link, and the change still waiting as its owner or a manager of the account sees it. */
export function createEmailChangeStore(db: Database, { tokens, mailer }: Pick<PeopleDeps, 'tokens' | 'mailer'>) {
  /** The new address takes effect; every session of the account ends and the old address is told. */
  async function confirm(token: string, log: FastifyBaseLogger) {
    const { userId, oldEmail, newEmail } = await confirmEmailChange(db, token);
    await tokens.endSessions(userId, 'email');
    void mailer
      .send(emailChangedMail(oldEmail, newEmail))
      .catch((error) => log.error({ err: error }, 'e-mail changed notice failed'));
    return { detail: 'E-mail address changed. Sign in with the new address.', email: newEmail };
  }

  /** One's own account, or one the actor may manage (add_edit_users and every access it holds). */
  async function accountFor(actor: AuthUser, id: number): Promise<UserRow> {
    if (id !== actor.id) {
      if (!actor.permissions.has(PEOPLE_ACCESS.manageMembers)) throw permissionDenied();
      const target = await loadAuthUser(db, id);
      if (!target) throw notFound();
      assertMayManageUser(actor, target);
    }
    const user = await findUserById(db, id);
    if (!user) throw notFound();
    return user;
  }

  async function pendingOf(actor: AuthUser, id: number) {
    const user = await accountFor(actor, id);
    return { pending: (await findPendingEmailChange(db, user.id)) ?? null };
  }

  async function withdraw(actor: AuthUser, id: number): Promise<void> {
    const user = await accountFor(actor, id);
    if (!(await cancelEmailChange(db, actor, user))) throw notFound(PEOPLE_MESSAGES.noPendingEmailChange);
  }

  return { confirm, pendingOf, withdraw };
}

export type EmailChangeStore = ReturnType<typeof createEmailChangeStore>;
