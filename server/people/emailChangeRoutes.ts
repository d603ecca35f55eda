/**
 * /api/user/confirm_email_change/: the link mailed to a new address, opened from
 * /confirm-email-change/{token}; /api/user/{id}/email_change/: the change still waiting, seen and
 * withdrawn by the account's owner or whoever may manage the account.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emailChangeConfirmSchema, joinedSchema, pendingEmailChangeAnswerSchema } from '../../shared/people';
import { actorOf } from '../auth/plugin';
import { byAddress, limitAttempts } from '../http/attemptLimit';
import { errors, idParams, noContent } from '../http/schemas';
import { peopleDeps } from './deps';
import { createEmailChangeStore } from './emailChanges';
import { tags } from './schemas';

const emailChangeRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = createEmailChangeStore(app.db, peopleDeps(app));

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
    async (request) => store.confirm(request.body.token, request.log),
  );

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
    async (request) => store.pendingOf(actorOf(request), request.params.id),
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
      await store.withdraw(actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

export default emailChangeRoutes;
