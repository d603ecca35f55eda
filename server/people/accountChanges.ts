/**
 * PATCH /api/user/{id}/ as a whole: who may change which account fields, the e-mail change that
 * waits for confirmation from the new address (one's own with the current password, someone
 * else's only by a superuser), and the sessions that end (docs/security.md).
 */
import { PEOPLE_MESSAGES } from '../../shared/people';
import { PEOPLE_ACCESS } from '../../shared/permissions';
import { actorName } from '../audit/log';
import { checkOwnPassword } from '../auth/passwordCheck';
import type { Database } from '../db/client';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, notFound, permissionDenied, ValidationError } from '../http/errors';
import { assertMayManageUser } from './access';
import type { PeopleDeps } from './deps';
import { createEmailChange, withdrawEmailChange } from './emailChanges';
import { emailChangeConfirmMail, emailChangeLink, emailChangeRequestedMail } from './mails';
import { assertEmailFree, normaliseEmail, updateUser, type AccountChange } from './team';
import { findUserById, loadAuthUser, type AuthUser, type UserDto, type UserRow } from './users';

export interface AccountChangeRequest extends AccountChange {
  /** Asked for here, in effect once confirmed from the new address. */
  email?: string;
  /** The caller's own password: needed to change their own e-mail address. */
  current_password?: string;
}

/** The user as they now are; with pending_email when a new address waits for confirmation. */
export type AccountChangeResult = UserDto & { pending_email?: string; detail?: string };

const passwordError = (message: string) => new ValidationError({ current_password: [message] });

/** PATCH /api/user/{id}/: `change(actor, userId, request, log)`; `log` is the request's, for mail failures. */
export function createAccountChanges(db: Database, { tokens, mailer, publicUrl }: PeopleDeps) {
  async function changeAccount(
    actor: AuthUser,
    userId: number,
    request: AccountChangeRequest,
    log: FastifyBaseLogger,
  ): Promise<AccountChangeResult> {
    const target = await findUserById(db, userId);
    if (!target) throw notFound();
    const { is_active, current_password, email, ...profile } = request;
    const self = target.id === actor.id;
    const changesProfile = email !== undefined || Object.values(profile).some((v) => v !== undefined);
    const changesActivity = is_active !== undefined && is_active !== target.isActive;
    const newEmail = email !== undefined && normaliseEmail(email) !== normaliseEmail(target.email) ? email : undefined;

    if (!self && changesProfile && !actor.permissions.has(PEOPLE_ACCESS.manageMembers)) throw permissionDenied();
    if (changesActivity && !actor.permissions.has(PEOPLE_ACCESS.activateMembers)) throw permissionDenied();
    if (self && is_active === false) throw new ValidationError({ is_active: [PEOPLE_MESSAGES.cannotDeactivateSelf] });
    if (!self && (changesProfile || changesActivity)) assertMayManageUser(actor, (await loadAuthUser(db, target.id))!);
    // The address is the key to the password reset: someone else's moves only with a superuser.
    if (newEmail !== undefined && !self && !actor.is_superuser)
      throw new ApiError(403, { detail: PEOPLE_MESSAGES.emailOfOthersSuperuserOnly });
    if (newEmail !== undefined && self) {
      if (!current_password) throw passwordError(PEOPLE_MESSAGES.currentPasswordRequired);
      await checkOwnPassword(db, target, current_password, 'current_password', PEOPLE_MESSAGES.currentPasswordWrong);
    }
    if (newEmail !== undefined) await assertEmailFree(db, normaliseEmail(newEmail), target.id);

    const pendingEmail = newEmail === undefined ? undefined : await requestEmailChange(actor, target, newEmail, log);
    const updated = await updateUser(db, actor, target, { ...profile, is_active });
    if (changesActivity && is_active === false) await tokens.endSessions(target.id, 'deactivated');
    if (pendingEmail === undefined) return updated;
    return {
      ...updated,
      pending_email: pendingEmail,
      detail: `A confirmation link was sent to ${pendingEmail}. The e-mail address changes once it is confirmed.`,
    };
  }

  /** Mails the link to the new address (or withdraws it and answers 502) and tells the old one. */
  async function requestEmailChange(
    actor: AuthUser,
    target: UserRow,
    rawEmail: string,
    log: FastifyBaseLogger,
  ): Promise<string> {
    const newEmail = normaliseEmail(rawEmail);
    const token = await createEmailChange(db, actor, target, newEmail);
    try {
      await mailer.send(emailChangeConfirmMail(newEmail, emailChangeLink(publicUrl, token), actorName(actor)));
    } catch (error) {
      log.error({ err: error }, 'e-mail change confirmation mail failed');
      await withdrawEmailChange(db, token);
      throw new ApiError(502, { detail: 'The confirmation e-mail could not be sent. Try again later.' });
    }
    void mailer
      .send(emailChangeRequestedMail(target.email, newEmail, actorName(actor)))
      .catch((error) => log.error({ err: error }, 'e-mail change notice failed'));
    return newEmail;
  }

  return { change: changeAccount };
}
