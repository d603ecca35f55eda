/** The judging settings' API beside the rule's own: a rule's conflicts with the other active rules on its ad account. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ruleConflictSchema } from '../../shared/judging';
import { requirePermission } from '../auth/plugin';
import { errors, idParams } from '../http/schemas';
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
};

export default judgingRoutes;
