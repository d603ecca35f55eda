/**
 * One database handle for both engines: embedded PGlite (a directory under DATA_DIR) or
 * PostgreSQL (DATABASE_URL). Everything above this file sees the same drizzle `Database`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { Logger } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index';
import { PgliteWorkerClient } from './pgliteClient';
import { listenOnPostgres } from './listener';
import { keepNewFilesPrivate, makePrivate } from './privateFiles';

/**
 * A store is built by `createXStore(db: Database, options?: { … })`: a plain function returning an
 * object of async methods, typed `XStore = ReturnType<typeof createXStore>`. What else it needs (a
 * write handle `writes`, a clock `now`, a logger `warn`, a `countCap`, a cipher, a queue) goes in the
 * one options object, never in more positional parameters; no classes.
 */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Plain SQL access for libraries that bring their own queries (pg-boss). */
export interface SqlExecutor {
  /** One parameterised statement. */
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
  /** Several statements, no parameters. */
  exec(text: string): Promise<void>;
}

export interface DbHandle {
  kind: 'pglite' | 'postgres';
  db: Database;
  /**
   * PostgreSQL: the people's changes (a folder's or a rule's save) on a small pool of their own,
   * so a save never queues behind the team's list reads (docs/decisions.md, "Server"). Absent:
   * `db`.
   */
  writes?: Database;
  sql: SqlExecutor;
  migrate(): Promise<void>;
  /**
   * Hears NOTIFY on a channel: `onNotify` per notification; `onListening(true)` once heard,
   * `onListening(false)` while the channel is down (PostgreSQL: its connection was lost; it
   * reconnects with back-off). Stops when the handle closes, or by the function it returns.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onListening: (listening: boolean) => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /**
   * Runs `read` with every statement it sends outside a transaction on one connection, taken at its
   * first statement and given back when it ends (PGlite has one connection anyway). See
   * OneConnectionPool.
   */
  onOneConnection<T>(read: () => Promise<T>): Promise<T>;
  /** PGlite only: the whole database as a tarball (test templates, backups). */
  dumpDataDir?(): Promise<Blob>;
}

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any fixed number: every process migrating the same PostgreSQL database takes this lock first. */
const MIGRATION_LOCK_KEY = 724_311_905;

/**
 * SQL_CAPTURE_FILE=path: every statement drizzle runs is appended there as a JSON line
 * `{sql, params}` (the load bench replays them to find the floor the database sets). Off by default.
 */
function captureLogger(): Logger | undefined {
  const file = process.env.SQL_CAPTURE_FILE;
  if (!file) return undefined;
  const plain = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);
  return { logQuery: (sql, params) => appendFileSync(file, `${JSON.stringify({ sql, params }, plain)}\n`) };
}

/**
 * PGlite runs in a worker thread (pgliteClient.ts), so a slow query never blocks the event loop;
 * drizzle and pg-boss see a PGlite-shaped client.
 */
export async function openPglite(dataDir: string | undefined, loadDataDir?: Blob | File): Promise<DbHandle> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const worker = await PgliteWorkerClient.create(dataDir, loadDataDir);
  // drizzle-orm/pglite calls only query() and transaction(), which the worker client answers.
  const client = worker as unknown as PGlite;
  const db = drizzlePglite(client, { schema, logger: captureLogger() }) as unknown as Database;
  return {
    kind: 'pglite',
    db,
    sql: {
      query: async (text, values) => {
        const result = await worker.query(text, values as unknown[] | undefined);
        return { rows: result.rows as never[] };
      },
      exec: async (text) => {
        await worker.exec(text);
      },
    },
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER }),
    listen: async (channel, onNotify, onListening) => {
      const unlisten = await worker.listen(channel, onNotify);
      onListening(true);
      return async () => {
        onListening(false);
        if (!worker.closed) await unlisten();
      };
    },
    close: () => worker.close(),
    onOneConnection: (read) => read(),
    dumpDataDir: () => worker.dumpDataDir('gzip'),
  };
}

/**
 * Settings of every connection the app's pool opens. JIT off: the searches' recheck is declared
 * costly (list_text_matches, migration 0012) to steer the planner, which pushes their plans over
 * jit_above_cost, and compiling one took 2–3 s for a statement that runs in a fraction of that
 * (docs/decisions.md, "Server").
 */
export const POSTGRES_SESSION_OPTIONS = '-c jit=off';

/** Connections of the changes' own pool (DbHandle.writes) beside `maxConnections`. */
export const WRITE_CONNECTIONS = 2;

/** The connection a read holds (OneConnectionPool), taken at its first statement, and its last statement sent. */
interface HeldConnection {
  client?: Promise<pg.PoolClient>;
  last: Promise<unknown>;
}

/**
 * A pool whose statements, inside `onOneConnection`, all go to one connection taken for the whole
 * read. Under a team's load every statement waits its turn for a connection: a list answered in
 * four statements waited four times, and its latency grew with its count of statements rather than
 * their cost (docs/decisions.md, "Server"). Statements sent at once run one
 * after another on it; transactions still take a connection of their own.
 */
class OneConnectionPool extends pg.Pool {
  private readonly held = new AsyncLocalStorage<HeldConnection>();

  // biome-ignore lint/suspicious/noExplicitAny: pg.Pool's query is overloaded (callbacks, configs).
  override query(...args: any[]): any {
    const scope = this.held.getStore();
    if (!scope || typeof args.at(-1) === 'function') return (super.query as (...a: unknown[]) => unknown)(...args);
    scope.client ??= super.connect();
    const connection = scope.client;
    const sent = scope.last
      .then(() => connection)
      .then((client) => (client.query as (...a: unknown[]) => unknown)(...args));
    scope.last = sent.catch(() => undefined);
    return sent;
  }

  async onOneConnection<T>(read: () => Promise<T>): Promise<T> {
    const scope: HeldConnection = { last: Promise.resolve() };
    try {
      return await this.held.run(scope, read);
    } finally {
      if (scope.client) {
        await scope.last;
        const client = await scope.client.catch(() => undefined);
        client?.release();
      }
    }
  }
}

export async function openPostgres(connectionString: string, maxConnections = 10): Promise<DbHandle> {
  const pool = new OneConnectionPool({ connectionString, max: maxConnections, options: POSTGRES_SESSION_OPTIONS });
  const writePool = new pg.Pool({ connectionString, max: WRITE_CONNECTIONS, options: POSTGRES_SESSION_OPTIONS });
  // An idle connection the server closes (restart, failover, DROP DATABASE) must not crash the
  // process: the pool drops it and opens a new one on the next query.
  for (const each of [pool, writePool])
    each.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
  const closed = [trackConnectionsClosed(pool), trackConnectionsClosed(writePool)];
  const connectionsClosed = () => Promise.all(closed.map((wait) => wait()));
  const db = drizzlePg(pool, { schema, logger: captureLogger() }) as unknown as Database;
  const writes = drizzlePg(writePool, { schema, logger: captureLogger() }) as unknown as Database;
  const listeners = new Set<() => Promise<void>>();
  return {
    kind: 'postgres',
    db,
    writes,
    sql: {
      query: async (text, values) => {
        const result = await pool.query(text, values as unknown[] | undefined);
        // Several statements without parameters answer one result each: the last one's rows count.
        return { rows: Array.isArray(result) ? ((result as pg.QueryResult[]).at(-1)?.rows ?? []) : result.rows };
      },
      exec: async (text) => {
        await pool.query(text);
      },
    },
    migrate: async () => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        client.release();
      }
    },
    listen: async (channel, onNotify, onListening) => {
      const stop = await listenOnPostgres(connectionString, channel, onNotify, onListening);
      const stopOnce = async () => {
        listeners.delete(stopOnce);
        await stop();
      };
      listeners.add(stopOnce);
      return stopOnce;
    },
    close: async () => {
      await Promise.all([...listeners].map((stop) => stop()));
      await Promise.all([pool.end(), writePool.end()]);
      await connectionsClosed();
    },
    onOneConnection: (read) => pool.onOneConnection(read),
  };
}

/**
 * pool.end() resolves once every connection has been asked to close, before the server has closed
 * them. What comes right after (the test databases' DROP DATABASE ... WITH (FORCE)) would otherwise
 * terminate connections still closing, and the pool would report each as lost.
 */
function trackConnectionsClosed(pool: pg.Pool): () => Promise<void> {
  const open = new Set<Promise<void>>();
  pool.on('connect', (client) => {
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    open.add(ended);
    void ended.then(() => open.delete(ended));
  });
  return async () => {
    await Promise.all(open);
  };
}

/** The product's database: PostgreSQL at DATABASE_URL, else the embedded one in DATA_DIR; DATA_DIR is private to this user. */
export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<DbHandle> {
  keepNewFilesPrivate();
  makePrivate(options.dataDir);
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  const handle = await openPglite(path.join(options.dataDir, 'pgdata'));
  makePrivate(options.dataDir); // what PGlite wrote while it opened
  return handle;
}
