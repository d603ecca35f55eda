/**
 * A token's own checks (`token`, `token_expiry`), kept under its scope in account_health: the
 * environment's under TOKEN_SCOPE, an added connection's under connectionScope(id). They concern
 * the ad accounts that token serves (server/connections/).
 */
import type { Database } from '../db/client';
import { TOKEN_WARNING_DAYS } from './checks';
import { createHealthStore } from './store';

const DAY_MS = 24 * 3_600_000;

/** The token works; its expiry is a warning within TOKEN_WARNING_DAYS. */
export async function recordTokenWorks(db: Database, scope: string, expiresAt: Date | null, at: Date): Promise<void> {
  const health = createHealthStore(db);
  await health.recordCheck(scope, 'token', 'ok', 'the token works', at);
  const soon = expiresAt && expiresAt.getTime() - at.getTime() < TOKEN_WARNING_DAYS * DAY_MS;
  await health.recordCheck(
    scope,
    'token_expiry',
    soon ? 'warning' : 'ok',
    expiresAt ? `expires ${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'no expiry known',
    at,
  );
}

/** Meta refused the token (or this server cannot read it): a problem for every account it serves. */
export const recordTokenRefused = (db: Database, scope: string, detail: string, at: Date) =>
  createHealthStore(db).recordCheck(scope, 'token', 'problem', detail, at);
