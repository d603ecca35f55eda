/**
 * `GET /api/approvals/`: the approval queue — every held run still waiting that the signed-in
 * person may decide (read_rules and create_update_rules, the rule's folder in their scope), most
 * money at stake first, each saying whether this person may approve it. Approve and Dismiss are
 * the held run's own calls (`POST /api/rule_runs/{id}/approve/`, `/dismiss/`, engine/runRoutes.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { approvalSchema } from '../../shared/approvals';
import { actorOf, requirePermission } from '../auth/plugin';
import { paginate, pageRequest } from '../http/pagination';
import { errors, pageOf, pageQuery } from '../http/schemas';
import { createApprovalStore } from './store';

const tags = ['rule engine'];

const approvalRoutes: FastifyPluginAsyncZod = async (app) => {
  const approvals = createApprovalStore(app.db);

  app.get(
    '/approvals/',
    {
      preValidation: requirePermission('read_rules', 'create_update_rules'),
      schema: {
        tags,
        summary: 'Held runs waiting for a decision that you may decide, most money at stake first',
        querystring: pageQuery,
        response: { 200: pageOf(approvalSchema), ...errors(403) },
      },
    },
    async (request) => {
      const paging = pageRequest(request.query, 25, 100);
      return paginate(request, paging, await approvals.list(actorOf(request), paging));
    },
  );
};

export default approvalRoutes;
