/** Password reset by mail: a single-use token good for one hour; using it ends every session. */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { passwordResets, users } from '../db/schema/index';
import { recordAudit } from '../audit/log';
import { hashPassword } from '../auth/passwords';
import { ValidationError } from '../http/errors';
import { PEOPLE_MESSAGES, RESET_LIFETIME_MS } from '../../shared/people';
import { hashLinkSecret, newLinkSecret } from './secrets';
import { withdrawPendingEmailChanges } from './pendingEmailChanges';
import type { FastifyBaseLogger } from 'fastify';
import { clearFailures } from '../auth/loginFailures';
import type { PeopleDeps } from './deps';
import { passwordResetLink, passwordResetMail } from './mails';
import { auditActorOf, findUserByEmail, findUserById } from './users';

async function createPasswordReset(db: Database, userId: number): Promise<string> {
  const token = newLinkSecret();
  await db.insert(passwordResets).values({
    tokenHash: hashLinkSecret(token),
    userId,
    expiresAt: new Date(Date.now() + RESET_LIFETIME_MS),
  });
  return token;
}

const tokenError = (message: string) => new ValidationError({ token: [message] });

/**
 * Sets the new password and spends the token (and any other outstanding one of the user); an
 * e-mail change of the account still waiting for confirmation is withdrawn. Answers the user id.
 */
async function completePasswordReset(db: Database, token: string, password: string): Promise<number> {
  const tokenHash = hashLinkSecret(token);
  const [reset] = await db.select().from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash));
  if (!reset) throw tokenError(PEOPLE_MESSAGES.resetInvalid);
  if (reset.usedAt) throw tokenError(PEOPLE_MESSAGES.resetUsed);
  if (reset.expiresAt.getTime() <= Date.now()) throw tokenError(PEOPLE_MESSAGES.resetExpired);
  const passwordHash = await hashPassword(password);

  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt)))
      .returning();
    if (!claimed) throw tokenError(PEOPLE_MESSAGES.resetUsed);
    const [user] = await tx
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, claimed.userId), eq(users.isActive, true)))
      .returning();
    if (!user) throw tokenError(PEOPLE_MESSAGES.resetInvalid);
    await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    await withdrawPendingEmailChanges(tx, user.id);
    await recordAudit(tx, auditActorOf(user), { action: 'Reset own password by e-mail link' });
    return user.id;
  });
}

export function createPasswordResetStore(db: Database, { tokens, mailer, publicUrl }: PeopleDeps) {
  /**
   * Mails a reset link to an active account's address, after the caller has been answered: the
   * answer and its time are the same whether or not the address has an account. `log` is the
   * request's, for a failed mail.
   */
  async function request(email: string, log: FastifyBaseLogger): Promise<void> {
    const user = await findUserByEmail(db, email);
    if (!user?.isActive) return;
    const token = await createPasswordReset(db, user.id);
    void mailer
      .send(passwordResetMail(user.email, passwordResetLink(publicUrl, token)))
      .catch((error: unknown) => log.error({ err: error }, 'password reset mail failed'));
  }

  /** Every session of the account ends; its sign-in failures are forgotten (the owner proved who they are). */
  async function complete(token: string, password: string): Promise<void> {
    const userId = await completePasswordReset(db, token, password);
    await tokens.endSessions(userId, 'password');
    const user = await findUserById(db, userId);
    if (user) await clearFailures(db, user.email);
  }

  return { request, complete };
}

export type PasswordResetStore = ReturnType<typeof createPasswordResetStore>;
