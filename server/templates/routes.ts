/**
 * Templates: `GET/POST /api/templates/`, `GET/PATCH/DELETE /api/templates/{id}/`,
 * `POST /api/templates/{id}/preview/` (what an edit would change across the folders, with their
 * backtest), `POST /api/templates/{id}/folders/` (a folder uses it), `POST /api/templates/{id}/link/`
 * (a lookalike follows it), and on a following rule `POST /api/rules/{id}/leave_template/` and
 * `POST /api/rules/{id}/reset_override/`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ruleSchema } from '../../shared/rules';
import { hasNoControlCharacters, MESSAGES } from '../../shared/validation';
import {
  isTemplateField,
  templateListRowSchema,
  templatePreviewSchema,
  templateSchema,
  type TemplateField,
} from '../../shared/templates';
import { actorOf, requirePermission } from '../auth/plugin';
import { MAX_ID } from '../http/params';
import { paginate, pageRequest } from '../http/pagination';
import { errors, idParams, noBody, noContent, orderingQuery, pageOf, pageQuery, searchQuery } from '../http/schemas';
import { ruleScopeFrom } from '../people/ruleScope';
import { rulePatchSchema } from '../rules/ruleUpdate';
import { createTemplatePreviews } from './preview';
import { createTemplateStore, type Viewer } from './store';

const tags = ['templates'];
const readRules = requirePermission('read_rules');
const changeRules = requirePermission('create_update_rules');

const ref = (message: string) =>
  z.coerce.number({ error: message }).int(message).positive(message).max(MAX_ID, message);

const createBody = z.object({
  name: z
    .string()
    .trim()
    .max(200, MESSAGES.max(200))
    .refine(hasNoControlCharacters, MESSAGES.controlCharacters)
    .optional(),
  rule: ref('Rule not found')
    .optional()
    .describe('A rule whose values the template starts from; the rule then follows it'),
});

const oneTemplate = { tags, params: idParams, response: { 200: templateSchema, ...errors(400, 403, 404) } };
const oneRule = { tags, params: idParams, response: { 200: ruleSchema, ...errors(400, 403, 404) } };

const templateRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = createTemplateStore(app.db, { writes: app.writeDb });
  const previews = createTemplatePreviews(app.db, store);

  function viewerOf(request: FastifyRequest): Viewer {
    const actor = actorOf(request);
    return { actor, scope: ruleScopeFrom(actor), canEditRules: actor.permissions.has('create_update_rules') };
  }

  app.get(
    '/templates/',
    {
      preValidation: readRules,
      schema: {
        tags,
        querystring: pageQuery.extend(orderingQuery.shape).extend(searchQuery.shape),
        response: { 200: pageOf(templateListRowSchema), ...errors(403) },
      },
    },
    async (request) => {
      const paging = pageRequest(request.query, 25, 100);
      return paginate(
        request,
        paging,
        await store.list({ ...paging, search: request.query.search, ordering: request.query.ordering }),
      );
    },
  );

  app.post(
    '/templates/',
    {
      preValidation: changeRules,
      schema: { tags, body: createBody, response: { 201: templateSchema, ...errors(400, 403) } },
    },
    async (request, reply) => reply.status(201).send(await store.create(viewerOf(request), request.body)),
  );

  app.get(
    '/templates/:id/',
    { preValidation: readRules, schema: { ...oneTemplate, response: { 200: templateSchema, ...errors(403, 404) } } },
    async (request) => store.find(request.params.id, viewerOf(request)),
  );

  app.patch(
    '/templates/:id/',
    { preValidation: changeRules, schema: { ...oneTemplate, body: rulePatchSchema } },
    async (request) => store.update(viewerOf(request), request.params.id, request.body),
  );

  app.post(
    '/templates/:id/preview/',
    {
      preValidation: readRules,
      schema: {
        tags,
        params: idParams,
        body: rulePatchSchema,
        response: { 200: templatePreviewSchema, ...errors(400, 403, 404) },
      },
    },
    async (request) => previews.preview(request.params.id, request.body),
  );

  app.delete(
    '/templates/:id/',
    {
      preValidation: changeRules,
      schema: { tags, params: idParams, response: { 204: noContent, ...errors(403, 404) } },
    },
    async (request, reply) => {
      await store.remove(viewerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/templates/:id/folders/',
    {
      preValidation: changeRules,
      schema: {
        tags,
        params: idParams,
        body: z.object({ folder: ref('Folder not found') }),
        response: { 201: ruleSchema, ...errors(400, 403, 404) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await store.use(viewerOf(request), request.params.id, request.body.folder)),
  );

  app.post(
    '/templates/:id/link/',
    {
      preValidation: changeRules,
      schema: { ...oneRule, body: z.object({ rule: ref('Rule not found') }) },
    },
    async (request) => store.link(viewerOf(request), request.params.id, request.body.rule),
  );

  app.post(
    '/rules/:id/leave_template/',
    { preValidation: changeRules, schema: { ...oneRule, body: noBody } },
    async (request) => store.leave(viewerOf(request), request.params.id),
  );

  app.post(
    '/rules/:id/reset_override/',
    {
      preValidation: changeRules,
      schema: {
        ...oneRule,
        body: z.object({
          field: z
            .string({ error: 'This field is required.' })
            .refine(isTemplateField, 'Unknown field')
            .describe("The overridden field that follows the template again, e.g. 'task:trigger_cpl' or 'timezone'"),
        }),
      },
    },
    async (request) => store.resetOverride(viewerOf(request), request.params.id, request.body.field as TemplateField),
  );
};

export default templateRoutes;
