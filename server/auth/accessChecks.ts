/** What a request's access token speaks for, and whether its session still runs (the auth hook's checks). */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { sessions } from '../db/schema/index';
import type { TokenSigning } from './tokenSigning';
import type { AccessClaims } from './tokenTypes';
import { verifiedAccessTokens } from './verifiedAccessTokens';

export function accessChecksOf(reads: Database, signing: TokenSigning) {
  const verified = verifiedAccessTokens();
  return {
    /** What an access token speaks for; the caller checks the session (`sessionExpiry`) and the version. */
    async verifyAccess(token: string): Promise<AccessClaims> {
      const known = verified.known(token);
      if (known) return known;
      const payload = await signing.verify(token, 'access');
      const claims = {
        userId: payload.user_id,
        sessionId: typeof payload.sid === 'string' ? payload.sid : null,
        version: typeof payload.ver === 'number' ? payload.ver : -1,
      };
      verified.remember(token, claims, (payload.exp ?? 0) * 1000);
      return claims;
    },

    /** When a session ends, or null when it has ended already (revoked, expired) or never was. */
    async sessionExpiry(sessionId: string): Promise<Date | null> {
      const [row] = await reads
        .select({ expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)));
      return row?.expiresAt ?? null;
    },
  };
}
