/**
 * The API of every resource defined in one file (shared/resources/): its list, one record,
 * and — when the definition lets anyone change it — create, edit and delete, each with its schema
 * (the OpenAPI document's) and its guard. The handlers are the store's calls.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { createSchemaOf, recordSchemaOf, updateSchemaOf, type ResourceSpec } from '../../shared/resources/define';
import { hasNoControlCharacters } from '../../shared/validation';
import { actorOf, requireAnyPermission } from '../auth/plugin';
import { notFound } from '../http/errors';
import { paginate, pageRequest } from '../http/pagination';
import { NOT_FOUND, errors, idParams, noContent, orderingQuery, pageOf, pageQuery, searchQuery } from '../http/schemas';
import { definedResources } from './registry';
import { savedChecksOf } from './savedChecks';
import { createResourceStore } from './store';

/** A text id (an ad account's): one with a control character names no row, so it is answered 404 like one. */
const textIdParams = z.object({
  id: z.string().min(1).max(100).refine(hasNoControlCharacters, NOT_FOUND),
});
const listQuery = pageQuery.extend(orderingQuery.shape).extend(searchQuery.shape);

interface Request<P = { id: string | number }, B = Record<string, unknown>, Q = z.output<typeof listQuery>> {
  params: P;
  body: B;
  query: Q;
}

function resourceRoutesOf(spec: ResourceSpec) {
  const tags = [spec.name];
  const record = recordSchemaOf(spec);
  const params = spec.idField ? textIdParams : idParams;
  const mayRead = requireAnyPermission(...spec.access.read);
  const mayChange = spec.access.change ? requireAnyPermission(...spec.access.change) : null;
  return { tags, record, params, mayRead, mayChange };
}

const resourceRoutes: FastifyPluginAsync = async (app) => {
  for (const resource of await definedResources()) {
    const { spec } = resource;
    const { tags, record, params, mayRead, mayChange } = resourceRoutesOf(spec);
    const store = createResourceStore(app.db, {
      resource,
      cipher: app.credentials,
      check: savedChecksOf(app)[spec.name],
    });
    const path = `/${spec.path}`;
    const one = `${path}:id/`;
    const found = async (id: string | number) => (await store.find(id)) ?? Promise.reject(notFound());

    app.get(
      path,
      {
        preValidation: mayRead,
        schema: { tags, querystring: listQuery, response: { 200: pageOf(record), ...errors(403) } },
      },
      async (request) => {
        const { query } = request as unknown as Request;
        const paging = pageRequest(query, spec.list?.perPage ?? 25, spec.list?.maxPerPage ?? 100);
        return paginate(request, paging, await store.list(paging, query));
      },
    );

    app.get(
      one,
      { preValidation: mayRead, schema: { tags, params, response: { 200: record, ...errors(403, 404) } } },
      async (request) => found((request as unknown as Request).params.id),
    );

    if (!mayChange) continue;

    app.post(
      path,
      {
        preValidation: mayChange,
        schema: { tags, body: createSchemaOf(spec), response: { 201: record, ...errors(400, 403) } },
      },
      async (request, reply) =>
        reply.status(201).send(await store.create(actorOf(request), (request as unknown as Request).body)),
    );

    app.patch(
      one,
      {
        preValidation: mayChange,
        schema: { tags, params, body: updateSchemaOf(spec), response: { 200: record, ...errors(400, 403, 404) } },
      },
      async (request) => {
        const { params: p, body } = request as unknown as Request;
        return (await store.update(actorOf(request), p.id, body)) ?? Promise.reject(notFound());
      },
    );

    app.delete(
      one,
      { preValidation: mayChange, schema: { tags, params, response: { 204: noContent, ...errors(403, 404) } } },
      async (request, reply) => {
        if (!(await store.remove(actorOf(request), (request as unknown as Request).params.id))) throw notFound();
        return reply.status(204).send(null);
      },
    );
  }
};

export default resourceRoutes;
