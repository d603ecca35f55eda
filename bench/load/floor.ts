/**
 * The floor the database sets for a call: the SQL statements the server ran for one request
 * (captured through SQL_CAPTURE_FILE, server/db/client.ts), replayed one after another on one
 * connection of the same database, straight through `pg` (PostgreSQL) or PGlite, no HTTP, no app.
 */
import { readFile, stat } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { POSTGRES_SESSION_OPTIONS } from '../../server/db/client';

export interface Statement {
  sql: string;
  params: unknown[];
}

/** Statements appended to `file` while `request` ran. */
export async function captureStatements(file: string, request: () => Promise<unknown>): Promise<Statement[]> {
  const before = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  await request();
  const text = await readFile(file).then(
    (b) => b.subarray(before).toString('utf8'),
    () => '',
  );
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Statement);
}

export interface Replayer {
  /** Runs the statements in order, each to its last row. */
  run(statements: Statement[]): Promise<void>;
  close(): Promise<void>;
}

export async function postgresReplayer(url: string): Promise<Replayer> {
  const client = new pg.Client({ connectionString: url, options: POSTGRES_SESSION_OPTIONS });
  await client.connect();
  return {
    async run(statements) {
      for (const s of statements) await client.query(s.sql, s.params);
    },
    close: () => client.end(),
  };
}

export async function pgliteReplayer(pgdata: string): Promise<Replayer> {
  const client = await PGlite.create(pgdata, { extensions: { pg_trgm } });
  return {
    async run(statements) {
      for (const s of statements) await client.query(s.sql, s.params);
    },
    close: () => client.close(),
  };
}
