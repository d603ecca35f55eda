/**
 * Backtests (docs/api.md): `POST /api/backtests/` starts one on a rule body (saved or not) and
 * answers the job; `GET /api/backtests/{id}/` its progress and, once done, its result with the
 * first pauses; `GET /api/backtests/{id}/pauses/` pages through the rest;
 * `DELETE /api/backtests/{id}/` cancels it. Only the user who started a job sees it.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { backtestJobSchema, backtestPauseSchema } from '../../shared/backtest';
import { actorOf, requirePermission } from '../auth/plugin';
import { byUser, limitAttempts } from '../http/attemptLimit';
import { paginate, pageRequest } from '../http/pagination';
import { errors, NOT_FOUND, pageOf, pageQuery } from '../http/schemas';
import { BacktestJobs } from './jobs';
import { createBacktestJobStore, FIRST_PAGE } from './jobStore';
import { backtestRequestSchema, createBacktests } from './service';

const tags = ['backtest'];
// Anything but a job id (a UUID) names no job: 404, and never reaches the database.
const jobParams = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, NOT_FOUND)
    .describe('The job id'),
});

const backtestRoutes: FastifyPluginAsyncZod = async (app) => {
  const backtests = createBacktests(app.db);
  const jobs = new BacktestJobs(createBacktestJobStore(app.db), {
    onError: (error) => app.log.error({ err: error }, 'backtest job could not be recorded'),
  });
  app.addHook('onClose', () => jobs.close());
  const limits = { maxShare: app.config.engineMaxShare, maxActions: app.config.engineMaxActions };
  // Budgets and ad sets as they are now (the history keeps neither), where this server reads the platform.
  const readNow = app.metricHistory.platformNow?.bind(app.metricHistory);
  const platformNow = readNow
    ? async (adAccountId: string) => {
        const { budgets, ads } = await readNow(adAccountId);
        return { budgets, adsetOfAd: new Map(ads.filter((ad) => ad.adset_id).map((ad) => [ad.id, ad.adset_id])) };
      }
    : undefined;
  const mayRead = requirePermission('read_rules');
  const startsPerPerson = limitAttempts(
    app,
    'backtest',
    [{ key: byUser, max: app.config.backtestRateLimit }],
    'backtests started',
  );

  app.post(
    '/backtests/',
    {
      preValidation: [mayRead, startsPerPerson],
      schema: {
        tags,
        body: backtestRequestSchema,
        response: { 202: backtestJobSchema, ...errors(400, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const prepared = await backtests.prepare(request.body);
      const now = new Date();
      const job = await jobs.start(actorOf(request).id, (control) =>
        backtests.run(request.body, prepared, {
          now,
          limits,
          signal: control.signal,
          onProgress: control.progress,
          ...(platformNow ? { platformNow } : {}),
        }),
      );
      return reply.status(202).send(job);
    },
  );

  app.get(
    '/backtests/:id/',
    {
      preValidation: mayRead,
      schema: { tags, params: jobParams, response: { 200: backtestJobSchema, ...errors(403, 404) } },
    },
    async (request) => jobs.get(actorOf(request).id, request.params.id),
  );

  app.get(
    '/backtests/:id/pauses/',
    {
      preValidation: mayRead,
      schema: {
        tags,
        summary: "A page of a finished backtest's listed pauses",
        params: jobParams,
        querystring: pageQuery,
        response: { 200: pageOf(backtestPauseSchema), ...errors(403, 404) },
      },
    },
    async (request) => {
      const paging = pageRequest(request.query, FIRST_PAGE, FIRST_PAGE);
      return paginate(request, paging, await jobs.pauses(actorOf(request).id, request.params.id, paging));
    },
  );

  app.delete(
    '/backtests/:id/',
    {
      preValidation: mayRead,
      schema: { tags, params: jobParams, response: { 200: backtestJobSchema, ...errors(403, 404) } },
    },
    async (request) => jobs.cancel(actorOf(request).id, request.params.id),
  );
};

export default backtestRoutes;
