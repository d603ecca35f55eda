/**
 * What auth writes on a user's row: the sign-in facts (last login, a password hash upgraded at
 * sign-in) and the session version that ends every session. people owns `users` (every other
 * write of the row is here) and auth calls this store; it imports nothing of auth, so no cycle.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { users } from '../db/schema/index';

export function createUserWritesStore(db: Database) {
  return {
    /** A sign-in now; `upgradedHash`: the password hashed again with today's parameters. */
    async recordSignIn(userId: number, upgradedHash?: string): Promise<void> {
      await db
        .update(users)
        .set({ lastLogin: sql`now()`, ...(upgradedHash === undefined ? {} : { passwordHash: upgradedHash }) })
        .where(eq(users.id, userId));
    },

    /** The user's session version moves on: every access token carrying the old one stops working. */
    async bumpSessionVersion(userId: number): Promise<void> {
      await db
        .update(users)
        .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
        .where(eq(users.id, userId));
    },
  };
}

export type UserWritesStore = ReturnType<typeof createUserWritesStore>;
