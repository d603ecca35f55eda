/**
 * The metric history of a folder's ad account (docs/api.md): `GET /api/history/?folder=` what it
 * holds, `POST /api/history/fill/` fills it from the platform's breakdowns (settled numbers).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { historyCoverageSchema } from '../../src/domain/backtest';
import { requirePermission } from '../auth/plugin';
import type { Database } from '../db/client';
import { folders } from '../db/schema/index';
import { byUser, limitAttempts } from '../http/attemptLimit';
import { notFound } from '../http/errors';
import { errors } from '../http/schemas';
import { historyCoverage } from './store';

const tags = ['history'];
const folderId = z.coerce.number().int().positive().describe('The folder whose ad account it is');

async function accountOfFolder(db: Database, id: number): Promise<string> {
  const [folder] = await db
    .select({ adAccountId: folders.adAccountId })
    .from(folders)
    .where(and(eq(folders.id, id), eq(folders.isDeleted, false)));
  if (!folder) throw notFound();
  return folder.adAccountId;
}

const coverageOf = async (db: Database, adAccountId: string) => {
  const c = await historyCoverage(db, adAccountId);
  return {
    ad_account_id: adAccountId,
    days: c.days,
    ads: c.ads,
    first: c.first,
    last: c.last,
    readings: c.readings,
    settled_readings: c.settledReadings,
  };
};

const historyRoutes: FastifyPluginAsyncZod = async (app) => {
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
    async (request) => coverageOf(app.db, await accountOfFolder(app.db, request.query.folder)),
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
      const adAccountId = await accountOfFolder(app.db, request.body.folder);
      await app.metricHistory.backfill(adAccountId);
      return coverageOf(app.db, adAccountId);
    },
  );
};

export default historyRoutes;
