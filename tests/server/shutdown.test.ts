/**
 * SIGTERM on the real server process (ROLE=all on a fresh embedded database, talking to a Graph
 * simulator run by this test): a request in flight — an ad-account refresh the simulator answers
 * slowly — completes, new connections are refused while it does, the job queue and the database
 * close, and the process exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../server/adplatform/simulator/index';
import { freePort } from '../e2e/support/server';
import { waitUntil } from '../support/waitUntil';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN = { email: 'admin@example.com', password: 'shutdown-test-password' };
const ACCOUNTS_PATH = 'me/adaccounts';

/** waitUntil, ended early by the server's exit, with the server's output in either failure. */
async function until<T>(read: () => Promise<T> | T, what: string, child: ChildProcess, output: () => string) {
  const exitedFirst = () => {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before ${what}`);
    return read();
  };
  return waitUntil(exitedFirst, what, { timeoutMs: 120_000 }).catch((error: Error) => {
    throw new Error(`${error.message}:\n${output()}`);
  });
}

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('graceful shutdown of the server process', () => {
  let sim: Simulator;
  let dataDir: string;
  let child: ChildProcess;
  let output = '';

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, speed: 0, accounts: 2, campaignsPerAccount: 2, adsPerCampaign: 1 });
    dataDir = await mkdtemp(path.join(tmpdir(), 'ad-rules-shutdown-'));
  });
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await sim.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('finishes the request in flight, refuses new connections, and exits 0', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ROLE: 'all',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        META_ACCESS_TOKEN: '',
        META_GRAPH_URL: sim.url,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const log = () => output;

    await until(async () => (await fetch(`${url}/readyz`).catch(() => null))?.ok, 'it is ready', child, log);
    // Accounts were read at startup and by the sync job's first run; the next read is the request's.
    const accountReads = () => sim.requests.filter((r) => r.path === ACCOUNTS_PATH).length;
    await until(() => accountReads() >= 2, 'the first sync', child, log);
    const login = await fetch(`${url}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { access } = (await login.json()) as { access: string };

    sim.addFault({ kind: 'slow', ms: 6_000, count: 0, match: { path: ACCOUNTS_PATH } });
    const readsBefore = accountReads();
    const inFlight = fetch(`${url}/api/meta_ad_account/refresh/`, { headers: { authorization: `Bearer ${access}` } });
    await until(() => accountReads() > readsBefore, 'the request to reach the ad platform', child, log);

    child.kill('SIGTERM');
    await until(() => refused(port), 'new connections to be refused', child, log);
    expect(child.exitCode).toBeNull(); // still draining

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { count: number }).count).toBe(2);
    expect(await exited, output).toBe(0);
    expect(output).toMatch(/SIGTERM: finishing requests and jobs/);
    expect(output).toMatch(/database closed/);
  }, 180_000); // a fresh server migrates and syncs before it is ready
});
