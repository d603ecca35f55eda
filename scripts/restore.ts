/**
 * `npm run restore FILE`: puts a dump written by `npm run backup` in place of the embedded
 * database in DATA_DIR (default ./data). The product must be stopped; the database it replaces is
 * kept beside it (DATA_DIR/pgdata.before-restore-<time>). It reports how many stored secrets
 * (webinar credentials, alert destinations) the key here — CREDENTIALS_KEY or DATA_DIR/credentials.secret —
 * cannot read: those need re-entry. With DATABASE_URL, use pg_restore.
 */
import path from 'node:path';
import { restoreDataDir } from '../server/db/backup';
import { credentialsKeyFile, existingCredentialCipher } from '../server/rules/credentials';
import { unreadableSecrets } from '../server/rules/unreadableSecrets';

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
  // The key the server will read the stored secrets with (CREDENTIALS_KEY, or the key file): none is made here.
  const cipher = await existingCredentialCipher({ dataDir, credentialsKey: process.env.CREDENTIALS_KEY || undefined });
  const {
    previous,
    counts,
    inspected: checked,
  } = await restoreDataDir(dataDir, path.resolve(file), (dbh) => unreadableSecrets(dbh.sql, cipher));
  const summary = Object.entries(counts)
    .map(([table, n]) => `${n} ${table}`)
    .join(', ');
  console.log(`Restored ${file} into ${dataDir}: ${summary}.`);
  const unreadable = Object.entries(checked?.unreadable ?? {});
  const total = unreadable.reduce((sum, [, n]) => sum + n, 0);
  const key = process.env.CREDENTIALS_KEY ? 'CREDENTIALS_KEY' : credentialsKeyFile(dataDir);
  if (total) {
    const which = unreadable.map(([what, n]) => `${n} ${what}`).join(', ');
    const keyHere = cipher ? key : `no key: CREDENTIALS_KEY is unset and there is no ${key}`;
    console.warn(`${total} of ${checked!.stored} stored secrets cannot be read with this key (${keyHere}): ${which}.`);
    console.warn(
      'They show "needs re-entry" until entered again; to read them, give the server the key the backup was taken under (CREDENTIALS_KEY, or credentials.secret in DATA_DIR).',
    );
  } else if (checked?.stored) console.log(`Every stored secret (${checked.stored}) can be read with ${key}.`);
  if (previous) console.log(`The database it replaced is kept in ${previous} (delete it once you are sure).`);
} catch (error) {
  console.error(`Restore failed: ${(error as Error).message}`);
  process.exit(1);
}
