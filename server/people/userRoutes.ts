/** /api/user/: the Team list, account changes, activation, group, own password (docs/contract.md#calls). */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { userSchema } from '../../shared/contracts';
import { passwordChangedSchema, userUpdateSchema } from '../../shared/people';
import { PEOPLE_ACCESS } from '../../shared/permissions';
import { changePasswordSchema } from '../../shared/validation';
import { actorOf, holdsAny, requireAnyPermission, requirePermission } from '../auth/plugin';
import { permissionDenied } from '../http/errors';
import { paginate, pageRequest } from '../http/pagination';
import { parseId } from '../http/params';
import { errors, idParams, pageOf } from '../http/schemas';
import { createAccountChanges } from './accountChanges';
import { peopleDeps } from './deps';
import { tags, userGroupParams, userListQuery } from './schemas';
import { createTeamStore } from './team';

/** The Team screen: whoever may open it (update_permissions), invite or change groups, or (de)activate. */
const mayListUsers = requireAnyPermission(...PEOPLE_ACCESS.team);

/** Another user's record is for the Team screen's permissions; checked before the input, like every guard. */
async function maySeeUser(request: FastifyRequest) {
  const actor = actorOf(request);
  const id = parseId((request.params as { id?: string }).id);
  if (id !== actor.id && !holdsAny(actor, PEOPLE_ACCESS.team)) throw permissionDenied();
}

/** The user as stored; an e-mail change waits for confirmation from the new address (`pending_email`). */
const accountChangeSchema = userSchema.extend({
  pending_email: z.string().optional(),
  detail: z.string().optional(),
});

const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const team = createTeamStore(app.db, peopleDeps(app));
  const accounts = createAccountChanges(app.db, peopleDeps(app));

  app.get(
    '/user/',
    {
      preValidation: mayListUsers,
      config: { pageCache: { reads: ['users', 'groups', 'user_groups'] } },
      schema: { tags, querystring: userListQuery, response: { 200: pageOf(userSchema), ...errors(403) } },
    },
    async (request) => {
      const paging = pageRequest(request.query, 10);
      return paginate(request, paging, await team.list(paging, request.query));
    },
  );

  app.get(
    '/user/:id/',
    {
      preValidation: maySeeUser,
      schema: { tags, params: idParams, response: { 200: userSchema, ...errors(403, 404) } },
    },
    async (request) => team.get(request.params.id),
  );

  /** Own account always; someone else's fields need add_edit_users; is_active needs is_staff. */
  app.patch(
    '/user/:id/',
    {
      // Whoever may not see another user's record may not touch it either, not even with an empty change.
      preValidation: maySeeUser,
      schema: {
        tags,
        params: idParams,
        body: userUpdateSchema,
        response: { 200: accountChangeSchema, ...errors(400, 403, 404, 409, 502) },
      },
    },
    async (request) => accounts.change(actorOf(request), request.params.id, request.body, request.log),
  );

  app.get(
    '/user/:id/set_group/:group_id/',
    {
      config: { writes: true },
      preValidation: requirePermission(PEOPLE_ACCESS.manageMembers),
      schema: { tags, params: userGroupParams, response: { 200: userSchema, ...errors(403, 404) } },
    },
    async (request) => team.setGroup(actorOf(request), request.params.id, request.params.group_id),
  );

  /** Changing the password ends every other session: the answer carries the caller's new tokens. */
  app.post(
    '/user/change_password/',
    {
      schema: { tags, body: changePasswordSchema, response: { 200: passwordChangedSchema, ...errors(400) } },
    },
    async (request) => team.changeOwnPassword(actorOf(request), request.body),
  );
};

export default userRoutes;
