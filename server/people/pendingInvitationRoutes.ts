/**
 * /api/user_invite/ for the Team screen's pending invitations: list them (GET), resend one with a
 * new code (POST …/{id}/resend/) and cancel one (DELETE …/{id}/). Each needs add_edit_users and
 * writes an audit-log entry, as sending does; resending and cancelling need the group's accesses too.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invitationSentSchema, pendingInvitationSchema } from '../../shared/people';
import { PEOPLE_ACCESS } from '../../shared/permissions';
import { actorOf, requirePermission } from '../auth/plugin';
import { paginate, pageRequest } from '../http/pagination';
import { errors, noBody, noContent, pageOf, pageQuery } from '../http/schemas';
import { peopleDeps } from './deps';
import { createPendingInvitationStore } from './pendingInvitations';
import { tags } from './schemas';

const mayInvite = requirePermission(PEOPLE_ACCESS.manageMembers);

const invitationParams = z.object({ id: z.string().min(1).max(200) });

const pendingInvitationRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = createPendingInvitationStore(app.db, peopleDeps(app));

  app.get(
    '/user_invite/',
    {
      preValidation: mayInvite,
      schema: { tags, querystring: pageQuery, response: { 200: pageOf(pendingInvitationSchema), ...errors(403) } },
    },
    async (request) => {
      const paging = pageRequest(request.query, 10, 100);
      return paginate(request, paging, await store.list(paging));
    },
  );

  app.post(
    '/user_invite/:id/resend/',
    {
      preValidation: mayInvite,
      schema: {
        tags,
        params: invitationParams,
        body: noBody,
        response: {
          200: invitationSentSchema,
          ...errors(400, 403, 404, 502),
        },
      },
    },
    async (request) => store.resend(actorOf(request), request.params.id, request.log),
  );

  app.delete(
    '/user_invite/:id/',
    {
      preValidation: mayInvite,
      schema: { tags, params: invitationParams, response: { 204: noContent, ...errors(403, 404) } },
    },
    async (request, reply) => {
      await store.cancel(actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

export default pendingInvitationRoutes;
