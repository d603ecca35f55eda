/**
 * `npm run backup [FILE]`: a consistent dump of the embedded database in DATA_DIR (default ./data),
 * taken by the running product between transactions, or from the stopped database. FILE defaults
 * to ad-rules-backup-<UTC time>.tar.gz here; it is written as a new file readable by this user only
 * and renamed into place (an existing file's mode is not kept, a symlink there is not followed).
 * The dump does not hold the key of the stored secrets (CREDENTIALS_KEY or DATA_DIR/credentials.secret):
 * that is kept with it, apart. Restore it with `npm run restore FILE`. With DATABASE_URL, use PostgreSQL's pg_dump instead.
 */
import path from 'node:path';
import { backupDataDir } from '../server/db/backup';
import { writePrivateFile } from '../server/db/privateFiles';

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
  await writePrivateFile(file, dump);
  console.log(`Backed up ${dataDir} (${from}) to ${file} (${(dump.length / 1024 / 1024).toFixed(1)} MB).`);
  console.log(
    process.env.CREDENTIALS_KEY
      ? 'It does not hold CREDENTIALS_KEY: keep that key with it, or stored credentials and alert destinations need re-entry after a restore.'
      : `It does not hold the credentials key: keep ${path.join(dataDir, 'credentials.secret')} with it, or stored credentials and alert destinations need re-entry after a restore.`,
  );
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  process.exit(1);
}
