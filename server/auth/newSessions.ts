/** A sign-in's session: a row of `sessions` that ends SESSION_MAX_DAYS later, and its first token pair. */
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/client';
import { sessions } from '../db/schema/index';
import { sessionVersionOf, type TokenPairs } from './tokenPairs';
import { TokenError, type TokenPair } from './tokenTypes';

export function newSessionsOf(writes: Database, sessionMaxMs: number, pairs: TokenPairs) {
  return {
    /** Signs a user in: a new session and its first pair. */
    async issue(userId: number): Promise<TokenPair> {
      const user = await sessionVersionOf(writes, userId);
      if (!user) throw new TokenError('User not found');
      const id = randomUUID();
      const expiresAt = new Date(Date.now() + sessionMaxMs);
      await writes.insert(sessions).values({ id, userId, expiresAt });
      return pairs.pairFor(userId, user.version, { id, expiresAt });
    },
  };
}
