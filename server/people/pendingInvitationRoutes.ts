/**
 * /api/user_invite/ for the Team screen's pending invitations: list them (GET), resend one with a
 * new code (POST …/{id}/resend/) and cancel one (DELETE …/{id}/). Each needs add_edit_users and
 * writes an audit-log entry, as sending does.
 */
import type { FastifyInstance } from 'fastify';
import { actorName, recordAudit } from '../audit/log';
import { currentUser, requirePermission } from '../auth/plugin';
import { ApiError, notFound } from '../http/errors';
import { page, pageRequest } from '../http/pagination';
import { mailerOf } from '../mail/mailer';
import { assertMayGrant } from './access';
import { findGroup } from './groups';
import { invitationLink, invitationMail } from './mails';
import {
  cancelInvitation,
  findPendingInvitation,
  listPendingInvitations,
  reissueInvitation,
} from './pendingInvitations';

type IdParams = { Params: { id: string } };

const mayInvite = requirePermission('add_edit_users');

export default async function pendingInvitationRoutes(app: FastifyInstance) {
  app.get('/user_invite/', { preHandler: mayInvite }, async (request) => {
    const paging = pageRequest(request.query as Record<string, unknown>, 10, 100);
    const { count, results } = await listPendingInvitations(app.db, paging);
    return page(request, paging, count, results);
  });

  app.post<IdParams>('/user_invite/:id/resend/', { preHandler: mayInvite }, async (request) => {
    const actor = currentUser(request);
    const current = await findPendingInvitation(app.db, request.params.id);
    if (!current) throw notFound();
    const group = current.group ? await findGroup(app.db, current.group.id) : undefined;
    assertMayGrant(actor, group?.accesses ?? []);

    const reissued = await reissueInvitation(app.db, current.id);
    if (!reissued) throw notFound();
    try {
      await mailerOf(app).send(
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
  });

  app.delete<IdParams>('/user_invite/:id/', { preHandler: mayInvite }, async (request, reply) => {
    const actor = currentUser(request);
    const cancelled = await cancelInvitation(app.db, request.params.id);
    if (!cancelled) throw notFound();
    await recordAudit(app.db, actor, { action: `Cancelled the invitation to ${cancelled.email}` });
    return reply.status(204).send();
  });
}
