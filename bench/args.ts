/** The benches' command-line flags: `--name value` pairs and whole numbers, a bad one answered with the bench's usage. */
import type { SeedSizes } from './seed';

export type BenchEngine = 'postgres' | 'pglite';

export function flagValue(argv: string[], name: string): string | undefined {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : undefined;
}

/** Reads `--name N` as a whole number ≥ min (the fallback when absent); a bad value throws with the usage. */
export function counter(argv: string[], usage: string) {
  return (name: string, fallback: number, min = 0): number => {
    const raw = flagValue(argv, name);
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!Number.isInteger(parsed) || parsed < min)
      throw new Error(`--${name} must be a whole number ≥ ${min} (got ${raw})\n\n${usage}`);
    return parsed;
  };
}

/** The engines left after --no-postgres / --no-pglite; none left is an error. */
export function chosenEngines(argv: string[], usage: string): BenchEngine[] {
  const engines: BenchEngine[] = [];
  if (!argv.includes('--no-postgres')) engines.push('postgres');
  if (!argv.includes('--no-pglite')) engines.push('pglite');
  if (!engines.length) throw new Error(`Nothing to run: both engines skipped.\n\n${usage}`);
  return engines;
}

/** The seeded sizes (npm run seed's full size by default), from --folders, --campaigns, --log-entries … */
export function seedSizes(count: ReturnType<typeof counter>): SeedSizes {
  return {
    folders: count('folders', 2000, 1),
    rulesPerFolder: count('rules-per-folder', 10, 1),
    campaigns: count('campaigns', 100_000, 1),
    auditLogEntries: count('log-entries', 1_000_000, 1),
    ruleLogEntries: count('activity-entries', 1_000_000, 1),
    teamMembers: count('team', 25),
  };
}

/** The PostgreSQL server a bench creates its database on. */
export function benchPostgresUrl(env: NodeJS.ProcessEnv): string {
  return env.BENCH_DATABASE_URL || env.TEST_DATABASE_URL || 'postgres://root@127.0.0.1:5432/postgres';
}
