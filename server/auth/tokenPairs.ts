/** A session's token pair, its access token stamped with the user's session version. */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { refreshTokens, users } from '../db/schema/index';
import type { TokenSigning } from './tokenSigning';
import { TokenError, type TokenPair, type TokenSettings } from './tokenTypes';

export function tokenPairsOf(writes: Database, settings: TokenSettings, signing: TokenSigning) {
  return {
    /** A token pair for a session; the refresh token never outlives the session. */
    async pairFor(userId: number, version: number, session: { id: string; expiresAt: Date }): Promise<TokenPair> {
      const jti = randomUUID();
      const refreshMs = Math.min(settings.refreshTokenSeconds * 1000, session.expiresAt.getTime() - Date.now());
      if (refreshMs <= 0) throw new TokenError('Session expired');
      await writes
        .insert(refreshTokens)
        .values({ jti, userId, sessionId: session.id, expiresAt: new Date(Date.now() + refreshMs) });
      return {
        access: await signing.sign(
          { token_type: 'access', sid: session.id, ver: version },
          userId,
          Math.min(settings.accessTokenSeconds, refreshMs / 1000),
          randomUUID(),
        ),
        refresh: await signing.sign({ token_type: 'refresh', sid: session.id }, userId, refreshMs / 1000, jti),
      };
    },
  };
}

export type TokenPairs = ReturnType<typeof tokenPairsOf>;

/** The user's session version (what their access tokens carry) and whether they are active; null: no such user. */
export async function sessionVersionOf(
  writes: Database,
  userId: number,
): Promise<{ version: number; isActive: boolean } | null> {
  const [user] = await writes
    .select({ version: users.sessionVersion, isActive: users.isActive })
    .from(users)
    .where(eq(users.id, userId));
  return user ?? null;
}
