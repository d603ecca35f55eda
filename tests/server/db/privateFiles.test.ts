/**
 * DATA_DIR and the embedded database in it are the server's user's alone: after the database opens
 * and works (WAL segments switched, a checkpoint), every directory is 0700 and every file 0600 —
 * also what an older version left readable by everyone.
 */
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/client';

async function modes(root: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const walk = async (target: string) => {
    const info = await stat(target);
    found.set(
      path.relative(root, target) || '.',
      `${info.isDirectory() ? 'd' : 'f'}${(info.mode & 0o777).toString(8)}`,
    );
    if (info.isDirectory()) for (const entry of await readdir(target)) await walk(path.join(target, entry));
  };
  await walk(root);
  return found;
}

describe('the data directory', () => {
  const umask = process.umask();
  let dataDir: string;
  afterAll(async () => {
    process.umask(umask);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is private to the server’s user: 0700 directories, 0600 files, the WAL included', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'ad-rules-private-'));
    await chmod(dataDir, 0o755);
    await mkdir(path.join(dataDir, 'outbox'), { mode: 0o755 });
    await writeFile(path.join(dataDir, 'outbox', 'old.eml'), 'From: x', { mode: 0o644 });
    await chmod(path.join(dataDir, 'outbox', 'old.eml'), 0o666);

    const dbh = await openDatabase({ dataDir });
    await dbh.migrate();
    await dbh.sql.exec(
      'create table scratch as select generate_series(1, 50000) as n; select pg_switch_wal(); checkpoint; insert into scratch values (1);',
    );
    await writeFile(path.join(dataDir, 'written-later.txt'), 'x');
    await dbh.close();

    const found = await modes(dataDir);
    expect([...found.keys()].some((p) => p.startsWith(path.join('pgdata', 'pg_wal', '0000')))).toBe(true);
    const open = [...found].filter(([, mode]) => mode !== 'd700' && mode !== 'f600');
    expect(open).toEqual([]);
    expect(found.size).toBeGreaterThan(100);
  });
});
