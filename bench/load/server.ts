/**
 * The real server, started the `npm start` way (scripts/start.mjs: built browser app, then
 * server/main.ts) on a port of its own, and a login through POST /api/token/ as the admin it creates.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export interface RunningServer {
  base: string;
  /** A Bearer token of the admin. */
  token: string;
  stop(): Promise<void>;
  /** The process group the server runs in (start.mjs and its children). */
  pid: number;
}

export interface ServerSettings {
  dataDir: string;
  databaseUrl: string | undefined;
  adminEmail: string;
  adminPassword: string;
  logLevel: string;
  /** Where the server's output goes. */
  logFile: string;
  /** SQL_CAPTURE_FILE: the server logs every statement there. */
  captureFile?: string;
  /** More settings for the server's environment. */
  env?: Record<string, string>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));

/** Signals the server's whole process group (start.mjs → npx → tsx → node), which this bench started. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
}

export async function startServer(settings: ServerSettings): Promise<RunningServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: settings.dataDir,
    ADMIN_EMAIL: settings.adminEmail,
    ADMIN_PASSWORD: settings.adminPassword,
    LOG_LEVEL: settings.logLevel,
    // An API process, as a deployment runs several of behind a load balancer: the rule engine and
    // the campaign sync (ROLE=worker; `npm run bench -- --engine` measures the engine) would
    // otherwise run the seeded rules in the same process and their statements would mix with the
    // calls' own, in the load and in the captured SQL.
    ROLE: 'api',
    // One token serves the whole run (the default lifetime is 5 minutes).
    ACCESS_TOKEN_LIFETIME_SECONDS: String(6 * 60 * 60),
    ...settings.env,
  };
  delete env.DATABASE_URL;
  delete env.SQL_CAPTURE_FILE;
  delete env.NODE_ENV;
  if (settings.databaseUrl) env.DATABASE_URL = settings.databaseUrl;
  if (settings.captureFile) env.SQL_CAPTURE_FILE = settings.captureFile;
  const out = openSync(settings.logFile, 'a');
  const child = spawn(process.execPath, [path.join('scripts', 'start.mjs')], {
    env,
    stdio: ['ignore', out, out],
    detached: true,
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    signalGroup(child, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 10_000);
    await exited(child);
    clearTimeout(timer);
    // Give the grandchildren a moment, then make sure none is left holding the database.
    await new Promise((r) => setTimeout(r, 500));
    signalGroup(child, 'SIGKILL');
  };
  try {
    const deadline = Date.now() + 5 * 60_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`The server exited (code ${child.exitCode}); see ${settings.logFile}`);
      if (Date.now() > deadline) throw new Error(`The server did not answer within 5 minutes; see ${settings.logFile}`);
      const answered = await fetch(`${base}/api/user/me/`).then(
        () => true,
        () => false,
      );
      if (answered) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const response = await fetch(`${base}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: settings.adminEmail, password: settings.adminPassword }),
    });
    if (response.status !== 200) throw new Error(`Login answered ${response.status}: ${await response.text()}`);
    const { access } = (await response.json()) as { access: string };
    return { base, token: access, stop, pid: child.pid! };
  } catch (error) {
    await stop();
    throw error;
  }
}
