/**
 * The metric history of a folder's ad account (docs/api.md): `GET /api/history/?folder=` what it
 * holds, `POST /api/history/fill/` fills it from the platform's breakdowns (settled numbers).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { historyCoverageSchema } from '../../shared/backtest';
import { requirePermission } from '../auth/plugin';
import { byUser, limitAttempts } from '../http/attemptLimit';
import { MAX_ID } from '../http/params';
import { errors } from '../http/schemas';
import { createHistoryStore } from './store';

const tags = ['history'];
const folderId = z.coerce.number().int().positive().max(MAX_ID).describe('The folder whose ad account it is');

const historyRoutes: FastifyPluginAsyncZod = async (app) => {
  const history = createHistoryStore(app.db);
  const platformBudget = limitAttempts(app, 'history-fill', [{ key: byUser }], 'history fills');

  app.get(
    '/history/',
    {
      preValidation: requirePermission('read_rules'),
      schema: {
        tags,
        querystring: z.object({ folder: folderId }),
        response: { 200: historyCoverageSchema, ...errors(400, 403, 404) },
      },
    },
    async (request) => history.coverage(await history.accountOfFolder(request.query.folder)),
  );

  app.post(
    '/history/fill/',
    {
      preValidation: [requirePermission('create_update_rules'), platformBudget],
      schema: {
        tags,
        body: z.object({ folder: folderId }),
        response: { 200: historyCoverageSchema, ...errors(400, 403, 404, 429, 502, 503) },
      },
    },
    async (request) => {
      const adAccountId = await history.accountOfFolder(request.body.folder);
      await app.metricHistory.backfill(adAccountId);
      return history.coverage(adAccountId);
    },
  );
};

export default historyRoutes;
