/**
 * Rules: `GET/PATCH /api/rule/{id}/`, `POST /api/rule/` (the folder row's 'Add rule'),
 * `GET /api/rule/get_timezones/`, and `POST /api/rules/{id}/duplicate_rule/`, `/move_to_trash/`,
 * `/restore/`, `DELETE /api/rules/{id}/` (only from the trash).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ruleSchema } from '../../shared/rules';
import { actorOf, requirePermission } from '../auth/plugin';
import { errors, idParams, noBody, noContent } from '../http/schemas';
import { rulePatchSchema } from './ruleUpdate';
import { createRuleStore } from './rules';
import { createScopeGuards } from './scopeGuards';
import { ruleCreateSchema, ruleTags as tags, timezoneOptionSchema } from './schemas';
import { timezoneOptions, type TimezoneOption } from './timezones';

const readRules = requirePermission('read_rules');
const changeRules = requirePermission('create_update_rules');
const useTrash = requirePermission('delete_rules');

/** The answer of the calls that act on one rule and show it again. */
const oneRule = { tags, params: idParams, response: { 200: ruleSchema, ...errors(400, 403, 404) } };

const ruleRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = createRuleStore(app.db, { writes: app.writeDb });
  // A scoped permission group edits rules only in its folders (server/people/ruleScope.ts).
  const scope = createScopeGuards(app.db);

  let zones: { at: number; options: TimezoneOption[] } | null = null;
  app.get(
    '/rule/get_timezones/',
    { preValidation: readRules, schema: { tags, response: { 200: z.array(timezoneOptionSchema), ...errors(403) } } },
    async () => {
      // Offsets move with daylight saving time; an hour-old list is close enough.
      if (!zones || Date.now() - zones.at > 3_600_000) zones = { at: Date.now(), options: timezoneOptions() };
      return zones.options;
    },
  );

  app.post(
    '/rule/',
    {
      preValidation: changeRules,
      preHandler: scope.folderInBody(),
      schema: { tags, body: ruleCreateSchema, response: { 201: ruleSchema, ...errors(400, 403) } },
    },
    async (request, reply) =>
      reply.status(201).send(await store.create(actorOf(request), request.body.folder, request.body)),
  );

  app.get(
    '/rule/:id/',
    {
      preValidation: readRules,
      schema: { tags, params: idParams, response: { 200: ruleSchema, ...errors(403, 404) } },
    },
    async (request) => store.ruleById(request.params.id),
  );

  app.patch(
    '/rule/:id/',
    { preValidation: changeRules, preHandler: scope.ruleInPath(), schema: { ...oneRule, body: rulePatchSchema } },
    async (request) => store.update(actorOf(request), request.params.id, request.body),
  );

  app.post(
    '/rules/:id/duplicate_rule/',
    {
      preValidation: changeRules,
      preHandler: scope.ruleInPath(),
      schema: { ...oneRule, body: noBody, response: { 201: ruleSchema, ...errors(400, 403, 404) } },
    },
    async (request, reply) => reply.status(201).send(await store.duplicate(actorOf(request), request.params.id)),
  );

  app.post(
    '/rules/:id/move_to_trash/',
    { preValidation: changeRules, preHandler: scope.ruleInPath(), schema: { ...oneRule, body: noBody } },
    async (request) => store.moveToTrash(actorOf(request), request.params.id),
  );

  app.post(
    '/rules/:id/restore/',
    { preValidation: useTrash, preHandler: scope.ruleInPath('delete_rules'), schema: { ...oneRule, body: noBody } },
    async (request) => store.restore(actorOf(request), request.params.id),
  );

  app.delete(
    '/rules/:id/',
    {
      preValidation: useTrash,
      preHandler: scope.ruleInPath('delete_rules'),
      schema: { tags, params: idParams, response: { 204: noContent, ...errors(400, 403, 404) } },
    },
    async (request, reply) => {
      await store.deleteRule(actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

export default ruleRoutes;
