/**
 * The platform's health as the API reads it: the health panel (the environment token's checks, each
 * added connection's, every watched account's), and one account's, with its measured lead lag, for
 * the rule editor's lead-lag allowance. Read from the stored checks (report.ts over store.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountHealthSchema, platformHealthSchema } from '../../shared/health';
import { hasNoControlCharacters } from '../../shared/validation';
import { requirePermission } from '../auth/plugin';
import { notFound } from '../http/errors';
import { errors, NOT_FOUND } from '../http/schemas';
import { platformHealthNow } from './report';

const tags = ['rule engine'];
const mayRead = requirePermission('read_rules');

const platformHealthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/platform_health/',
    { preValidation: mayRead, schema: { tags, response: { 200: platformHealthSchema, ...errors(403) } } },
    async () => platformHealthNow(app.db),
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
      const health = await platformHealthNow(app.db);
      const account = health.accounts.find((a) => a.ad_account_id === request.params.ad_account_id);
      if (!account) throw notFound();
      return account;
    },
  );
};

export default platformHealthRoutes;
