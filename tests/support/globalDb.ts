/**
 * Runs once per `vitest` run for the server project: migrates one PGlite database and dumps it
 * as a template, and (with TEST_DATABASE_URL) migrates a PostgreSQL template database.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../server/db/client';

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(tmpdir(), 'ad-rules-template-'));
  const pglite = await openPglite(undefined);
  await pglite.migrate();
  const dumpFile = path.join(dir, 'template.tar.gz');
  await writeFile(dumpFile, Buffer.from(await (await pglite.dumpDataDir!()).arrayBuffer()));
  await pglite.close();
  project.provide('pgliteTemplate', dumpFile);

  const adminUrl = process.env.TEST_DATABASE_URL ?? null;
  let templateName: string | null = null;
  if (adminUrl) {
    templateName = `ad_rules_template_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database "${templateName}"`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${templateName}`;
    const handle = await openPostgres(url.toString(), 2);
    await handle.migrate();
    await handle.close();
  }
  project.provide('postgresTemplate', templateName);
  project.provide('postgresAdminUrl', adminUrl);

  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (adminUrl && templateName) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists "${templateName}" with (force)`).finally(() => admin.end());
    }
  };
}
