/**
 * Folders: `GET/POST /api/general_page/`, `GET/PATCH /api/general_page/{id}/`,
 * `POST /api/folders/{id}/move_to_trash/` and `/restore/`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FOLDER_PAGE_SIZE } from '../../shared/constants';
import { folderCreateSchema, folderSchema, folderUpdateSchema } from '../../shared/folders';
import { actorOf, requirePermission } from '../auth/plugin';
import { paginate, pageRequest } from '../http/pagination';
import { errors, idParams, noBody, pageOf } from '../http/schemas';
import { createFolderStore } from './folders';
import { createScopeGuards } from './scopeGuards';
import { folderListQuery, folderTags as tags } from './schemas';

const readRules = requirePermission('read_rules');
const changeRules = requirePermission('create_update_rules');
const useTrash = requirePermission('delete_rules');

const folderRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = createFolderStore(app.db, { cipher: app.credentials, writes: app.writeDb });
  // A scoped permission group changes, trashes and restores only its own folders (server/people/ruleScope.ts).
  const scope = createScopeGuards(app.db);

  app.get(
    '/general_page/',
    {
      preValidation: readRules,
      // meta_connection*: which connection's token problems a folder shows (the view ad_account_connections).
      config: {
        pageCache: {
          reads: [
            'folders',
            'meta_ad_accounts',
            'rules',
            'rule_items',
            'account_health',
            'meta_connections',
            'meta_connection_accounts',
          ],
        },
      },
      schema: { tags, querystring: folderListQuery, response: { 200: pageOf(folderSchema), ...errors(403) } },
    },
    async (request) => {
      const paging = pageRequest(request.query, FOLDER_PAGE_SIZE, 100);
      return paginate(request, paging, await store.list(paging, request.query));
    },
  );

  app.post(
    '/general_page/',
    {
      preValidation: changeRules,
      schema: { tags, body: folderCreateSchema, response: { 201: folderSchema, ...errors(400, 403) } },
    },
    async (request, reply) => reply.status(201).send(await store.create(actorOf(request), request.body)),
  );

  app.get(
    '/general_page/:id/',
    {
      preValidation: readRules,
      schema: { tags, params: idParams, response: { 200: folderSchema, ...errors(403, 404) } },
    },
    async (request) => store.folderById(request.params.id),
  );

  app.patch(
    '/general_page/:id/',
    {
      preValidation: changeRules,
      preHandler: scope.folderInPath(),
      schema: {
        tags,
        params: idParams,
        body: folderUpdateSchema,
        response: { 200: folderSchema, ...errors(400, 403, 404) },
      },
    },
    async (request) => store.update(actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/folders/:id/move_to_trash/',
    {
      preValidation: changeRules,
      preHandler: scope.folderInPath(),
      schema: { tags, params: idParams, body: noBody, response: { 200: folderSchema, ...errors(400, 403, 404) } },
    },
    async (request) => store.moveToTrash(actorOf(request), request.params.id),
  );

  app.post(
    '/folders/:id/restore/',
    {
      preValidation: useTrash,
      preHandler: scope.folderInPath('delete_rules'),
      schema: { tags, params: idParams, body: noBody, response: { 200: folderSchema, ...errors(400, 403, 404) } },
    },
    async (request) => store.restore(actorOf(request), request.params.id),
  );
};

export default folderRoutes;
