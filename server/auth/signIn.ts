/** Signing in and refreshing a session: the checks behind `POST /api/token/` and `/api/token/refresh/`. */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { users } from '../db/schema/index';
import { ApiError } from '../http/errors';
import { findUserByEmail } from '../people/users';
import { decoyHash, verifyPassword } from './passwords';
import { TokenError, type TokenPair, type TokenService } from './tokens';

const invalidCredentials = () => new ApiError(401, { detail: 'No active account found with the given credentials' });

/** A new token pair for an active user's right password; unknown e-mails take as long as wrong passwords. */
export async function signIn(db: Database, tokens: TokenService, email: string, password: string): Promise<TokenPair> {
  const user = await findUserByEmail(db, email);
  const valid = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !valid || !user.isActive) throw invalidCredentials();
  await db.update(users).set({ lastLogin: sql`now()` }).where(eq(users.id, user.id));
  return tokens.issue(user.id);
}

/** Trades a refresh token for a new pair; a used, revoked or expired one answers 401. */
export async function refreshSession(tokens: TokenService, refresh: string): Promise<TokenPair> {
  try {
    return await tokens.rotate(refresh);
  } catch (error) {
    if (error instanceof TokenError) {
      throw new ApiError(401, { detail: 'Token is invalid or expired', code: 'token_not_valid' });
    }
    throw error;
  }
}
