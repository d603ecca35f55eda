/**
 * Activity's API: the rule log (docs/contract.md#calls), Undo of an entry, a rule's exemptions; paths in docs/api.md.
 * Undo is Activity's, not the run's: it is asked of an entry and answers one (app.ruleEngine turns the ad back on).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ruleLogEntrySchema } from '../../shared/contracts';
import { hasNoControlCharacters } from '../../shared/validation';
import { actorOf, requirePermission } from '../auth/plugin';
import { paginate, pageRequest } from '../http/pagination';
import {
  errors,
  NOT_FOUND,
  idListQuery,
  idParam,
  idParams,
  noBody,
  noContent,
  orderingQuery,
  pageOf,
  pageQuery,
  searchQuery,
} from '../http/schemas';
import { createRuleLogStore } from './ruleLogStore';
import { createScopeGuards } from '../rules/scopeGuards';

const tags = ['rule engine'];

const ruleLogQuery = pageQuery
  .extend(orderingQuery.shape)
  .extend(searchQuery.shape)
  .extend({
    rule_id_in: idListQuery('Entries of these rules (comma-separated ids)'),
    folder_id_in: idListQuery('Entries of these folders (comma-separated ids)'),
    ad_id_in: idListQuery('Entries about these ads or campaigns (comma-separated ids)'),
  });

const exemptionSchema = z.object({ object_id: z.string(), created_at: z.string() });

const mayRead = requirePermission('read_rules');
const mayAct = requirePermission('create_update_rules');

/** The rule log and Undo of one of its entries. */
const ruleLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const ruleLog = createRuleLogStore(app.db, app.config.listCountCap);
  // A scoped permission group undoes only in its folders (server/people/ruleScope.ts).
  const scope = createScopeGuards(app.db);

  app.get(
    '/rule_log/',
    {
      preValidation: requirePermission('view_logs'),
      config: {
        pageCache: { reads: ['rule_activity', 'rules', 'folders', 'meta_ad_accounts', 'rule_exemptions', 'rule_runs'] },
      },
      schema: { tags, querystring: ruleLogQuery, response: { 200: pageOf(ruleLogEntrySchema), ...errors(403) } },
    },
    async (request) => {
      const paging = pageRequest(request.query, 10, 100);
      return paginate(request, paging, await ruleLog.list(paging, request.query));
    },
  );

  app.post(
    '/rule_log/:id/undo/',
    {
      preValidation: mayAct,
      preHandler: scope.activityEntryInPath(),
      schema: {
        tags,
        params: idParams,
        body: noBody,
        response: { 200: ruleLogEntrySchema, ...errors(400, 403, 404, 502, 503) },
      },
    },
    async (request) => {
      const entry = await app.ruleEngine.undo(request.params.id, actorOf(request));
      return (await ruleLog.byIds([entry.id]))[0]!;
    },
  );
};

/** A rule's exemptions: the ads and campaigns it leaves alone, and taking one off the list. */
const exemptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const ruleLog = createRuleLogStore(app.db, app.config.listCountCap);
  // A scoped permission group changes exemptions only in its folders (server/people/ruleScope.ts).
  const scope = createScopeGuards(app.db);

  app.get(
    '/rules/:id/exemptions/',
    {
      preValidation: mayRead,
      schema: { tags, params: idParams, response: { 200: pageOf(exemptionSchema), ...errors(403, 404) } },
    },
    async (request) => {
      const results = await ruleLog.exemptions(request.params.id);
      return { count: results.length, next: null, previous: null, results };
    },
  );

  app.delete(
    '/rules/:id/exemptions/:object_id/',
    {
      preValidation: mayAct,
      preHandler: scope.ruleInPath(),
      schema: {
        tags,
        params: z.object({
          id: idParam,
          // A control character (NUL above all, which PostgreSQL refuses) names no ad or campaign.
          object_id: z.string().refine(hasNoControlCharacters, NOT_FOUND).describe('The ad or campaign id'),
        }),
        response: { 204: noContent, ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await ruleLog.removeExemption(request.params.id, request.params.object_id);
      return reply.status(204).send(null);
    },
  );
};

const activityRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(ruleLogRoutes);
  await app.register(exemptionRoutes);
};

export default activityRoutes;
