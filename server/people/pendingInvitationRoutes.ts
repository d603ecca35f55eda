/**
 * /api/user_invite/ for the Team screen's pending invitations: list them (GET), resend one with a
 * new code (POST …/{id}/resend/) and cancel one (DELETE …/{id}/). Each needs add_edit_users and
 * writes an audit-log entry, as sending does; resending and cancelling need the group's accesses too.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invitationResentSchema, pendingInvitationSchema } from '../../src/domain/people';
import { PEOPLE_ACCESS } from '../../src/domain/permissions';
import { actorName, recordAudit } from '../audit/log';
import { actorOf, requirePermission } from '../auth/plugin';
import { ApiError, notFound } from '../http/errors';
import { paginate, pageRequest } from '../http/pagination';
import { errors, noBody, noContent, pageOf, pageQuery } from '../http/schemas';
import { assertMayGrant } from './access';
import { findGroup } from './groups';
import { invitationLink, invitationMail } from './mails';
import {
  cancelInvitation,
  findPendingInvitation,
  listPendingInvitations,
  reissueInvitation,
} from './pendingInvitations';
import { tags } from './schemas';
import type { AuthUser } from './users';

const mayInvite = requirePermission(PEOPLE_ACCESS.manageMembers);

const invitationParams = z.object({ id: z.string().min(1).max(200) });

const pendingInvitationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user_invite/',
    {
      preValidation: mayInvite,
      schema: { tags, querystring: pageQuery, response: { 200: pageOf(pendingInvitationSchema), ...errors(403) } },
    },
    async (request) => {
      const paging = pageRequest(request.query, 10, 100);
      return paginate(request, paging, await listPendingInvitations(app.db, paging));
    },
  );

  /** Resending or cancelling an invitation needs the accesses of its group, as sending it did. */
  async function assertMayHandle(actor: AuthUser, id: string) {
    const current = await findPendingInvitation(app.db, id);
    if (!current) throw notFound();
    const group = current.group ? await findGroup(app.db, current.group.id) : undefined;
    assertMayGrant(actor, group?.accesses ?? []);
    return { current, group };
  }

  app.post(
    '/user_invite/:id/resend/',
    {
      preValidation: mayInvite,
      schema: {
        tags,
        params: invitationParams,
        body: noBody,
        response: {
          200: invitationResentSchema,
          ...errors(400, 403, 404, 502),
        },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const { current, group } = await assertMayHandle(actor, request.params.id);

      const reissued = await reissueInvitation(app.db, current.id);
      if (!reissued) throw notFound();
      try {
        await app.mailer.send(
          invitationMail(
            current.email,
            invitationLink(app.config.publicUrl, reissued.code),
            actorName(actor),
            group?.name ?? null,
          ),
        );
      } catch (error) {
        request.log.error({ err: error }, 'invitation mail failed');
        await reissued.revert(); // the new code reached nobody: the earlier mail's link keeps working
        throw new ApiError(502, { detail: 'The invitation e-mail could not be sent. Try again later.' });
      }
      await recordAudit(app.db, actor, {
        action: `Resent the invitation to ${current.email}`,
        changesText: group ? `group: ${group.name}` : '',
      });
      return { detail: 'Invitation sent successfully', invitation: reissued.invitation };
    },
  );

  app.delete(
    '/user_invite/:id/',
    {
      preValidation: mayInvite,
      schema: { tags, params: invitationParams, response: { 204: noContent, ...errors(403, 404) } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      await assertMayHandle(actor, request.params.id);
      const cancelled = await cancelInvitation(app.db, request.params.id);
      if (!cancelled) throw notFound();
      await recordAudit(app.db, actor, { action: `Cancelled the invitation to ${cancelled.email}` });
      return reply.status(204).send(null);
    },
  );
};

export default pendingInvitationRoutes;
