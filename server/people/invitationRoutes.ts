/** /api/user_invite/: send an invitation by mail, and confirm it from the /join/{invite_code} screen. */
import type { FastifyInstance } from 'fastify';
import { inviteSchema, joinSchema } from '../../src/domain/validation';
import { PEOPLE_MESSAGES } from '../../src/domain/people';
import { actorName, recordAudit } from '../audit/log';
import { actorOf, requireAnyPermission } from '../auth/plugin';
import { byAddress, limitAttempts } from '../http/attemptLimit';
import { ApiError, ValidationError } from '../http/errors';
import { parseBody } from '../http/validation';
import { assertMayGrant } from './access';
import { findGroup } from './groups';
import { acceptInvitation, createInvitation, withdrawInvitation } from './invitations';
import { invitationLink, invitationMail } from './mails';
import { assertEmailFree, normaliseEmail } from './team';

export default async function invitationRoutes(app: FastifyInstance) {
  app.post(
    '/user_invite/send_invite_code/',
    { preHandler: requireAnyPermission('add_edit_users') },
    async (request) => {
      const actor = actorOf(request);
      const { group_id, email: rawEmail } = parseBody(inviteSchema, request.body);
      const email = normaliseEmail(rawEmail);
      const group = await findGroup(app.db, group_id);
      if (!group) throw new ValidationError({ group_id: [PEOPLE_MESSAGES.groupNotFound] });
      assertMayGrant(actor, group.accesses);
      await assertEmailFree(app.db, email);

      const code = await createInvitation(app.db, actor, email, group);
      try {
        await app.mailer.send(
          invitationMail(email, invitationLink(app.config.publicUrl, code), actorName(actor), group.name),
        );
      } catch (error) {
        request.log.error({ err: error }, 'invitation mail failed');
        await withdrawInvitation(app.db, code);
        throw new ApiError(502, { detail: 'The invitation e-mail could not be sent. Try again later.' });
      }
      await recordAudit(app.db, actor, { action: `Invited ${email}`, changesText: `group: ${group.name}` });
      return { detail: 'Invitation sent successfully' };
    },
  );

  app.post(
    '/user_invite/',
    { config: { public: true }, preHandler: limitAttempts(app, 'join', [{ key: byAddress }]) },
    async (request, reply) => {
      const member = parseBody(joinSchema, request.body);
      const user = await acceptInvitation(app.db, member);
      return reply.status(201).send({ detail: 'Invitation confirmed successfully', email: user.email });
    },
  );
}
