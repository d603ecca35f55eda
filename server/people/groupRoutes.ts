/** /api/groups/: the Permissions screen's groups and the permission names (docs/contract.md#permissions, docs/contract.md#calls). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { groupSchema } from '../../src/domain/contracts';
import { PEOPLE_ACCESS, PERMISSIONS } from '../../src/domain/permissions';
import { groupCreateSchema, groupUpdateSchema } from '../../src/domain/people';
import { actorOf, requireAnyPermission, requirePermission } from '../auth/plugin';
import { notFound } from '../http/errors';
import { paginate, pageRequest } from '../http/pagination';
import { errors, idParams, noContent, pageOf } from '../http/schemas';
import { assertMayGrant } from './access';
import { peopleContext } from './context';
import { createGroup, deleteGroup, findGroup, listGroups, updateGroup } from './groups';
import { groupListQuery, tags } from './schemas';
import { toGroupDto } from './users';

/** Seeing groups: the Permissions screen, and the Team screen's group choices and invite dialog. */
const mayReadGroups = requireAnyPermission(...PEOPLE_ACCESS.readGroups);
const mayChangeGroups = requirePermission(PEOPLE_ACCESS.changeGroups);

const groupRoutes: FastifyPluginAsyncZod = async (app) => {
  async function groupOf(id: number) {
    const group = await findGroup(app.db, id);
    if (!group) throw notFound();
    return group;
  }

  app.get(
    '/groups/available_permissions/',
    {
      preValidation: requireAnyPermission(...PEOPLE_ACCESS.readAccesses),
      schema: { tags, response: { 200: z.array(z.string()), ...errors(403) } },
    },
    async () => [...PERMISSIONS],
  );

  app.get(
    '/groups/',
    {
      preValidation: mayReadGroups,
      schema: { tags, querystring: groupListQuery, response: { 200: pageOf(groupSchema), ...errors(403) } },
    },
    async (request) => {
      const paging = pageRequest(request.query, 100);
      return paginate(request, paging, await listGroups(app.db, paging, request.query.ordering));
    },
  );

  app.get(
    '/groups/:id/',
    {
      preValidation: mayReadGroups,
      schema: { tags, params: idParams, response: { 200: groupSchema, ...errors(403, 404) } },
    },
    async (request) => toGroupDto(await groupOf(request.params.id)),
  );

  app.post(
    '/groups/',
    {
      preValidation: mayChangeGroups,
      schema: { tags, body: groupCreateSchema, response: { 201: groupSchema, ...errors(400, 403) } },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { name, group_access } = request.body;
      assertMayGrant(actor, group_access.accesses);
      return reply.status(201).send(await createGroup(app.db, actor, name, group_access.accesses));
    },
  );

  app.patch(
    '/groups/:id/',
    {
      preValidation: mayChangeGroups,
      schema: {
        tags,
        params: idParams,
        body: groupUpdateSchema,
        response: { 200: groupSchema, ...errors(400, 403, 404) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const before = await groupOf(request.params.id);
      const { name, group_access } = request.body;
      return updateGroup(peopleContext(app, request.log), actor, before, {
        name,
        accesses: group_access?.accesses,
      });
    },
  );

  app.delete(
    '/groups/:id/',
    {
      preValidation: mayChangeGroups,
      schema: { tags, params: idParams, response: { 204: noContent, ...errors(403, 404) } },
    },
    async (request, reply) => {
      await deleteGroup(peopleContext(app, request.log), actorOf(request), await groupOf(request.params.id));
      return reply.status(204).send(null);
    },
  );
};

export default groupRoutes;
