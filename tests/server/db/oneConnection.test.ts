/**
 * A list's read on PostgreSQL sends all its statements on one connection, taken at its first
 * statement and given back when the read ends, however it ends; transactions inside it and reads
 * beside it keep their own connections.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../server/db/client';
import { resultRows } from '../../../server/http/pagination';
import { freshDatabase } from '../../support/db';

describe('reads on one connection (PostgreSQL)', () => {
  let dbh: DbHandle;
  beforeAll(async () => {
    dbh = await freshDatabase('postgres');
  });
  afterAll(() => dbh.close());

  const backend = async (db = dbh.db) =>
    Number(resultRows<{ pid: number }>(await db.execute(sql`select pg_backend_pid() as pid`))[0]!.pid);

  it('runs every statement of a read on the connection its first one took, even those sent at once', async () => {
    const pids = await dbh.onOneConnection(async () => {
      const first = await backend();
      const together = await Promise.all([backend(), backend(), backend()]);
      return [first, ...together, await backend()];
    });
    expect(new Set(pids).size).toBe(1);
  });

  it('gives the connection back when the read ends, and when it fails', async () => {
    // The test pool holds five connections: a read that kept its own would leave the sixth waiting.
    for (let i = 0; i < 6; i += 1) {
      expect(await dbh.onOneConnection(() => backend())).toBeGreaterThan(0);
      await expect(
        dbh.onOneConnection(async () => {
          await backend();
          await dbh.db.execute(sql`select 1 / 0`);
        }),
      ).rejects.toThrow(/Failed query: select 1 \/ 0/);
    }
    const atOnce = await Promise.all(Array.from({ length: 5 }, () => dbh.onOneConnection(() => backend())));
    expect(atOnce.every((pid) => pid > 0)).toBe(true);
  }, 20_000);

  it('lets a transaction inside a read take a connection of its own', async () => {
    const [outer, inner] = await dbh.onOneConnection(async () => {
      const pid = await backend();
      const inTransaction = await dbh.db.transaction(async (tx) =>
        Number(resultRows<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`))[0]!.pid),
      );
      return [pid, inTransaction];
    });
    expect(inner).not.toBe(outer);
  });
});
