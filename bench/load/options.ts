/** `npm run bench -- --load [flags]`: the sizes, the load and the engines of the load bench. */
import type { SeedSizes } from '../seed';

export type LoadEngine = 'postgres' | 'pglite';

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

function value(argv: string[], name: string): string | undefined {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : undefined;
}

function count(argv: string[], name: string, fallback: number, min = 0): number {
  const raw = value(argv, name);
  if (raw === undefined) return fallback;
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < min)
    throw new Error(`--${name} must be a whole number ≥ ${min} (got ${raw})\n\n${LOAD_USAGE}`);
  return parsed;
}

export function parseLoadOptions(argv: string[], env: NodeJS.ProcessEnv): LoadOptions {
  const engines: LoadEngine[] = [];
  if (!argv.includes('--no-postgres')) engines.push('postgres');
  if (!argv.includes('--no-pglite')) engines.push('pglite');
  if (!engines.length) throw new Error(`Nothing to run: both engines skipped.\n\n${LOAD_USAGE}`);
  return {
    sizes: {
      folders: count(argv, 'folders', 2000, 1),
      rulesPerFolder: count(argv, 'rules-per-folder', 10, 1),
      campaigns: count(argv, 'campaigns', 100_000, 1),
      auditLogEntries: count(argv, 'log-entries', 1_000_000, 1),
      ruleLogEntries: count(argv, 'activity-entries', 1_000_000, 1),
      teamMembers: count(argv, 'team', 25),
    },
    engines,
    postgresUrl: env.BENCH_DATABASE_URL || env.TEST_DATABASE_URL || 'postgres://root@127.0.0.1:5432/postgres',
    connections: count(argv, 'connections', 100, 1),
    duration: count(argv, 'duration', 10, 1),
    timeout: count(argv, 'timeout', 10, 1),
    deepOffset: count(argv, 'deep-offset', 10_000),
    settle: count(argv, 'settle', 20, 1),
    only: value(argv, 'only'),
    logLevel: value(argv, 'log-level') ?? 'info',
    seededDataDir: value(argv, 'pglite-seeded'),
    seededPostgresUrl: value(argv, 'postgres-seeded'),
    fresh: argv.includes('--fresh'),
    resultsDir: 'bench/results',
  };
}
