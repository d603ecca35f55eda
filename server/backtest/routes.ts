/**
 * Backtests (docs/api.md): `POST /api/backtests/` starts one on a rule body (saved or not) and
 * answers the job; `GET /api/backtests/{id}/` its progress and, once done, its result;
 * `DELETE /api/backtests/{id}/` cancels it. Only the user who started a job sees it.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { backtestJobSchema } from '../../src/domain/backtest';
import { actorOf, requirePermission } from '../auth/plugin';
import { errors } from '../http/schemas';
import { JobRegistry } from './jobs';
import { backtestRequestSchema, createBacktests, type BacktestResult } from './service';

const tags = ['backtest'];
const jobParams = z.object({ id: z.string().max(64).describe('The job id') });

const backtestRoutes: FastifyPluginAsyncZod = async (app) => {
  const backtests = createBacktests(app.db);
  const jobs = new JobRegistry<BacktestResult>();
  const limits = { maxShare: app.config.engineMaxShare, maxActions: app.config.engineMaxActions };
  const mayRead = requirePermission('read_rules');

  app.post(
    '/backtests/',
    {
      preValidation: mayRead,
      schema: {
        tags,
        body: backtestRequestSchema,
        response: { 202: backtestJobSchema, ...errors(400, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const prepared = await backtests.prepare(request.body);
      const now = new Date();
      const job = jobs.start(actorOf(request).id, (control) =>
        backtests.run(request.body, prepared, {
          now,
          limits,
          signal: control.signal,
          onProgress: control.progress,
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
