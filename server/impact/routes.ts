/**
 * The impact report (docs/api.md): `GET /api/impact/?scope=&id=&days=` as JSON, and
 * `GET /api/impact/export/` with the same query as a CSV file of its turn-offs.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_ID } from '../http/params';
import { IMPACT_SPANS } from '../../shared/backtest';
import { impactReportSchema } from '../../shared/impact';
import { requirePermission } from '../auth/plugin';
import { ValidationError } from '../http/errors';
import { errors } from '../http/schemas';
import { impactCsv } from './csv';
import { createImpactStore, type ImpactScope } from './report';

const tags = ['impact'];

const impactQuery = z.object({
  scope: z
    .enum(['agency', 'folder', 'rule'])
    .default('agency')
    .describe('Whose turn-offs: every rule, a folder’s, or one rule’s'),
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(MAX_ID)
    .optional()
    .describe('The folder or rule id (scope folder or rule)'),
  days: z.coerce.number().int().default(7).describe('7 or 30'),
});

function scopeOf(query: z.infer<typeof impactQuery>): ImpactScope {
  if (!(IMPACT_SPANS as readonly number[]).includes(query.days))
    throw new ValidationError({ days: ['The impact report covers the last 7 or 30 days.'] });
  if (query.scope === 'agency') return { kind: 'agency' };
  if (!query.id) throw new ValidationError({ id: [`Name the ${query.scope} whose impact to show.`] });
  return { kind: query.scope, id: query.id };
}

const impactRoutes: FastifyPluginAsyncZod = async (app) => {
  const impact = createImpactStore(app.db);
  const mayView = requirePermission('view_logs');

  app.get(
    '/impact/',
    {
      preValidation: mayView,
      schema: { tags, querystring: impactQuery, response: { 200: impactReportSchema, ...errors(400, 403, 404) } },
    },
    async (request) => impact.report(scopeOf(request.query), request.query.days, new Date()),
  );

  app.get(
    '/impact/export/',
    {
      preValidation: mayView,
      schema: {
        tags,
        querystring: impactQuery,
        response: { 200: z.string().describe('CSV, one row per turn-off'), ...errors(400, 403, 404) },
      },
    },
    async (request, reply) => {
      const report = await impact.report(scopeOf(request.query), request.query.days, new Date());
      const name = `impact-${report.scope.kind}${report.scope.id ? `-${report.scope.id}` : ''}-${report.days}d.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(impactCsv(report));
    },
  );
};

export default impactRoutes;
