/** Ids taken from request paths. */
import type { FastifyRequest } from 'fastify';
import { notFound } from './errors';

/** The largest value of the database's integer id columns. */
const MAX_ID = 2_147_483_647;

/** '12' → 12; anything that is not a positive integer that fits an id column → undefined. */
export function parseId(raw: unknown): number | undefined {
  const text = String(raw ?? '');
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id > 0 && id <= MAX_ID ? id : undefined;
}

/** The path parameter `name` as an id; anything else is a 404, as for a row that does not exist. */
export function pathId(request: FastifyRequest, name = 'id'): number {
  const id = parseId((request.params as Record<string, unknown>)[name]);
  if (id === undefined) throw notFound();
  return id;
}
