/**
 * `npm run restore FILE`: puts a dump written by `npm run backup` in place of the embedded
 * database in DATA_DIR (default ./data). The product must be stopped; the database it replaces is
 * kept beside it (DATA_DIR/pgdata.before-restore-<time>). With DATABASE_URL, use pg_restore.
 */
import path from 'node:path';
import { restoreDataDir } from '../server/db/backup';

const dataDir = path.resolve(process.env.DATA_DIR || 'data');
const file = process.argv[2];
if (process.env.DATABASE_URL) {
  console.error(
    'DATABASE_URL is set: restore PostgreSQL with its own tools (npm run restore covers the embedded database).',
  );
  process.exit(1);
}
if (!file) {
  console.error('Usage: npm run restore FILE (a file written by npm run backup)');
  process.exit(1);
}
try {
  const { previous, counts } = await restoreDataDir(dataDir, path.resolve(file));
  const summary = Object.entries(counts)
    .map(([table, n]) => `${n} ${table}`)
    .join(', ');
  console.log(`Restored ${file} into ${dataDir}: ${summary}.`);
  if (previous) console.log(`The database it replaced is kept in ${previous} (delete it once you are sure).`);
} catch (error) {
  console.error(`Restore failed: ${(error as Error).message}`);
  process.exit(1);
}
