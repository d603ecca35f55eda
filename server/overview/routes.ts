/**
 * The agency overview (docs/api.md, "Agency overview"): `GET /api/overview/`, every live folder with
 * its spend and leads today and over the last 7 days, its CPL against its rules' thresholds, what its
 * rules did today, its held runs and health problems, those that need a person first.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { agencyOverviewSchema } from '../../shared/overview';
import { requirePermission } from '../auth/plugin';
import { errors } from '../http/schemas';
import { createOverviewStore } from './store';

const tags = ['overview'];

const overviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const overview = createOverviewStore(app.db);

  app.get(
    '/overview/',
    {
      // Folders, their rules' thresholds, their runs and their accounts' health: what read_rules reads.
      preValidation: requirePermission('read_rules'),
      schema: {
        tags,
        summary: 'Every live folder with what needs a person first',
        response: { 200: agencyOverviewSchema, ...errors(403) },
      },
    },
    async () => overview.overview(new Date()),
  );
};

export default overviewRoutes;
