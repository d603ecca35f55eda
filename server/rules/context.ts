/** What the folder, rule and trash routes share: the credentials cipher, the audit actor and folder. */
import type { FastifyRequest } from 'fastify';
import type { AuditActor } from '../audit/log';
import { actorOf } from '../auth/plugin';
import type { CredentialCipher } from './credentials';

export interface RulesRouteOptions {
  cipher: CredentialCipher;
}

export function auditActor(request: FastifyRequest): AuditActor {
  const user = actorOf(request);
  return { id: user.id, first_name: user.first_name, last_name: user.last_name, email: user.email };
}

/** A folder as its audit entries name it, with its ad account's name copied at write time. */
export const auditFolder = (folder: { id: number; name: string }, account: { accountName: string } | null) => ({
  id: folder.id,
  name: folder.name,
  adAccountName: account?.accountName ?? null,
});

export const searchText = (query: unknown): string =>
  String((query as { search?: unknown } | undefined)?.search ?? '').trim();
