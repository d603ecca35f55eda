/** Ending sessions: one (logout, a reused refresh token) or every one of a user's (`endSessions`). */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { refreshTokens, sessions } from '../db/schema/index';
import { createUserWritesStore } from '../people/userWrites';
import type { SessionEnd } from './tokenTypes';

/** The session ends now, every refresh token of it with it. */
export async function revokeSession(writes: Database, sessionId: string, reason: SessionEnd): Promise<void> {
  await writes
    .update(sessions)
    .set({ revokedAt: sql`now()`, revokedReason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  await writes
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.revokedAt)));
}

export function sessionEndsOf(writes: Database) {
  const userWrites = createUserWritesStore(writes);
  return {
    /**
     * Every session of the user ends now: access tokens stop working at their next request (the
     * version moves on) and refresh tokens are revoked. A caller that keeps the user signed in
     * (their own password change) issues a fresh session afterwards.
     */
    async endSessions(userId: number, reason: SessionEnd): Promise<void> {
      await userWrites.bumpSessionVersion(userId);
      await writes
        .update(sessions)
        .set({ revokedAt: sql`now()`, revokedReason: reason })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
      await writes
        .update(refreshTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
    },
  };
}
