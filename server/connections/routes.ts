/**
 * Meta business connections (docs/api.md, "Meta connections"):
 *   GET    /api/meta_connections/        the connections, the built-in one first   read_rules | create_update_rules | add_edit_campaigns
 *   GET    /api/meta_connections/{id}/   one, with the ad accounts it reaches      the same
 *   POST   /api/meta_connections/        add one: {name?, token}                   admins (superusers)
 *   DELETE /api/meta_connections/{id}/   remove an added one                       admins (superusers)
 * The token is checked with Meta, stored encrypted and never answered.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CONNECTION_MESSAGES,
  CONNECTION_READERS,
  mayChangeConnections,
  metaConnectionCreateSchema,
  metaConnectionDetailSchema,
  metaConnectionSchema,
} from '../../shared/metaConnections';
import { actorOf, requireAnyPermission, type Guard } from '../auth/plugin';
import { permissionDenied } from '../http/errors';
import { paginate, pageRequest } from '../http/pagination';
import { errors, idParams, noContent, pageOf, pageQuery } from '../http/schemas';
import { createMetaConnectionStore } from './store';

const tags = ['meta connections'];
/** Whoever sees the ad accounts sees which connection reaches them. */
const mayRead = requireAnyPermission(...CONNECTION_READERS);
const adminsOnly: Guard = async (request) => {
  if (!mayChangeConnections(actorOf(request))) throw permissionDenied(CONNECTION_MESSAGES.adminsOnly);
};

const connectionRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = createMetaConnectionStore(app.db, { cipher: app.credentials, service: app.metaConnections });

  app.get(
    '/meta_connections/',
    {
      preValidation: mayRead,
      schema: { tags, querystring: pageQuery, response: { 200: pageOf(metaConnectionSchema), ...errors(403) } },
    },
    async (request) => {
      const paging = pageRequest(request.query, 100);
      return paginate(request, paging, await store.list(paging));
    },
  );

  app.get(
    '/meta_connections/:id/',
    {
      preValidation: mayRead,
      schema: { tags, params: idParams, response: { 200: metaConnectionDetailSchema, ...errors(403, 404) } },
    },
    async (request) => store.get(request.params.id),
  );

  app.post(
    '/meta_connections/',
    {
      preValidation: adminsOnly,
      schema: {
        tags,
        body: metaConnectionCreateSchema,
        response: { 201: metaConnectionDetailSchema, ...errors(400, 403, 502, 503) },
      },
    },
    async (request, reply) => reply.status(201).send(await store.add(actorOf(request), request.body)),
  );

  app.delete(
    '/meta_connections/:id/',
    {
      preValidation: adminsOnly,
      schema: { tags, params: idParams, response: { 204: noContent, ...errors(400, 403, 404) } },
    },
    async (request, reply) => {
      await store.remove(actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

export default connectionRoutes;
