/**
 * Parallel guesses at one account's password (sign-in, change_password's old_password, an own
 * e-mail change's current_password): each check reserves the attempt before hashing, one in
 * flight per account across API processes, so a burst is hashed at most as often as the
 * sequential rules allow and the rest is answered with the wait.
 *
 * Hashes are counted by wrapping verifyPassword; a burst holds every hash of a wrong guess until
 * each of its calls is either answered or hashing, so all of them race the first check.
 */
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FREE_FAILURES } from '../../../server/auth/loginFailures';
import { buildApp } from '../../../server/app';
import { loginFailures } from '../../../server/db/schema/index';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BURST = 40;

const hashes = vi.hoisted(() => ({
  started: 0,
  inFlight: 0,
  mostInFlight: 0,
  held: null as Promise<void> | null,
  onChange: null as (() => void) | null,
}));

vi.mock('../../../server/auth/passwords', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../server/auth/passwords')>();
  return {
    ...original,
    async verifyPassword(password: string, stored: string) {
      hashes.started += 1;
      hashes.inFlight += 1;
      hashes.mostInFlight = Math.max(hashes.mostInFlight, hashes.inFlight);
      hashes.onChange?.();
      try {
        if (password.startsWith('wrong-')) await hashes.held;
        return await original.verifyPassword(password, stored);
      } finally {
        hashes.inFlight -= 1;
      }
    },
  };
});

afterEach(() => {
  Object.assign(hashes, { started: 0, inFlight: 0, mostInFlight: 0, held: null, onChange: null });
});

/** `size` calls at once; wrong guesses hash only once every call is answered or hashing. */
async function burst(
  size: number,
  call: (n: number) => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse[]> {
  let answered = 0;
  let release!: () => void;
  hashes.held = new Promise((resolve) => {
    release = resolve;
  });
  hashes.onChange = () => {
    if (answered + hashes.inFlight === size) release();
  };
  const responses = await Promise.all(
    Array.from({ length: size }, (_, n) =>
      call(n).then((response) => {
        answered += 1;
        hashes.onChange?.();
        return response;
      }),
    ),
  );
  hashes.held = null;
  hashes.onChange = null;
  return responses;
}

const statusesOf = (responses: LightMyRequestResponse[]) => {
  const counts: Record<number, number> = {};
  for (const { statusCode } of responses) counts[statusCode] = (counts[statusCode] ?? 0) + 1;
  return counts;
};

const WAIT = {
  signIn: /^Too many failed sign-ins for this account\. Try again in \d+ seconds\.$/,
  ownPassword: /^Too many wrong passwords for this account\. Try again in \d+ seconds\.$/,
};

/** The three ways to check a password, each as one guess by (or at) `user`. */
function checks(api: TestApi) {
  let counter = 0;
  return [
    {
      name: 'sign-in',
      wrong: 401,
      wait: WAIT.signIn,
      guess: (user: TestUser, password: string) =>
        api.app.inject({ method: 'POST', url: '/api/token/', payload: { email: user.email, password } }),
    },
    {
      name: 'old_password on change_password',
      wrong: 400,
      wait: WAIT.ownPassword,
      guess: (user: TestUser, password: string) =>
        api.request(user.token, {
          method: 'POST',
          url: '/api/user/change_password/',
          payload: { old_password: password, new_password: 'another-password-1', new_password2: 'another-password-1' },
        }),
    },
    {
      name: 'current_password on an own e-mail change',
      wrong: 400,
      wait: WAIT.ownPassword,
      guess: (user: TestUser, password: string) => {
        counter += 1;
        return api.request(user.token, {
          method: 'PATCH',
          url: `/api/user/${user.id}/`,
          payload: { email: `burst${counter}-${user.id}@example.com`, current_password: password },
        });
      },
    },
  ] as const;
}

eachDatabase((engine) => {
  describe(`password checks on ${engine}`, () => {
    let api: TestApi;
    afterEach(async () => {
      await api?.close();
    });

    it('a burst of parallel guesses is hashed once, and the account never more often than the failures allowed', async () => {
      api = await createTestApi(engine);
      for (const check of checks(api)) {
        const user = await api.userWith([]);
        hashes.started = 0;
        const first = await burst(BURST, (n) => check.guess(user, `wrong-first-${n}`));
        expect(hashes.started, check.name).toBe(1);
        expect(statusesOf(first), check.name).toEqual({ [check.wrong]: 1, 429: BURST - 1 });
        for (const refused of first.filter((r) => r.statusCode === 429))
          expect(refused.json().detail).toMatch(check.wait);
        for (let n = 1; n < FREE_FAILURES; n += 1) {
          expect((await check.guess(user, `wrong-alone-${n}`)).statusCode, check.name).toBe(check.wrong);
        }
        expect(hashes.started, check.name).toBe(FREE_FAILURES);
        // FREE_FAILURES failures counted: now the account waits, and the next burst hashes nothing.
        hashes.started = 0;
        const waiting = await burst(BURST, (n) => check.guess(user, `wrong-late-${n}`));
        expect(statusesOf(waiting), check.name).toEqual({ 429: BURST });
        // Even the right password waits, on every path: one count per account.
        for (const each of checks(api)) {
          const right = await each.guess(user, user.password);
          expect(right.statusCode, `${check.name} then ${each.name}`).toBe(429);
          expect(right.json().detail).toMatch(each.wait);
        }
        expect(hashes.started, check.name).toBe(0);
        expect(hashes.mostInFlight, check.name).toBe(1);
      }
    }, 120_000);

    it("one in flight holds only its account: another member's sign-in goes through", async () => {
      api = await createTestApi(engine);
      const [change] = checks(api).slice(1);
      const [guessed, other] = [await api.userWith([]), await api.userWith([])];
      let release!: () => void;
      hashes.held = new Promise((resolve) => {
        release = resolve;
      });
      const hashing = new Promise<void>((resolve) => {
        hashes.onChange = () => hashes.inFlight === 1 && resolve();
      });
      const first = change!.guess(guessed, 'wrong-held');
      await hashing;
      hashes.onChange = null;

      const second = await change!.guess(guessed, guessed.password);
      expect(second.statusCode).toBe(429);
      expect(second.json().detail).toMatch(WAIT.ownPassword);
      const signIn = await checks(api)[0].guess(other, other.password);
      expect(signIn.statusCode).toBe(200);

      release();
      expect((await first).statusCode).toBe(400);
      // The reservation ended with the check: the right password is checked again.
      expect((await change!.guess(guessed, guessed.password)).statusCode).toBe(200);
    });

    it('a reservation left by a process that died holds only until its lease runs out', async () => {
      api = await createTestApi(engine);
      const [signIn] = checks(api);
      const user = await api.userWith([]);
      expect((await signIn.guess(user, 'wrong-1')).statusCode).toBe(401);
      await api.dbh.db.update(loginFailures).set({ checkingUntil: sql`now() + interval '30 seconds'` });
      expect((await signIn.guess(user, user.password)).statusCode).toBe(429);
      expect(hashes.started).toBe(1);
      await api.dbh.db.update(loginFailures).set({ checkingUntil: sql`now() - interval '1 second'` });
      expect((await signIn.guess(user, user.password)).statusCode).toBe(200);
    });
  });
});

describe('password checks through two API processes on one database', () => {
  it('a burst split between them is hashed once (their rate limits in Redis)', async () => {
    const api = await createTestApi('postgres', { config: { redisUrl: REDIS_URL } });
    const second = await buildApp({ config: api.config, dbh: api.dbh, jwtSecret: 'z'.repeat(32) });
    await second.ready();
    try {
      const user = await api.userWith([]);
      // Sign-ins alternate between the processes; every third guess is a change_password (the
      // session's token is the first process's).
      const guess = (n: number, password: string) =>
        n % 3 === 0
          ? api.request(user.token, {
              method: 'POST',
              url: '/api/user/change_password/',
              payload: {
                old_password: password,
                new_password: 'another-password-1',
                new_password2: 'another-password-1',
              },
            })
          : [api.app, second][n % 2]!.inject({
              method: 'POST',
              url: '/api/token/',
              payload: { email: user.email, password },
            });
      hashes.started = 0;
      const responses = await burst(BURST, (n) => guess(n, `wrong-guess-${n}`));
      expect(hashes.started).toBe(1);
      expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(BURST - 1);
      expect(responses.filter((r) => r.statusCode === 400 || r.statusCode === 401)).toHaveLength(1);
      expect(hashes.mostInFlight).toBe(1);
    } finally {
      await second.close();
      await api.close();
    }
  });
});
