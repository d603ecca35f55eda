/**
 * `npm run seed -- [--folders 2000] [--rules-per-folder 10] [--campaigns 100000] [--log-entries 1000000]
 * [--activity-entries 1000000] [--team 25] [--append]`: fills the database `npm start` uses (DATABASE_URL,
 * else PGlite under DATA_DIR) with years of realistic data, set-based (bench/seed.ts), to try the
 * screens and measure list calls at scale. Migrates first. Refuses a database that already has
 * folders unless --append is given; then it adds, numbering after what is there. Never deletes.
 */
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { existingRows, seedData, type SeedSizes } from '../bench/seed';

const USAGE = `npm run seed -- [flags]
  --folders N            client folders, each with its own ad account (default 2000; 1 in 20 in the trash)
  --rules-per-folder N   rules per folder (default 10)
  --campaigns N          campaigns, spread over every ad account (default 100000)
  --log-entries N        audit-log (Log screen) entries over three years (default 1000000)
  --activity-entries N   rule-log (Activity screen) entries over three years (default 1000000)
  --team N               team members (default 25)
  --append               add to a database that already has folders (otherwise it refuses)
Database: DATABASE_URL, else PGlite in DATA_DIR (default ./data), exactly as npm start picks it.`;

function count(argv: string[], name: string, fallback: number): number {
  const index = argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const raw = argv[index + 1];
  const value = Number(raw);
  if (raw === undefined || !Number.isInteger(value) || value < 0)
    throw new Error(`--${name} must be a whole number ≥ 0 (got ${raw ?? 'nothing'})\n\n${USAGE}`);
  return value;
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const known = new Set(['folders', 'rules-per-folder', 'campaigns', 'log-entries', 'activity-entries', 'team']);
  const unknown = argv.filter((a) => a.startsWith('--') && !known.has(a.slice(2)) && a !== '--append');
  if (unknown.length) throw new Error(`Unknown flag ${unknown.join(', ')}\n\n${USAGE}`);
  const sizes: SeedSizes = {
    folders: count(argv, 'folders', 2000),
    rulesPerFolder: count(argv, 'rules-per-folder', 10),
    campaigns: count(argv, 'campaigns', 100_000),
    auditLogEntries: count(argv, 'log-entries', 1_000_000),
    ruleLogEntries: count(argv, 'activity-entries', 1_000_000),
    teamMembers: count(argv, 'team', 25),
  };
  const config = loadConfig();
  const where = config.databaseUrl
    ? `PostgreSQL ${new URL(config.databaseUrl).pathname.slice(1)}`
    : `PGlite in ${config.dataDir}`;
  const started = performance.now();
  const dbh = await openDatabase(config);
  try {
    await dbh.migrate();
    const before = await existingRows(dbh);
    if (before.folders && !argv.includes('--append')) {
      throw new Error(
        `${where} already has ${before.folders.toLocaleString('en-US')} folders: nothing seeded. ` +
          'Pass --append to add to them, or point DATA_DIR / DATABASE_URL at an empty database.',
      );
    }
    console.log(`Seeding ${where}…`);
    const seeded = await seedData(dbh, sizes, (line) => console.log(line));
    const made = (key: keyof typeof seeded, table: string) =>
      (Number(seeded[key]) - before[table]!).toLocaleString('en-US');
    console.log(
      `Made ${made('folders', 'folders')} folders (ad accounts: ${made('accounts', 'meta_ad_accounts')}), ` +
        `${made('rules', 'rules')} rules, ${made('campaigns', 'campaigns')} campaigns, ` +
        `${made('auditLog', 'audit_log')} audit-log and ${made('ruleActivity', 'rule_activity')} rule-log entries, ` +
        `${made('users', 'users')} team members in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
        `(seeding ${seeded.seconds.toFixed(1)} s, the rest opening and migrating).`,
    );
  } finally {
    await dbh.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
