/**
 * Run now and Preview, the runs a person asks for (the typed `app.ruleEngine`, requestedRuns.ts;
 * 503 where a server has none): Run now answers the Activity entries its run wrote, Preview what a
 * run would do. Both read the ad platform, so they share one attempt limit. Paths are in docs/api.md.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ruleLogEntrySchema } from '../../shared/contracts';
import { previewAnswerSchema } from '../../shared/previewHold';
import { createRuleLogStore } from '../activity/ruleLogStore';
import { actorOf, requirePermission } from '../auth/plugin';
import { byUser, limitAttempts } from '../http/attemptLimit';
import { errors, idParams, noBody } from '../http/schemas';
import { createScopeGuards } from '../rules/scopeGuards';

const tags = ['rule engine'];

const runNowSchema = z.object({
  status: z.enum([
    'done',
    'already_done',
    'in_progress',
    'rule_unavailable',
    'held',
    'notify_only',
    'unhealthy',
    'failed',
  ]),
  detail: z.string(),
  turned_off: z.number().int(),
  failed: z.number().int(),
  results: z.array(ruleLogEntrySchema),
});

const mayAct = requirePermission('create_update_rules');

const requestedRunRoutes: FastifyPluginAsyncZod = async (app) => {
  const ruleLog = createRuleLogStore(app.db, app.config.listCountCap);
  // A scoped permission group runs rules only in its folders (server/people/ruleScope.ts).
  const scope = createScopeGuards(app.db);
  // Run now and Preview read the ad platform: a person cannot burn the account's call budget.
  const platformBudget = limitAttempts(app, 'engine-platform', [{ key: byUser }], 'rule runs and previews');

  app.post(
    '/rules/:id/run_now/',
    {
      preValidation: [mayAct, platformBudget],
      preHandler: scope.ruleInPath(),
      schema: {
        tags,
        params: idParams,
        body: noBody,
        response: { 200: runNowSchema, ...errors(400, 403, 404, 429, 503) },
      },
    },
    async (request) => {
      const result = await app.ruleEngine.runNow(request.params.id, actorOf(request));
      const ids = [...result.turnedOff, ...result.failed, ...(result.error ? [result.error] : [])].map((e) => e.id);
      return {
        status: result.error ? ('failed' as const) : result.status,
        detail: result.note,
        turned_off: result.turnedOff.length,
        failed: result.failed.length + (result.error ? 1 : 0),
        results: await ruleLog.byIds(ids),
      };
    },
  );

  app.get(
    '/rules/:id/preview/',
    {
      preValidation: [mayAct, platformBudget],
      schema: { tags, params: idParams, response: { 200: previewAnswerSchema, ...errors(403, 404, 429, 502, 503) } },
    },
    async (request) => app.ruleEngine.preview(request.params.id),
  );
};

export default requestedRunRoutes;
