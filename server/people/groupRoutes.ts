/** /api/groups/: the Permissions screen's groups and the permission names (SPEC §6–7). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PERMISSIONS } from '../../src/domain/permissions';
import { groupCreateSchema, groupUpdateSchema } from '../../src/domain/people';
import { currentUser, requireAnyPermission, requirePermission } from '../auth/plugin';
import { notFound } from '../http/errors';
import { page, pageRequest } from '../http/pagination';
import { parseBody } from '../http/validation';
import { createGroup, deleteGroup, findGroup, listGroups, updateGroup } from './groups';
import { toGroupDto } from './users';
import { pathId } from '../http/params';

type IdParams = { Params: { id: string } };

/** Seeing groups: the Permissions screen, and the Team screen's group choices and invite dialog. */
const mayReadGroups = requireAnyPermission('view_permissions', 'update_permissions', 'add_edit_users');
const mayChangeGroups = requirePermission('update_permissions');

export default async function groupRoutes(app: FastifyInstance) {
  async function groupOf(request: FastifyRequest<IdParams>) {
    const group = await findGroup(app.db, pathId(request));
    if (!group) throw notFound();
    return group;
  }

  app.get(
    '/groups/available_permissions/',
    { preHandler: requireAnyPermission('view_permissions', 'update_permissions') },
    async () => [...PERMISSIONS],
  );

  app.get('/groups/', { preHandler: mayReadGroups }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const paging = pageRequest(query, 100);
    const { count, results } = await listGroups(app.db, paging, query.ordering);
    return page(request, paging, count, results);
  });

  app.get<IdParams>('/groups/:id/', { preHandler: mayReadGroups }, async (request) =>
    toGroupDto(await groupOf(request)),
  );

  app.post('/groups/', { preHandler: mayChangeGroups }, async (request, reply) => {
    const actor = currentUser(request);
    const { name, group_access } = parseBody(groupCreateSchema, request.body);
    return reply.status(201).send(await createGroup(app.db, actor, name, group_access.accesses));
  });

  app.patch<IdParams>('/groups/:id/', { preHandler: mayChangeGroups }, async (request) => {
    const actor = currentUser(request);
    const before = await groupOf(request);
    const { name, group_access } = parseBody(groupUpdateSchema, request.body);
    return updateGroup(app, actor, before, { name, accesses: group_access?.accesses });
  });

  app.delete<IdParams>('/groups/:id/', { preHandler: mayChangeGroups }, async (request, reply) => {
    await deleteGroup(app, currentUser(request), await groupOf(request));
    return reply.status(204).send();
  });
}
