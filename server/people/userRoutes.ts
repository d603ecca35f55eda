/** /api/user/: the Team list, account changes, activation, group, own password (SPEC §7). */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { changePasswordSchema } from '../../src/domain/validation';
import { PEOPLE_MESSAGES, userUpdateSchema } from '../../src/domain/people';
import { currentUser, holdsAny, requireAnyPermission } from '../auth/plugin';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { users } from '../db/schema/index';
import { notFound, permissionDenied, ValidationError } from '../http/errors';
import { page, pageRequest } from '../http/pagination';
import { parseBody } from '../http/validation';
import { recordAudit } from '../audit/log';
import { changeAccount } from './accountChanges';
import { peopleContext } from './context';
import { findGroup } from './groups';
import { listUsers, setUserGroup } from './team';
import { findUserById, loadUserDto } from './users';
import { parseId, pathId } from '../http/params';

type IdParams = { Params: { id: string } };

/** The Team screen: whoever may open it (update_permissions), invite or change groups, or (de)activate. */
const TEAM_PERMISSIONS = ['update_permissions', 'add_edit_users', 'is_staff'] as const;
const mayListUsers = requireAnyPermission(...TEAM_PERMISSIONS);

export default async function userRoutes(app: FastifyInstance) {
  async function userOf(request: FastifyRequest) {
    const user = await findUserById(app.db, pathId(request));
    if (!user) throw notFound();
    return user;
  }

  app.get('/user/', { preHandler: mayListUsers }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const paging = pageRequest(query, 10);
    const { count, results } = await listUsers(app.db, paging, query);
    return page(request, paging, count, results);
  });

  app.get<IdParams>('/user/:id/', async (request) => {
    const actor = currentUser(request);
    const id = parseId(request.params.id);
    if (id !== actor.id && !holdsAny(actor, TEAM_PERMISSIONS)) throw permissionDenied();
    const user = id ? await loadUserDto(app.db, id) : undefined;
    if (!user) throw notFound();
    return user;
  });

  /** Own account always; someone else's needs more (accountChanges.ts); an e-mail change waits for confirmation. */
  app.patch<IdParams>('/user/:id/', async (request) => {
    const actor = currentUser(request);
    const target = await userOf(request);
    const self = target.id === actor.id;
    // Whoever may not see another user's record may not touch it either, not even with an empty change.
    if (!self && !holdsAny(actor, TEAM_PERMISSIONS)) throw permissionDenied();
    const change = parseBody(userUpdateSchema, request.body);
    return changeAccount(peopleContext(app, request.log), actor, target, change);
  });

  app.get<{ Params: { id: string; group_id: string } }>(
    '/user/:id/set_group/:group_id/',
    { preHandler: requireAnyPermission('add_edit_users') },
    async (request) => {
      const actor = currentUser(request);
      const user = await userOf(request);
      const groupId = parseId(request.params.group_id);
      const group = groupId ? await findGroup(app.db, groupId) : undefined;
      if (!group) throw notFound(PEOPLE_MESSAGES.groupNotFound);
      return setUserGroup(app, actor, user, group);
    },
  );

  /** Changing the password ends every other session: the answer carries the caller's new tokens. */
  app.post('/user/change_password/', async (request) => {
    const actor = currentUser(request);
    const { old_password, new_password } = parseBody(changePasswordSchema, request.body);
    const row = (await findUserById(app.db, actor.id))!;
    if (!(await verifyPassword(old_password, row.passwordHash))) {
      throw new ValidationError({ old_password: [PEOPLE_MESSAGES.wrongOldPassword] });
    }
    await app.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ passwordHash: await hashPassword(new_password) })
        .where(eq(users.id, actor.id));
      await recordAudit(tx, actor, { action: 'Changed own password' });
    });
    await app.tokens.endSessions(actor.id, 'password');
    return { detail: 'Password changed successfully', ...(await app.tokens.issue(actor.id)) };
  });
}
