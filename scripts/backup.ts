/**
 * `npm run backup [FILE]`: a consistent dump of the embedded database in DATA_DIR (default ./data),
 * taken by the running product between transactions, or from the stopped database. FILE defaults
 * to ad-rules-backup-<UTC time>.tar.gz here; it is readable by this user only. Restore it with
 * `npm run restore FILE`. With DATABASE_URL, use PostgreSQL's pg_dump instead.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { backupDataDir } from '../server/db/backup';

const dataDir = path.resolve(process.env.DATA_DIR || 'data');
if (process.env.DATABASE_URL) {
  console.error('DATABASE_URL is set: back up PostgreSQL with pg_dump (npm run backup covers the embedded database).');
  process.exit(1);
}
const file = path.resolve(
  process.argv[2] ?? `ad-rules-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`,
);
try {
  const { dump, from } = await backupDataDir(dataDir);
  await writeFile(file, dump, { mode: 0o600 });
  console.log(`Backed up ${dataDir} (${from}) to ${file} (${(dump.length / 1024 / 1024).toFixed(1)} MB).`);
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  process.exit(1);
}
