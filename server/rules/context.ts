/** What the folder, rule and trash routes share: the credentials cipher, ids from paths, the audit actor. */
import type { FastifyRequest } from 'fastify';
import type { AuditActor } from '../audit/log';
import { currentUser } from '../auth/plugin';
import { notFound } from '../http/errors';
import type { CredentialCipher } from './credentials';

export interface RulesRouteOptions {
  cipher: CredentialCipher;
}

/** `/api/rule/12/` → 12; anything that is not a positive integer is a 404, like a missing row. */
export function idParam(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound();
  return id;
}

export function auditActor(request: FastifyRequest): AuditActor {
  const user = currentUser(request);
  return { id: user.id, first_name: user.first_name, last_name: user.last_name, email: user.email };
}

export const searchText = (query: unknown): string => String((query as { search?: unknown } | undefined)?.search ?? '').trim();
