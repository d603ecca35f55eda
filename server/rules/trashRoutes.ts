/**
 * The trash: `GET /api/trash_page/` lists trashed folders (with their rules) and live folders
 * holding trashed rules (with those rules only), most recently trashed first;
 * `DELETE /api/trash_page/{id}/` deletes a trashed folder for good.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TRASH_PAGE_SIZE } from '../../shared/constants';
import { trashFolderSchema } from '../../shared/folders';
import { actorOf, requirePermission } from '../auth/plugin';
import { paginate, pageRequest } from '../http/pagination';
import { errors, idParams, noContent, pageOf } from '../http/schemas';
import { folderListQuery, trashTags as tags } from './schemas';
import { createScopeGuards } from './scopeGuards';
import { createTrashStore } from './trash';

const useTrash = requirePermission('delete_rules');

const trashRoutes: FastifyPluginAsyncZod = async (app) => {
  const trash = createTrashStore(app.db, { cipher: app.credentials });
  const scope = createScopeGuards(app.db);

  app.get(
    '/trash_page/',
    {
      preValidation: useTrash,
      config: { pageCache: { reads: ['folders', 'meta_ad_accounts', 'rules', 'rule_items'] } },
      schema: { tags, querystring: folderListQuery, response: { 200: pageOf(trashFolderSchema), ...errors(403) } },
    },
    async (request) => {
      const paging = pageRequest(request.query, TRASH_PAGE_SIZE, 100);
      return paginate(request, paging, await trash.list(paging, request.query));
    },
  );

  app.delete(
    '/trash_page/:id/',
    {
      preValidation: useTrash,
      // A scoped permission group deletes only its own folders for good (server/people/ruleScope.ts).
      preHandler: scope.folderInPath('delete_rules'),
      schema: { tags, params: idParams, response: { 204: noContent, ...errors(400, 403, 404) } },
    },
    async (request, reply) => {
      await trash.deleteFolder(actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

export default trashRoutes;
