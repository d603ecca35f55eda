/** `npm run bench -- --load [flags]`: the sizes, the load and the engines of the load bench. */
import { benchPostgresUrl, chosenEngines, counter, flagValue, seedSizes, type BenchEngine } from '../args';
import type { SeedSizes } from '../seed';

export type LoadEngine = BenchEngine;

export interface LoadOptions {
  sizes: SeedSizes;
  engines: LoadEngine[];
  /** PostgreSQL server to create the bench database on. */
  postgresUrl: string;
  connections: number;
  /** Seconds of load per call. */
  duration: number;
  /** Seconds before autocannon gives up on one request (counted as an error). */
  timeout: number;
  /** Seconds to wait for a call's backlog to drain before restarting the server. */
  settle: number;
  /** The offset of the "deep page" calls. */
  deepOffset: number;
  /** Only calls whose "endpoint: name" contains this text (and the me baseline). */
  only: string | undefined;
  /** LOG_LEVEL of the server (npm start's default is info). */
  logLevel: string;
  /** A DATA_DIR already filled by `npm run seed`, copied for the PGlite run instead of seeding it again. */
  seededDataDir: string | undefined;
  /** A PostgreSQL database already filled by `npm run seed`, used in place (not dropped) instead of a fresh one. */
  seededPostgresUrl: string | undefined;
  /**
   * Every request asks for a fresh answer (Cache-Control: no-cache), so the page cache never
   * answers and every request reads the database: what the lists cost when their data keeps changing.
   */
  fresh: boolean;
  resultsDir: string;
}

export const LOAD_USAGE = `npm run bench -- --load [flags]
  --folders N            folders (default 2000, 1 in 20 in the trash)
  --rules-per-folder N   rules per folder (default 10)
  --campaigns N          campaigns (default 100000)
  --log-entries N        audit-log entries (default 1000000)
  --activity-entries N   rule-log entries (default 1000000)
  --team N               team members (default 25)
  --duration S           seconds of load per call (default 10)
  --connections N        concurrent connections (default 100)
  --timeout S            a request taking longer counts as an error (default 10)
  --deep-offset N        offset of the "deep page" calls (default 10000)
  --settle S             wait up to S seconds for a call's queued requests to be served, then restart
                         the server (default 20)
  --only TEXT            only calls whose name contains TEXT (the me baseline always runs)
  --no-postgres, --no-pglite   skip an engine
  --log-level L          the server's LOG_LEVEL (default info, as npm start)
  --fresh                every request sends Cache-Control: no-cache, so none is answered from the
                         page cache: every request reads the database (written as load-fresh-latest.md
                         and "lists_fresh" in latest.json)
  --pglite-seeded DIR    for PGlite, copy DIR (a DATA_DIR filled by npm run seed) instead of seeding anew
                         (seeding a million log entries into PGlite takes several minutes)
  --postgres-seeded URL  for PostgreSQL, use the database at URL (filled by npm run seed) in place instead of
                         seeding a fresh one; it is migrated, its superuser's password is set for the
                         bench's login, and it is kept afterwards (seeding takes minutes; reruns need not)
  BENCH_DATABASE_URL (else TEST_DATABASE_URL, else postgres://root@127.0.0.1:5432/postgres): the PostgreSQL
  server to create a fresh database on (dropped afterwards).`;

export function parseLoadOptions(argv: string[], env: NodeJS.ProcessEnv): LoadOptions {
  const count = counter(argv, LOAD_USAGE);
  const engines = chosenEngines(argv, LOAD_USAGE);
  return {
    sizes: seedSizes(count),
    engines,
    postgresUrl: benchPostgresUrl(env),
    connections: count('connections', 100, 1),
    duration: count('duration', 10, 1),
    timeout: count('timeout', 10, 1),
    deepOffset: count('deep-offset', 10_000),
    settle: count('settle', 20, 1),
    only: flagValue(argv, 'only'),
    logLevel: flagValue(argv, 'log-level') ?? 'info',
    seededDataDir: flagValue(argv, 'pglite-seeded'),
    seededPostgresUrl: flagValue(argv, 'postgres-seeded'),
    fresh: argv.includes('--fresh'),
    resultsDir: 'bench/results',
  };
}
