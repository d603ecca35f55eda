/** `npm run bench -- --mixed [flags]`: the team, the time and the engines of the mixed-traffic bench. */
import { benchPostgresUrl, chosenEngines, counter, flagValue, seedSizes, type BenchEngine } from '../args';
import type { SeedSizes } from '../seed';

export type MixedEngine = BenchEngine;

export interface MixedOptions {
  sizes: SeedSizes;
  engines: MixedEngine[];
  /** PostgreSQL server the bench creates its database on. */
  postgresUrl: string;
  users: number;
  writers: number;
  /** Seconds of measured traffic (and of the raw-SQL replay). */
  duration: number;
  /** Seconds of the same traffic before, not measured (opens connections, compiles code). */
  warmup: number;
  /** Seconds before a request counts as an error. */
  timeout: number;
  /** Requests in the generated sequence the users walk through (it repeats when exhausted). */
  sequence: number;
  /** Requests of the sequence whose statements are captured for the replay. */
  captured: number;
  logLevel: string;
  seededDataDir: string | undefined;
  seededPostgresUrl: string | undefined;
  resultsDir: string;
}

export const MIXED_USAGE = `npm run bench -- --mixed [flags]
  --users N              browsing users, one connection each (default 50)
  --duration S           seconds of measured traffic, and of the raw-SQL replay (default 30)
  --warmup S             seconds of traffic before, not measured (default 5)
  --timeout S            a request taking longer counts as an error (default 10)
  --sequence N           requests generated from the seeded data, walked in turn (default 40000)
  --captured N           requests of the sequence whose SQL is captured and replayed (default 600)
  --postgres-seeded URL  a PostgreSQL database filled by npm run seed: migrated, then copied (CREATE DATABASE …
                         TEMPLATE) for each run, so the writers never change it; without it a fresh database is seeded
  --pglite-seeded DIR    a DATA_DIR filled by npm run seed, copied for each run; without it one is seeded
  --folders N, --rules-per-folder N, --campaigns N, --log-entries N, --activity-entries N, --team N
                         sizes when seeding (defaults as npm run seed: the full size)
  --no-postgres, --no-pglite   skip an engine
  --log-level L          the server's LOG_LEVEL (default info, as npm start)
  The writers are three: a folder renamed, a rule switched off and on, a folder trashed and restored,
  each once a second; one user a second renews their session.
  BENCH_DATABASE_URL (else TEST_DATABASE_URL, else postgres://root@127.0.0.1:5432/postgres): the PostgreSQL
  server the bench creates its database on (dropped afterwards).`;

export function parseMixedOptions(argv: string[], env: NodeJS.ProcessEnv): MixedOptions {
  const count = counter(argv, MIXED_USAGE);
  const engines = chosenEngines(argv, MIXED_USAGE);
  const sequence = count('sequence', 40_000, 1);
  return {
    sizes: seedSizes(count),
    engines,
    postgresUrl: benchPostgresUrl(env),
    users: count('users', 50, 1),
    writers: 3,
    duration: count('duration', 30, 1),
    warmup: count('warmup', 5, 1),
    timeout: count('timeout', 10, 1),
    sequence,
    captured: Math.min(sequence, count('captured', 600, 1)),
    logLevel: flagValue(argv, 'log-level') ?? 'info',
    seededDataDir: flagValue(argv, 'pglite-seeded'),
    seededPostgresUrl: flagValue(argv, 'postgres-seeded'),
    resultsDir: 'bench/results',
  };
}
