/**
 * Checks of a signed-in user's own password (changing the password, changing the own e-mail
 * address) count against the same per-account failures as sign-in (loginFailures.ts): a stolen
 * session cannot guess the password faster than the sign-in form allows, and an account that is
 * waiting, or has a check in flight, is answered 429 before any scrypt run, so a burst of guesses
 * costs the server at most the allowed number of hashes.
 */
import type { Database } from '../db/client';
import { ApiError, ValidationError } from '../http/errors';
import { attemptPasswordCheck } from './loginFailures';
import { verifyPassword } from './passwords';

export const tooManyPasswordFailures = (seconds: number) =>
  new ApiError(429, { detail: `Too many wrong passwords for this account. Try again in ${seconds} seconds.` });

/** Throws 429 while the account waits or is being checked, 400 `{field: [wrongMessage]}` for a wrong password. */
export async function checkOwnPassword(
  db: Database,
  account: { email: string; passwordHash: string },
  password: string,
  field: string,
  wrongMessage: string,
): Promise<void> {
  const outcome = await attemptPasswordCheck(db, account.email, () => verifyPassword(password, account.passwordHash));
  if ('wait' in outcome) throw tooManyPasswordFailures(outcome.wait);
  if (!outcome.passed) throw new ValidationError({ [field]: [wrongMessage] });
}
