/**
 * The judging settings' API beside the rule's own: a rule's conflicts with the other active rules
 * of its folder, and the platform's health (the health panel; one account's, with its measured lead
 * lag, for the editor's lead-lag allowance).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountHealthSchema, platformHealthSchema } from '../../src/domain/health';
import { ruleConflictSchema } from '../../src/domain/judging';
import { requirePermission } from '../auth/plugin';
import { notFound } from '../http/errors';
import { errors, idParams, NOT_FOUND } from '../http/schemas';
import { hasNoControlCharacters } from '../../src/domain/validation';
import { createJudgingStore } from './judgingStore';

const tags = ['rule engine'];
const mayRead = requirePermission('read_rules');

const judgingRoutes: FastifyPluginAsyncZod = async (app) => {
  const judging = createJudgingStore(app.db);

  app.get(
    '/rules/:id/conflicts/',
    {
      preValidation: mayRead,
      schema: { tags, params: idParams, response: { 200: z.array(ruleConflictSchema), ...errors(403, 404) } },
    },
    async (request) => judging.conflictsOfRule(request.params.id),
  );

  app.get(
    '/platform_health/',
    { preValidation: mayRead, schema: { tags, response: { 200: platformHealthSchema, ...errors(403) } } },
    async () => judging.platformHealth(),
  );

  app.get(
    '/platform_health/:ad_account_id/',
    {
      preValidation: mayRead,
      schema: {
        tags,
        params: z.object({
          ad_account_id: z.string().max(100, NOT_FOUND).refine(hasNoControlCharacters, NOT_FOUND).describe('act_<id>'),
        }),
        response: { 200: accountHealthSchema, ...errors(403, 404) },
      },
    },
    async (request) => {
      const health = await judging.platformHealth();
      const account = health.accounts.find((a) => a.ad_account_id === request.params.ad_account_id);
      if (!account) throw notFound();
      return account;
    },
  );
};

export default judgingRoutes;
