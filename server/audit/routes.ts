/**
 * `GET /api/log/`: the audit log, newest first, with offset/limit paging, multi-column ordering
 * (`ad_account` sorts by folder name, docs/contract.md#calls), search, rule_id_in and folder_id_in.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { logEntrySchema } from '../../shared/contracts';
import { requirePermission } from '../auth/plugin';
import { paginate, pageRequest } from '../http/pagination';
import { errors, idListQuery, orderingQuery, pageOf, pageQuery, searchQuery } from '../http/schemas';
import { createAuditLogStore } from './log';

const logQuery = pageQuery
  .extend(orderingQuery.shape)
  .extend(searchQuery.shape)
  .extend({
    rule_id_in: idListQuery('Entries of these rules (comma-separated ids)'),
    folder_id_in: idListQuery('Entries of these folders (comma-separated ids)'),
  });

const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const auditLog = createAuditLogStore(app.db, { countCap: app.config.listCountCap });

  app.get(
    '/log/',
    {
      preValidation: requirePermission('view_logs'),
      config: { pageCache: { reads: ['audit_log', 'audit_log_names'] } },
      schema: { tags: ['audit'], querystring: logQuery, response: { 200: pageOf(logEntrySchema), ...errors(403) } },
    },
    async (request) => {
      const paging = pageRequest(request.query, 10, 100);
      return paginate(request, paging, await auditLog.list(paging, request.query));
    },
  );
};

export default auditRoutes;
