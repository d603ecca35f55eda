/**
 * Per-account sign-in throttling (ASVS 2.2.1), counted in the database so every API process sees
 * the same count: after FREE_FAILURES failed sign-ins for an e-mail, each further attempt has to
 * wait FIRST_DELAY_S, then twice as long each time, up to MAX_DELAY_S. Spraying one password over every member of staff, or
 * guessing one member's password from many addresses, is slowed down; nobody can be locked out
 * for good (the delay is capped, a good sign-in or a password reset clears the count).
 *
 * Every password check of an account (sign-in, and a signed-in user's own password) reserves the
 * attempt before hashing: one check in flight per account, so a burst of parallel guesses cannot
 * all be hashed before the first failure is counted.
 *
 * Counted per e-mail whether or not an account has it, so the answers never tell which e-mails
 * exist.
 */
import { createHash } from 'node:crypto';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import { loginFailures } from '../db/schema/index';

export const FREE_FAILURES = 5;
export const FIRST_DELAY_S = 30;
export const MAX_DELAY_S = 15 * 60;
/** A reservation outlives any check; should its process die, it runs out by itself. */
const CHECK_LEASE_S = 30;
/** The wait answered while another check of the account is in flight. */
const IN_FLIGHT_WAIT_S = 1;

const emailKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');

/** Seconds the next attempt for this e-mail must still wait (0: it may try now). */
async function waitBeforeAttempt(db: Database, email: string): Promise<number> {
  const [row] = await db
    .select({
      wait: sql<number>`greatest(0, ceil(extract(epoch from (${loginFailures.blockedUntil} - now()))))::integer`,
    })
    .from(loginFailures)
    .where(eq(loginFailures.emailHash, emailKey(email)));
  return Number(row?.wait ?? 0);
}

const past = (column: PgColumn): SQL => sql`(${column} is null or ${column} <= now())`;

/**
 * Takes the account's one password check: 0 when the caller may hash now, else the seconds to
 * wait (the account's delay, or IN_FLIGHT_WAIT_S while another check is in flight). A single
 * upsert, so of any number of racing requests, in any process, at most one gets it.
 */
async function reserveAttempt(db: Database, email: string): Promise<number> {
  const leaseEnd = sql`now() + ${CHECK_LEASE_S} * interval '1 second'`;
  const reserved = await db
    .insert(loginFailures)
    .values({ emailHash: emailKey(email), checkingUntil: leaseEnd })
    .onConflictDoUpdate({
      target: loginFailures.emailHash,
      set: { checkingUntil: leaseEnd },
      setWhere: sql`${past(loginFailures.blockedUntil)} and ${past(loginFailures.checkingUntil)}`,
    })
    .returning({ emailHash: loginFailures.emailHash });
  if (reserved.length > 0) return 0;
  return Math.max(IN_FLIGHT_WAIT_S, await waitBeforeAttempt(db, email));
}

/** Gives the reservation back when a check ends without an outcome to count. */
async function releaseAttempt(db: Database, email: string): Promise<void> {
  await db
    .update(loginFailures)
    .set({ checkingUntil: null })
    .where(eq(loginFailures.emailHash, emailKey(email)));
}

/** One more failure (ending the reservation); from the FREE_FAILURES-th on, the next attempt waits twice as long as the last. */
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
        checkingUntil: null,
      },
    });
}

/** Forgets the account's failures (and so its reservation). */
export async function clearFailures(db: Database, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.emailHash, emailKey(email)));
}

/**
 * Runs `check` (true: the password is right) under the account's reservation and counts its
 * outcome; `{ wait }` without running it while the account waits or another check is in flight.
 */
export async function attemptPasswordCheck(
  db: Database,
  email: string,
  check: () => Promise<boolean>,
): Promise<{ wait: number } | { passed: boolean }> {
  const wait = await reserveAttempt(db, email);
  if (wait > 0) return { wait };
  let passed: boolean;
  try {
    passed = await check();
  } catch (error) {
    await releaseAttempt(db, email);
    throw error;
  }
  await (passed ? clearFailures(db, email) : recordFailure(db, email));
  return { passed };
}
