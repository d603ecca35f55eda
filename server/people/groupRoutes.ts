/**
 * /api/groups/: the Permissions screen's groups and the permission names (docs/contract.md#permissions,
 * docs/contract.md#calls); a group's `rule_folders` and `approval_limit` (server/people/ruleScope.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { groupSchema } from '../../shared/contracts';
import { PEOPLE_ACCESS, PERMISSIONS } from '../../shared/permissions';
import { groupCreateSchema, groupUpdateSchema } from '../../shared/people';
import { actorOf, requireAnyPermission, requirePermission } from '../auth/plugin';
import { paginate, pageRequest } from '../http/pagination';
import { errors, idParams, noContent, pageOf } from '../http/schemas';
import { peopleDeps } from './deps';
import { createGroupStore } from './groups';
import { groupListQuery, tags } from './schemas';
import { toGroupDto } from './users';

/** Seeing groups: the Permissions screen, and the Team screen's group choices and invite dialog. */
const mayReadGroups = requireAnyPermission(...PEOPLE_ACCESS.readGroups);
const mayChangeGroups = requirePermission(PEOPLE_ACCESS.changeGroups);

const groupRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = createGroupStore(app.db, peopleDeps(app));

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
      return paginate(request, paging, await store.list(paging, request.query.ordering));
    },
  );

  app.get(
    '/groups/:id/',
    {
      preValidation: mayReadGroups,
      schema: { tags, params: idParams, response: { 200: groupSchema, ...errors(403, 404) } },
    },
    async (request) => toGroupDto(await store.get(request.params.id)),
  );

  app.post(
    '/groups/',
    {
      preValidation: mayChangeGroups,
      schema: { tags, body: groupCreateSchema, response: { 201: groupSchema, ...errors(400, 403) } },
    },
    async (request, reply) => {
      const { name, group_access, rule_folders, approval_limit } = request.body;
      return reply.status(201).send(
        await store.create(actorOf(request), name, group_access.accesses, {
          ruleFolders: rule_folders,
          approvalLimit: approval_limit,
        }),
      );
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
      const { name, group_access, rule_folders, approval_limit } = request.body;
      return store.update(actorOf(request), request.params.id, {
        name,
        accesses: group_access?.accesses,
        ruleFolders: rule_folders,
        approvalLimit: approval_limit,
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
      await store.remove(actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

export default groupRoutes;
