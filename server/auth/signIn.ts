/** Signing in and refreshing a session: the checks behind `POST /api/token/` and `/api/token/refresh/`. */
import type { Database } from '../db/client';
import { ApiError } from '../http/errors';
import { createUserWritesStore } from '../people/userWrites';
import { findUserByEmail } from '../people/users';
import { attemptPasswordCheck } from './loginFailures';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './passwords';
import { TokenError, type TokenPair, type TokenService } from './tokens';

const invalidCredentials = () => new ApiError(401, { detail: 'No active account found with the given credentials' });
const tooManyFailures = (seconds: number) =>
  new ApiError(429, { detail: `Too many failed sign-ins for this account. Try again in ${seconds} seconds.` });

/**
 * A new token pair for an active user's right password; unknown e-mails take as long as wrong
 * passwords. An e-mail with too many recent failures, or with another check in flight, waits first
 * (loginFailures.ts), whatever the password, so the wait tells nothing.
 */
export async function signIn(db: Database, tokens: TokenService, email: string, password: string): Promise<TokenPair> {
  const user = await findUserByEmail(db, email);
  const outcome = await attemptPasswordCheck(db, email, async () => {
    const valid = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
    return valid && !!user?.isActive;
  });
  if ('wait' in outcome) throw tooManyFailures(outcome.wait);
  if (!outcome.passed || !user) throw invalidCredentials();
  // A hash made with weaker parameters than today's is upgraded while the password is at hand.
  const upgradedHash = needsRehash(user.passwordHash) ? await hashPassword(password) : undefined;
  await createUserWritesStore(db).recordSignIn(user.id, upgradedHash);
  return tokens.issue(user.id);
}

/** Logout: the session of this refresh token ends; a token that is not one has nothing to end. */
export async function endSession(tokens: TokenService, refresh: string): Promise<void> {
  await tokens.logout(refresh).catch((error) => {
    if (!(error instanceof TokenError)) throw error;
  });
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

/** Sessions over one database and token service, as the token routes start, refresh and end them. */
export function createSessions(db: Database, tokens: TokenService) {
  return {
    signIn: (email: string, password: string) => signIn(db, tokens, email, password),
    refresh: (refresh: string) => refreshSession(tokens, refresh),
    end: (refresh: string) => endSession(tokens, refresh),
  };
}
