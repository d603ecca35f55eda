/**
 * Backup and restore of the embedded database (DATA_DIR/pgdata); PostgreSQL has pg_dump.
 *
 * The running server owns the embedded database (one process may open it), so a backup is asked
 * of it: it answers on a Unix socket in DATA_DIR (private to its user, like the directory) with a
 * gzipped tarball of the data directory taken between transactions. With no server running, the
 * backup opens the database itself. A restore needs the product stopped: it checks the socket,
 * opens the dump to be sure it is one, keeps the current data directory beside it and puts the
 * dump in its place.
 */
import { createConnection, createServer, type Server } from 'node:net';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { openPglite, type DbHandle } from './client';
import { makePrivate } from './privateFiles';

export const BACKUP_SOCKET = 'backup.sock';
/** Unix socket paths are at most 107 bytes on Linux. */
const MAX_SOCKET_PATH = 107;

const socketPath = (dataDir: string) => path.join(dataDir, BACKUP_SOCKET);

/** Serves backups of the server's embedded database; answers a function that stops serving. */
export async function serveBackups(
  dataDir: string,
  dbh: DbHandle,
  warn: (message: string) => void,
): Promise<() => Promise<void>> {
  const where = socketPath(dataDir);
  if (dbh.kind !== 'pglite' || !dbh.dumpDataDir) return async () => undefined;
  if (Buffer.byteLength(where) > MAX_SOCKET_PATH) {
    warn(`DATA_DIR is too long a path for the backup socket: npm run backup works only with the server stopped`);
    return async () => undefined;
  }
  rmSync(where, { force: true }); // left by a server that did not stop cleanly
  const server: Server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', (request) => {
      if (request.toString().trim() !== 'backup') return socket.end('running');
      dbh.dumpDataDir!().then(
        async (dump) => socket.end(Buffer.from(await dump.arrayBuffer())),
        (error: Error) => {
          warn(`backup failed: ${error.message}`);
          socket.destroy();
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(where, resolve));
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      rmSync(where, { force: true });
    });
}

/** The running server's dump, or undefined when no server answers on DATA_DIR's socket. */
function askRunningServer(dataDir: string): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    if (!existsSync(socketPath(dataDir))) return resolve(undefined);
    const chunks: Buffer[] = [];
    let connected = false;
    const socket = createConnection(socketPath(dataDir));
    socket.on('connect', () => {
      connected = true;
      socket.write('backup\n');
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      const dump = Buffer.concat(chunks);
      if (dump.length) resolve(dump);
      else reject(new Error('the server could not write the backup (see its log)'));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === 'ECONNREFUSED' || error.code === 'ENOENT')) resolve(undefined);
      else reject(error);
    });
  });
}

export const isRunning = async (dataDir: string): Promise<boolean> =>
  new Promise((resolve) => {
    if (!existsSync(socketPath(dataDir))) return resolve(false);
    const socket = createConnection(socketPath(dataDir));
    socket.on('connect', () => {
      socket.end('ping\n');
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

export interface BackupResult {
  dump: Buffer;
  from: 'running server' | 'stopped database';
}

/** A consistent dump of DATA_DIR's embedded database, the product running or not. */
export async function backupDataDir(dataDir: string): Promise<BackupResult> {
  const live = await askRunningServer(dataDir);
  if (live) return { dump: live, from: 'running server' };
  const pgdata = path.join(dataDir, 'pgdata');
  if (!existsSync(path.join(pgdata, 'PG_VERSION'))) throw new Error(`no embedded database in ${dataDir}`);
  const dbh = await openPglite(pgdata);
  try {
    return { dump: Buffer.from(await (await dbh.dumpDataDir!()).arrayBuffer()), from: 'stopped database' };
  } finally {
    await dbh.close();
  }
}

export interface RestoreResult<Checked = undefined> {
  /** Where the database that was replaced now is (undefined: there was none). */
  previous?: string;
  counts: Record<string, number>;
  /** What `inspect` answered on the restored database. */
  inspected?: Checked;
}

const COUNTED = ['users', 'groups', 'folders', 'rules', 'rule_runs', 'rule_activity', 'audit_log'];

async function countRows(dbh: DbHandle): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COUNTED) {
    const { rows } = await dbh.sql.query<{ n: number }>(`select count(*)::int as n from ${table}`);
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

const gunzipAsync = promisify(gunzip);

/**
 * A dump is a gzipped tar of the data dir. Anything else must not reach PGlite: its loader fails on
 * a bad archive outside any promise, which ended the restore with a crash instead of a message.
 */
async function checkArchive(file: string, bytes: Buffer): Promise<void> {
  const notBackup = (why: string) => new Error(`${file} is not a backup of the embedded database (${why})`);
  const tar = await gunzipAsync(bytes).catch((error: Error) => {
    throw notBackup(error.message);
  });
  if (tar.subarray(257, 262).toString('latin1') !== 'ustar') throw notBackup('not a tar archive');
}

/**
 * Replaces DATA_DIR's embedded database by a dump; the product must be stopped. `inspect` reads the
 * restored database before it closes (the restore script reports the stored secrets its key cannot read).
 */
export async function restoreDataDir<Checked = undefined>(
  dataDir: string,
  file: string,
  inspect?: (dbh: DbHandle) => Promise<Checked>,
): Promise<RestoreResult<Checked>> {
  if (await isRunning(dataDir)) throw new Error('the product is running on this DATA_DIR: stop it first');
  const bytes = await readFile(file);
  await checkArchive(file, bytes);
  const dump = new Blob([bytes]);
  // Opened in memory first: a file that is no dump of this database changes nothing.
  const check = await openPglite(undefined, dump).catch((error: Error) => {
    throw new Error(`${file} is not a backup of the embedded database (${error.message})`);
  });
  try {
    await countRows(check);
  } finally {
    await check.close();
  }
  makePrivate(dataDir);
  const pgdata = path.join(dataDir, 'pgdata');
  let previous: string | undefined;
  if (existsSync(pgdata)) {
    previous = path.join(dataDir, `pgdata.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    renameSync(pgdata, previous);
  }
  const restored = await openPglite(pgdata, dump);
  try {
    return { previous, counts: await countRows(restored), inspected: await inspect?.(restored) };
  } finally {
    await restored.close();
    makePrivate(dataDir);
  }
}
