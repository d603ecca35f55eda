/**
 * Test databases. Every test file gets its own fresh, migrated database:
 * - PGlite: a clone of the template data dir built once per run by globalDb.ts (loadDataDir);
 * - PostgreSQL: a new database created from the migrated template on the test PostgreSQL server
 *   (TEST_DATABASE_URL, or the embedded one globalDb.ts starts when it is unset).
 * `eachDatabase` runs a suite once per engine, so API tests cover both (or only PGlite under
 * TEST_ENGINES=pglite, the quick tier: ./engines.ts).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type DbHandle } from '../../server/db/client';
import { type Engine, testEngines } from './engines';

export type { Engine };

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
    postgresAdminUrl: string;
  }
}

export const engines: readonly Engine[] = testEngines();

export async function freshDatabase(engine: Engine): Promise<DbHandle> {
  if (engine === 'pglite') {
    const dump = await readFile(inject('pgliteTemplate'));
    return openPglite(undefined, new Blob([dump]));
  }
  const adminUrl = inject('postgresAdminUrl');
  const template = inject('postgresTemplate');
  if (!adminUrl || !template)
    throw new Error(
      `No PostgreSQL in this run (TEST_ENGINES=${process.env.TEST_ENGINES}): a file that needs it belongs in vitest.config.ts's postgresOnlyFiles`,
    );
  const name = `ad_rules_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${template}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString(), 5);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists "${name}" with (force)`).finally(() => cleanup.end());
    },
  };
}

/** Runs `suite` once per engine: PGlite and PostgreSQL (those of TEST_ENGINES). */
export function eachDatabase(suite: (engine: Engine) => void): void {
  for (const engine of engines) suite(engine);
}
