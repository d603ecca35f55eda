/** /api/user_invite/: send an invitation by mail, and confirm it from the /join/{invite_code} screen. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { invitationSentSchema, joinedSchema } from '../../shared/people';
import { PEOPLE_ACCESS } from '../../shared/permissions';
import { inviteSchema, joinSchema } from '../../shared/validation';
import { actorOf, requirePermission } from '../auth/plugin';
import { byAddress, limitAttempts } from '../http/attemptLimit';
import { errors } from '../http/schemas';
import { peopleDeps } from './deps';
import { createInvitationStore } from './invitations';
import { tags } from './schemas';

const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = createInvitationStore(app.db, peopleDeps(app));

  app.post(
    '/user_invite/send_invite_code/',
    {
      preValidation: requirePermission(PEOPLE_ACCESS.manageMembers),
      schema: { tags, body: inviteSchema, response: { 200: invitationSentSchema, ...errors(400, 403, 502) } },
    },
    async (request) => store.send(actorOf(request), request.body, request.log),
  );

  app.post(
    '/user_invite/',
    {
      config: { public: true },
      preValidation: limitAttempts(app, 'join', [{ key: byAddress }]),
      schema: { tags, body: joinSchema, response: { 201: joinedSchema, ...errors(400, 429) } },
    },
    async (request, reply) => reply.status(201).send(await store.accept(request.body)),
  );
};

export default invitationRoutes;
