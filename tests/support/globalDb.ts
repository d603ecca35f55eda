/**
 * Runs once per `vitest` run for the server project: migrates one PGlite database and dumps it
 * as a template, and migrates a PostgreSQL template database on the test PostgreSQL server
 * (TEST_DATABASE_URL, or a throwaway embedded one: ./postgresServer.ts), removed again at the end.
 * Under TEST_ENGINES=pglite (./engines.ts) PostgreSQL is left alone: no server, no template.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../server/db/client';
import { testEngines } from './engines';
import { startTestPostgres } from './postgresServer';
import { makeTempDir } from './tempDir';

export default async function setup(project: TestProject) {
  const dir = await makeTempDir('ad-rules-template-');
  const pglite = await openPglite(undefined);
  await pglite.migrate();
  // A test database holds little: 16 MB of buffers instead of 128 MB starts each copy in about
  // three quarters of the time (PGlite zeroes and touches the whole buffer pool as it starts).
  await pglite.sql.exec("alter system set shared_buffers = '16MB'");
  const dumpFile = path.join(dir.path, 'template.tar.gz');
  await writeFile(dumpFile, Buffer.from(await (await pglite.dumpDataDir!()).arrayBuffer()));
  await pglite.close();
  project.provide('pgliteTemplate', dumpFile);
  if (!testEngines().includes('postgres')) return () => dir.remove();

  const postgres = await startTestPostgres();
  const templateName = `ad_rules_template_${process.pid}_${Date.now()}`;
  const adminQuery = async (sql: string) => {
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query(sql).finally(() => admin.end());
  };
  try {
    await adminQuery(`create database "${templateName}"`);
    const url = new URL(postgres.adminUrl);
    url.pathname = `/${templateName}`;
    const handle = await openPostgres(url.toString(), 2);
    await handle.migrate();
    await handle.close();
  } catch (error) {
    await postgres.stop();
    await dir.remove();
    throw error;
  }
  project.provide('postgresTemplate', templateName);
  project.provide('postgresAdminUrl', postgres.adminUrl);

  return async () => {
    await dir.remove();
    try {
      await adminQuery(`drop database if exists "${templateName}" with (force)`);
    } finally {
      await postgres.stop();
    }
  };
}
