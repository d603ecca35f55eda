/**
 * The embedded database runs in a worker thread (server/db/pgliteClient.ts): the API keeps
 * answering while a query runs, and what code above the handle relies on — PostgreSQL's error
 * fields, transactions that roll back, NOTIFY, dumps — arrives across the thread unchanged.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../../server/db/client';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';

describe('PGlite in a worker thread', () => {
  let api: TestApi;
  let user: TestUser;

  beforeAll(async () => {
    api = await createTestApi('pglite');
    user = await api.userWith([]);
  });
  afterAll(() => api.close());

  it('answers GET /api/user/me/ while a slow query is still running', async () => {
    // The signed-in user is now cached: me needs no SQL, only the event loop.
    expect((await api.request(user.token, { method: 'GET', url: '/api/user/me/' })).statusCode).toBe(200);
    const finished: string[] = [];
    const slow = api.dbh.sql.query('select pg_sleep(1)').then(() => finished.push('slow query'));
    const me = api.request(user.token, { method: 'GET', url: '/api/user/me/' }).then((response) => {
      finished.push('me');
      return response;
    });
    expect((await me).statusCode).toBe(200);
    await slow;
    expect(finished).toEqual(['me', 'slow query']);
  });

  it('keeps PostgreSQL error fields (code, constraint, detail) on errors', async () => {
    await api.dbh.sql.exec('create table worker_unique (id int primary key)');
    await api.dbh.sql.query('insert into worker_unique values (1)');
    const error = await api.dbh.db.execute(sql`insert into worker_unique values (1)`).catch((e: unknown) => e);
    const cause = (error as { cause?: Record<string, unknown> }).cause;
    expect(cause).toMatchObject({ code: '23505', constraint: 'worker_unique_pkey' });
    expect(cause?.detail).toMatch(/already exists/);
  });

  it('commits a transaction that succeeds and rolls back one that throws', async () => {
    await api.dbh.sql.exec('create table worker_tx (id int)');
    await api.dbh.db.transaction(async (tx) => {
      await tx.execute(sql`insert into worker_tx values (1)`);
      await tx.transaction(async (inner) => inner.execute(sql`insert into worker_tx values (2)`));
    });
    const failed = api.dbh.db.transaction(async (tx) => {
      await tx.execute(sql`insert into worker_tx values (3)`);
      throw new Error('changed my mind');
    });
    await expect(failed).rejects.toThrow('changed my mind');
    const { rows } = await api.dbh.sql.query<{ id: number }>('select id from worker_tx order by id');
    expect(rows.map((row) => row.id)).toEqual([1, 2]);
  });

  it('returns timestamps, bytea and numeric arrays as drizzle expects them', async () => {
    const { rows } = (await api.dbh.db.execute(
      sql`select timestamptz '2024-05-01 10:00:00+00' as at, '\\x0102'::bytea as bytes, array[1.5]::numeric[] as amounts`,
    )) as unknown as { rows: unknown[] };
    // drizzle asks for dates and numeric arrays as text and maps them itself.
    expect(rows[0]).toEqual({ at: '2024-05-01 10:00:00+00', bytes: new Uint8Array([1, 2]), amounts: '{1.5}' });
  });

  it('hears NOTIFY and stops hearing after unlisten', async () => {
    const heard: string[] = [];
    const listening: boolean[] = [];
    const stop = await api.dbh.listen(
      'worker_channel',
      (payload) => heard.push(payload),
      (on) => listening.push(on),
    );
    await api.dbh.sql.query("select pg_notify('worker_channel', 'first')");
    await expect.poll(() => heard).toEqual(['first']);
    await stop();
    await api.dbh.sql.query("select pg_notify('worker_channel', 'second')");
    await api.dbh.sql.query('select 1'); // a round trip after the NOTIFY: anything it sent has arrived
    expect(heard).toEqual(['first']);
    expect(listening).toEqual([true, false]);
  });

  it('dumps a database another handle opens from the dump', async () => {
    await api.dbh.sql.exec("create table worker_dump (name text); insert into worker_dump values ('kept')");
    const copy = await openPglite(undefined, await api.dbh.dumpDataDir!());
    try {
      expect((await copy.sql.query('select name from worker_dump')).rows).toEqual([{ name: 'kept' }]);
    } finally {
      await copy.close();
    }
    await expect(copy.sql.query('select 1')).rejects.toThrow(/closed/);
  });
});
