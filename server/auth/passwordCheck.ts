/**
 * Checks of a signed-in user's own password (changing the password, changing the own e-mail
 * address) count against the same per-account failures as sign-in (loginFailures.ts): a stolen
 * session cannot guess the password faster than the sign-in form allows, and an account that is
 * waiting is answered 429 before any scrypt run, so guesses cost the server nothing.
 */
import type { Database } from '../db/client';
import { ApiError, ValidationError } from '../http/errors';
import { clearFailures, recordFailure, waitBeforeAttempt } from './loginFailures';
import { verifyPassword } from './passwords';

export const tooManyPasswordFailures = (seconds: number) =>
  new ApiError(429, { detail: `Too many wrong passwords for this account. Try again in ${seconds} seconds.` });

/** Throws 429 while the account waits, 400 `{field: [wrongMessage]}` for a wrong password. */
export async function checkOwnPassword(
  db: Database,
  account: { email: string; passwordHash: string },
  password: string,
  field: string,
  wrongMessage: string,
): Promise<void> {
  const wait = await waitBeforeAttempt(db, account.email);
  if (wait > 0) throw tooManyPasswordFailures(wait);
  if (!(await verifyPassword(password, account.passwordHash))) {
    await recordFailure(db, account.email);
    throw new ValidationError({ [field]: [wrongMessage] });
  }
  await clearFailures(db, account.email);
}
