/**
 * Fresh, migrated databases for the bench, opened through server/db/client.ts like the server does:
 * PGlite clones of one migrated template (in memory), or new databases on a PostgreSQL server that
 * are dropped afterwards. Each handle's drizzle instance also reports the SQL it runs to a
 * recorder, so the bench can EXPLAIN exactly the queries an API call made.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPglite, openPostgres, type Database, type DbHandle } from '../server/db/client';
import * as schema from '../server/db/schema/index';

export type Engine = 'pglite' | 'postgres';

export interface RecordedQuery {
  sql: string;
  params: unknown[];
}

/** Collects the statements drizzle runs while `recording` is on. */
export class QueryRecorder implements Logger {
  recording = false;
  queries: RecordedQuery[] = [];

  logQuery(query: string, params: unknown[]): void {
    if (this.recording) this.queries.push({ sql: query, params });
  }

  async capture(run: () => Promise<unknown>): Promise<RecordedQuery[]> {
    this.queries = [];
    this.recording = true;
    try {
      await run();
    } finally {
      this.recording = false;
    }
    return this.queries;
  }
}

export interface BenchDatabase {
  /** The handle to give the app: its `db` reports to `recorder`. */
  handle: DbHandle;
  recorder: QueryRecorder;
  close(): Promise<void>;
}

/** The same client under a drizzle instance that logs to the recorder (drizzle's public `$client`). */
function withRecorder(handle: DbHandle): { handle: DbHandle; recorder: QueryRecorder } {
  const recorder = new QueryRecorder();
  const client = (handle.db as unknown as { $client: unknown }).$client;
  const db =
    handle.kind === 'pglite'
      ? (drizzlePglite(client as PGlite, { schema, logger: recorder }) as unknown as Database)
      : (drizzlePg(client as pg.Pool, { schema, logger: recorder }) as unknown as Database);
  return { handle: { ...handle, db }, recorder };
}

export interface DatabaseFactory {
  engine: Engine;
  /** A new, empty, migrated database. */
  fresh(label: string): Promise<BenchDatabase>;
  /** Drops whatever this factory created that is still around. */
  dispose(): Promise<void>;
}

export async function pgliteFactory(): Promise<DatabaseFactory> {
  const template = await openPglite(undefined);
  await template.migrate();
  const dump = await template.dumpDataDir!();
  await template.close();
  return {
    engine: 'pglite',
    async fresh() {
      const opened = withRecorder(await openPglite(undefined, dump));
      return { ...opened, close: () => opened.handle.close() };
    },
    async dispose() {},
  };
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

export async function postgresFactory(adminUrl: string): Promise<DatabaseFactory> {
  const run = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const created = new Set<string>();
  const drop = async (name: string) => {
    await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`);
    created.delete(name);
  };
  return {
    engine: 'postgres',
    async fresh(label) {
      const name = `ad_rules_bench_${run}_${label}`;
      await adminQuery(adminUrl, `create database "${name}"`);
      created.add(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const base = await openPostgres(url.toString(), 5);
      await base.migrate();
      const opened = withRecorder(base);
      return {
        ...opened,
        close: async () => {
          // pool.end() resolves while its sockets are still closing; the forced drop below may cut
          // one, which the pool would otherwise re-throw as an unhandled 'error' event.
          (base.db as unknown as { $client: pg.Pool }).$client.on('error', () => undefined);
          await base.close();
          await drop(name);
        },
      };
    },
    async dispose() {
      for (const name of [...created]) await drop(name).catch(() => undefined);
    },
  };
}
