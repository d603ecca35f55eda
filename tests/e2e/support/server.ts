/**
 * Starts the product exactly as a newcomer does (`npm start`, i.e. scripts/start.mjs) on a fresh
 * temporary data dir and a free port, and stops it afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const ADMIN = { email: 'admin@example.com', password: 'e2e-admin-password' };

export interface RunningProduct {
  url: string;
  port: number;
  dataDir: string;
  /** The process id of `npm start`'s script (scripts/start.mjs). */
  pid: () => number;
  output: () => string;
  /** Stops the product and starts it again on the same data dir and port. */
  restart(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess, output: () => string, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the product exited early (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the product did not answer at ${url}:\n${output()}`);
}

function spawnProduct(port: number, dataDir: string, env: Record<string, string>) {
  let log = '';
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (chunk) => (log += chunk));
  child.stderr!.on('data', (chunk) => (log += chunk));
  return { child, output: () => log };
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    /* already gone */
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
}

export async function startProduct(env: Record<string, string> = {}): Promise<RunningProduct> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ad-rules-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let running = spawnProduct(port, dataDir, env);
  await waitForHttp(`${url}/api/user/me/`, running.child, running.output);
  return {
    url,
    port,
    dataDir,
    pid: () => running.child.pid!,
    output: () => running.output(),
    async restart(extraEnv = {}) {
      await stopChild(running.child);
      running = spawnProduct(port, dataDir, { ...env, ...extraEnv });
      await waitForHttp(`${url}/api/user/me/`, running.child, running.output);
    },
    async stop() {
      await stopChild(running.child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
