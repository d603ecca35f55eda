/**
 * Real server processes (server/main.ts) sharing one PostgreSQL database and one Graph simulator,
 * for the tests of what several machines running the product must hold: a Run now acts once
 * whichever process takes it, and a run cut off by a kill -9 is settled by the process left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgres, type DbHandle } from '../../../server/db/client';
import { freePort } from '../../e2e/support/server';
import { waitUntil } from '../../support/waitUntil';

const ROOT = path.resolve(import.meta.dirname, '../../..');
export const ADMIN = { email: 'admin@example.com', password: 'processes-test-password' };

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** POSTs as the admin (signed in on this process). */
  post(pathname: string): Promise<Response>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** A PostgreSQL database of its own (from the migrated template), with its URL for child processes. */
export async function sharedDatabase(): Promise<{ url: string; dbh: DbHandle; drop(): Promise<void> }> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `ad_rules_servers_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}" template "${inject('postgresTemplate')}"`).finally(() => admin.end());
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dbh = await openPostgres(url.toString(), 4);
  return {
    url: url.toString(),
    dbh,
    async drop() {
      await dbh.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists "${name}" with (force)`).finally(() => cleanup.end());
    },
  };
}

/** Secrets every process of one deployment shares (docs/operations.md). */
const shared = { JWT_SECRET: randomBytes(32).toString('hex'), CREDENTIALS_KEY: randomBytes(32).toString('base64') };

/**
 * Signs in as the admin. Processes of one deployment started together sign in at about the same
 * moment, and one account's password is checked once at a time across them (server/auth/
 * loginFailures.ts): the later sign-in is asked to wait, and does.
 */
async function signInAsAdmin(url: string): Promise<Response> {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(`${url}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    if (response.status !== 429 || attempt === 5) return response;
    const { detail } = (await response.json()) as { detail: string };
    const seconds = Number(/Try again in (\d+) seconds/.exec(detail)?.[1] ?? 1);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

/** Starts server/main.ts on loopback against the database and the simulator; answers once signed in. */
export async function startServer(options: {
  databaseUrl: string;
  graphUrl: string;
  role?: string;
}): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ad-rules-server-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...shared,
      ROLE: options.role ?? 'api',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: options.databaseUrl,
      META_ACCESS_TOKEN: '',
      META_GRAPH_URL: options.graphUrl,
      // The tests' simulators stand in spring 2026, before the default version was released.
      META_API_VERSION: 'v25.0',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      PASSWORD_HASH_COST: '10',
      // The rules of these tests turn off most of the account on purpose: no held runs.
      ENGINE_MAX_SHARE: '1',
      ENGINE_MAX_ACTIONS: '10000',
      // Run now is limited per person like sign-ins; these tests press it dozens of times a minute.
      LOGIN_RATE_LIMIT: '1000',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  exited.then(
    () => rm(dataDir, { recursive: true, force: true }),
    () => undefined,
  );
  try {
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
        return (await fetch(`${url}/readyz`).catch(() => null))?.ok;
      },
      'the server to be ready',
      { timeoutMs: 120_000 },
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const signIn = await signInAsAdmin(url);
  if (!signIn.ok) {
    child.kill('SIGKILL');
    throw new Error(`signing in on the server answered ${signIn.status}: ${await signIn.text()}\n${output}`);
  }
  const { access } = (await signIn.json()) as { access: string };
  return {
    url,
    child,
    output: () => output,
    exited,
    post: (pathname) => fetch(`${url}${pathname}`, { method: 'POST', headers: { authorization: `Bearer ${access}` } }),
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
