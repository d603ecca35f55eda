/**
 * A folder's lead outcomes summed over its ad account's campaigns (docs/api.md, "Lead outcomes of a
 * folder"): `GET /api/folders/{id}/outcomes/`, with the campaigns list's permission, since its figures
 * are those campaigns' figures summed.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { folderOutcomesSchema } from '../../shared/folderOutcomes';
import { requirePermission } from '../auth/plugin';
import { errors, idParams } from '../http/schemas';
import { createFolderOutcomeStore } from './folderTotals';

const tags = ['lead outcomes'];

const folderOutcomeRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = createFolderOutcomeStore(app.db);

  app.get(
    '/folders/:id/outcomes/',
    {
      preValidation: requirePermission('add_edit_campaigns'),
      schema: {
        tags,
        summary: "The folder's webinar and CRM outcomes, summed over its ad account's campaigns",
        params: idParams,
        response: { 200: folderOutcomesSchema, ...errors(403, 404) },
      },
    },
    async (request) => store.totals(request.params.id),
  );
};

export default folderOutcomeRoutes;
