/**
 * /api/user/confirm_email_change/: the link mailed to a new address, opened from
 * /confirm-email-change/{token}; /api/user/{id}/email_change/: the change still waiting, seen and
 * withdrawn by the account's owner or whoever may manage the account.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  emailChangeConfirmSchema,
  joinedSchema,
  PEOPLE_MESSAGES,
  pendingEmailChangeAnswerSchema,
} from '../../src/domain/people';
import { PEOPLE_ACCESS } from '../../src/domain/permissions';
import { actorOf } from '../auth/plugin';
import { byAddress, limitAttempts } from '../http/attemptLimit';
import { notFound, permissionDenied } from '../http/errors';
import { errors, idParams, noContent } from '../http/schemas';
import { assertMayManageUser } from './access';
import { confirmEmailChange } from './emailChanges';
import { emailChangedMail } from './mails';
import { cancelEmailChange, findPendingEmailChange } from './pendingEmailChanges';
import { tags } from './schemas';
import { findUserById, loadAuthUser, type AuthUser } from './users';

const emailChangeRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The new address takes effect; every session of the account ends and the old address is told. */
  app.post(
    '/user/confirm_email_change/',
    {
      config: { public: true },
      preValidation: limitAttempts(app, 'email-confirm', [{ key: byAddress }]),
      schema: {
        tags,
        body: emailChangeConfirmSchema,
        response: { 200: joinedSchema, ...errors(400, 429) },
      },
    },
    async (request) => {
      const { userId, oldEmail, newEmail } = await confirmEmailChange(app.db, request.body.token);
      await app.tokens.endSessions(userId, 'email');
      void app.mailer
        .send(emailChangedMail(oldEmail, newEmail))
        .catch((error) => request.log.error({ err: error }, 'e-mail changed notice failed'));
      return { detail: 'E-mail address changed. Sign in with the new address.', email: newEmail };
    },
  );

  /** One's own account, or one the actor may manage (add_edit_users and every access it holds). */
  async function accountFor(actor: AuthUser, id: number) {
    if (id !== actor.id) {
      if (!actor.permissions.has(PEOPLE_ACCESS.manageMembers)) throw permissionDenied();
      const target = await loadAuthUser(app.db, id);
      if (!target) throw notFound();
      assertMayManageUser(actor, target);
    }
    const user = await findUserById(app.db, id);
    if (!user) throw notFound();
    return user;
  }

  app.get(
    '/user/:id/email_change/',
    {
      schema: {
        tags,
        summary: 'The e-mail change waiting for confirmation (`pending: null` when none)',
        params: idParams,
        response: { 200: pendingEmailChangeAnswerSchema, ...errors(403, 404) },
      },
    },
    async (request) => {
      const user = await accountFor(actorOf(request), request.params.id);
      return { pending: (await findPendingEmailChange(app.db, user.id)) ?? null };
    },
  );

  app.delete(
    '/user/:id/email_change/',
    {
      schema: {
        tags,
        summary: 'Withdraw the e-mail change waiting for confirmation: its link stops working',
        params: idParams,
        response: { 204: noContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const user = await accountFor(actor, request.params.id);
      if (!(await cancelEmailChange(app.db, actor, user))) throw notFound(PEOPLE_MESSAGES.noPendingEmailChange);
      return reply.status(204).send(null);
    },
  );
};

export default emailChangeRoutes;
