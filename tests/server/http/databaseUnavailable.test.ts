/**
 * While PostgreSQL cannot be reached (restarting, refusing connections), a call is answered 503 with
 * Retry-After in the contract's `{detail}` shape, not 500: nothing was lost and it can be repeated.
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { installErrorHandlers, isDatabaseUnavailable } from '../../../server/http/errors';

describe('a database that cannot be reached', () => {
  // Port 1: nothing listens there, so the driver's real "connection refused" comes back.
  const pool = new pg.Pool({
    host: '127.0.0.1',
    port: 1,
    user: 'nobody',
    database: 'none',
    connectionTimeoutMillis: 2000,
  });
  const db = drizzle(pool);
  const app = Fastify();
  installErrorHandlers(app);
  app.get('/api/thing/', async () => db.execute(sql`select 1`));
  app.get('/api/broken/', async () => {
    throw new Error('a bug');
  });
  afterAll(async () => {
    await app.close();
    await pool.end();
  });

  it('answers 503 with Retry-After and a {detail} that says to try again', async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/thing/' });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.json()).toEqual({ detail: 'The database cannot be reached right now. Try again in a moment.' });
  });

  it('still answers a real bug 500', async () => {
    const answer = await app.inject({ method: 'GET', url: '/api/broken/' });
    expect(answer.statusCode).toBe(500);
    expect(isDatabaseUnavailable(new Error('a bug'))).toBe(false);
  });

  it('knows PostgreSQL shutting down and a lost connection, wrapped or not', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(
      isDatabaseUnavailable(new Error('Failed query', { cause: new Error('Connection terminated unexpectedly') })),
    ).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });
});
