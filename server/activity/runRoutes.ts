/**
 * Run records and held runs: a rule's runs (the editor's Runs panel), one run with what it looked
 * at and why, and Approve / Dismiss of a held run. Paths and shapes: /api/docs/.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ruleRunSchema } from '../../shared/contracts';
import { actorOf, requirePermission } from '../auth/plugin';
import { notFound } from '../http/errors';
import { paginate, pageRequest } from '../http/pagination';
import { errors, idParams, noBody, pageOf, pageQuery } from '../http/schemas';
import { createRunStore } from './runStore';
import { createApprovalStore } from '../approvals/store';

const tags = ['rule engine'];

const approvalSchema = z.object({
  status: z.string(),
  detail: z.string(),
  turned_off: z.number().int(),
  failed: z.number().int(),
  held_run: ruleRunSchema,
  run: ruleRunSchema.nullable().describe('The approval run that carried out the turn-offs'),
});

const ruleRunRoutes: FastifyPluginAsyncZod = async (app) => {
  const runs = createRunStore(app.db);
  // The held run's folder must be in the person's scope, and Approve's money within their limit (server/people/ruleScope.ts).
  const approvals = createApprovalStore(app.db);
  const mayDecide = (decision: 'approve' | 'dismiss') => (request: FastifyRequest) =>
    approvals.assertMayDecide(actorOf(request), (request.params as { id: number }).id, decision);
  const requireRun = async (id: number) => {
    const run = await runs.find(id);
    if (!run) throw notFound();
    return run;
  };

  app.get(
    '/rule/:id/runs/',
    {
      preValidation: requirePermission('read_rules'),
      schema: {
        tags,
        summary: "A rule's runs, newest first",
        params: idParams,
        querystring: pageQuery,
        response: { 200: pageOf(ruleRunSchema), ...errors(403, 404) },
      },
    },
    async (request) => {
      if (!(await runs.ruleExists(request.params.id))) throw notFound();
      const paging = pageRequest(request.query, 10, 100);
      return paginate(request, paging, await runs.list(request.params.id, paging));
    },
  );

  app.get(
    '/rule_runs/:id/',
    {
      preValidation: requirePermission('read_rules'),
      schema: {
        tags,
        summary: 'One run: every object it looked at, the metrics read and each task’s verdict',
        params: idParams,
        response: { 200: ruleRunSchema, ...errors(403, 404) },
      },
    },
    async (request) => requireRun(request.params.id),
  );

  app.post(
    '/rule_runs/:id/approve/',
    {
      preValidation: requirePermission('create_update_rules'),
      preHandler: mayDecide('approve'),
      schema: {
        tags,
        summary: "Carry out a held run's planned turn-offs that are still valid, once",
        params: idParams,
        body: noBody,
        response: { 200: approvalSchema, ...errors(400, 403, 404, 409, 502) },
      },
    },
    async (request) => {
      const id = request.params.id;
      const result = await app.ruleEngine.approve(id, actorOf(request));
      return {
        status: result.status,
        detail: result.note,
        turned_off: result.turnedOff.length,
        failed: result.failed.length,
        held_run: await requireRun(id),
        run: result.runId ? await runs.find(result.runId) : null,
      };
    },
  );

  app.post(
    '/rule_runs/:id/dismiss/',
    {
      preValidation: requirePermission('create_update_rules'),
      preHandler: mayDecide('dismiss'),
      schema: {
        tags,
        summary: "Drop a held run's planned turn-offs",
        params: idParams,
        body: noBody,
        response: { 200: ruleRunSchema, ...errors(400, 403, 404, 409) },
      },
    },
    async (request) => {
      await app.ruleEngine.dismiss(request.params.id, actorOf(request));
      return requireRun(request.params.id);
    },
  );
};

export default ruleRunRoutes;
