/**
 * Per-account sign-in throttling (ASVS 2.2.1), counted in the database so every API process sees
 * the same count: after FREE_FAILURES failed sign-ins for an e-mail, each further attempt has to
 * wait FIRST_DELAY_S, then twice as long each time, up to MAX_DELAY_S. Spraying one password over every member of staff, or
 * guessing one member's password from many addresses, is slowed down; nobody can be locked out
 * for good (the delay is capped, a good sign-in or a password reset clears the count).
 *
 * Counted per e-mail whether or not an account has it, so the answers never tell which e-mails
 * exist.
 */
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { loginFailures } from '../db/schema/index';

export const FREE_FAILURES = 5;
export const FIRST_DELAY_S = 30;
export const MAX_DELAY_S = 15 * 60;

const emailKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');

/** Seconds the next attempt for this e-mail must still wait (0: it may try now). */
export async function waitBeforeAttempt(db: Database, email: string): Promise<number> {
  const [row] = await db
    .select({
      wait: sql<number>`greatest(0, ceil(extract(epoch from (${loginFailures.blockedUntil} - now()))))::integer`,
    })
    .from(loginFailures)
    .where(eq(loginFailures.emailHash, emailKey(email)));
  return Number(row?.wait ?? 0);
}

/** One more failure; from the FREE_FAILURES-th on, the next attempt waits twice as long as the last. */
export async function recordFailure(db: Database, email: string): Promise<void> {
  const failures = sql`${loginFailures.failures} + 1`;
  const delay = sql`least(${FIRST_DELAY_S} * power(2, greatest(${failures} - ${FREE_FAILURES}, 0)), ${MAX_DELAY_S})`;
  await db
    .insert(loginFailures)
    .values({ emailHash: emailKey(email), failures: 1 })
    .onConflictDoUpdate({
      target: loginFailures.emailHash,
      set: {
        failures,
        lastFailureAt: sql`now()`,
        blockedUntil: sql`case when ${failures} >= ${FREE_FAILURES} then now() + ${delay} * interval '1 second' else null end`,
      },
    });
}

export async function clearFailures(db: Database, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.emailHash, emailKey(email)));
}
