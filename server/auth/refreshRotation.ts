/**
 * Renewing and logging out with a refresh token. Each refresh token is used once: presenting a used
 * one again means it was stolen or replayed, and the whole session it was rotated in is revoked.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { refreshTokens, sessions } from '../db/schema/index';
import { revokeSession } from './sessionEnds';
import { sessionVersionOf, type TokenPairs } from './tokenPairs';
import type { TokenSigning, VerifiedToken } from './tokenSigning';
import { TokenError, type TokenPair, type TokenSettings } from './tokenTypes';

export function refreshRotationOf(writes: Database, settings: TokenSettings, signing: TokenSigning, pairs: TokenPairs) {
  return {
    /** Trades a refresh token for a new pair; the old one can never be used again (reuse ends the session). */
    async rotate(refresh: string): Promise<TokenPair> {
      const payload = await signing.verify(refresh, 'refresh');
      const userId = payload.user_id;
      const sessionId = await spendRefreshToken(writes, settings, payload);
      const session = sessionId ? await liveSession(writes, sessionId) : undefined;
      if (!session) throw new TokenError('Session expired');
      const user = await sessionVersionOf(writes, userId);
      if (!user?.isActive) throw new TokenError('User is inactive');
      return pairs.pairFor(userId, user.version, session);
    },

    /** Logout: the session of this refresh token ends, every token of it with it. */
    async logout(refresh: string): Promise<void> {
      const payload = await signing.verify(refresh, 'refresh');
      if (typeof payload.sid === 'string') await revokeSession(writes, payload.sid, 'logout');
    },
  };
}

/**
 * Marks the refresh token used and answers its session. A token used before is refused, and its
 * session revoked (reuse, told to `onReuse`); a revoked or unknown one is only refused.
 */
async function spendRefreshToken(
  writes: Database,
  settings: TokenSettings,
  payload: VerifiedToken,
): Promise<string | null> {
  const [used] = await writes
    .update(refreshTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(refreshTokens.jti, payload.jti), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
    .returning({ sessionId: refreshTokens.sessionId });
  if (used) return used.sessionId;
  const [known] = await writes
    .select({ sessionId: refreshTokens.sessionId, usedAt: refreshTokens.usedAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.jti, payload.jti));
  if (known?.usedAt && known.sessionId) {
    await revokeSession(writes, known.sessionId, 'reuse');
    settings.onReuse?.({ userId: payload.user_id, sessionId: known.sessionId });
  }
  throw new TokenError('Token is blacklisted');
}

/** The session, when it was neither revoked nor has expired. */
async function liveSession(writes: Database, sessionId: string) {
  const [session] = await writes
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)));
  return session;
}
