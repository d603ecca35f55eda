/** /api/user_invite/: send an invitation by mail, and confirm it from the /join/{invite_code} screen. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { joinedSchema, PEOPLE_MESSAGES } from '../../src/domain/people';
import { PEOPLE_ACCESS } from '../../src/domain/permissions';
import { inviteSchema, joinSchema } from '../../src/domain/validation';
import { actorName, recordAudit } from '../audit/log';
import { actorOf, requirePermission } from '../auth/plugin';
import { byAddress, limitAttempts } from '../http/attemptLimit';
import { ApiError, ValidationError } from '../http/errors';
import { detailSchema, errors } from '../http/schemas';
import { MAX_ID } from '../http/params';
import { assertMayGrant } from './access';
import { findGroup } from './groups';
import { acceptInvitation, createInvitation, withdrawInvitation } from './invitations';
import { invitationLink, invitationMail } from './mails';
import { tags } from './schemas';
import { assertEmailFree, normaliseEmail } from './team';

const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/user_invite/send_invite_code/',
    {
      preValidation: requirePermission(PEOPLE_ACCESS.manageMembers),
      schema: { tags, body: inviteSchema, response: { 200: detailSchema, ...errors(400, 403, 502) } },
    },
    async (request) => {
      const actor = actorOf(request);
      const { group_id, email: rawEmail } = request.body;
      const email = normaliseEmail(rawEmail);
      // An id beyond the id column's range names no group (and the database would refuse to compare it).
      const group = group_id <= MAX_ID ? await findGroup(app.db, group_id) : undefined;
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
    {
      config: { public: true },
      preValidation: limitAttempts(app, 'join', [{ key: byAddress }]),
      schema: { tags, body: joinSchema, response: { 201: joinedSchema, ...errors(400, 429) } },
    },
    async (request, reply) => {
      const user = await acceptInvitation(app.db, request.body);
      return reply.status(201).send({ detail: 'Invitation confirmed successfully', email: user.email });
    },
  );
};

export default invitationRoutes;
