/**
 * `npm run bench -- --load`: per engine, a fresh database seeded by `npm run seed`, the real server
 * started the `npm start` way, a login through POST /api/token/, then every list call under load
 * (autocannon), one request at a time, and the same SQL replayed straight on the database.
 * Writes bench/results/<timestamp>-load.md, load-latest.md and the "lists" section of latest.json.
 * How to run and read it: docs/bench.md.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { hashPassword } from '../../server/auth/passwords';
import { openPglite, openPostgres, type DbHandle } from '../../server/db/client';
import { ensureAdmin } from '../../server/people/bootstrap';
import { existingRows } from '../seed';
import { callKey, loadCalls, loadFacts, type LoadCall } from './calls';
import { getOnce, loadCall, medianMs, type LoadResult } from './drive';
import { captureStatements, pgliteReplayer, postgresReplayer, type Replayer, type Statement } from './floor';
import { LOAD_USAGE, parseLoadOptions, type LoadEngine, type LoadOptions } from './options';
import { writeLoadResults, type CallOutcome, type EngineOutcome } from './report';
import { startServer } from './server';

const began = performance.now();
const log = (line: string) =>
  console.error(`[${String(Math.round((performance.now() - began) / 1000)).padStart(4)} s] ${line}`);
/** A hard reload's header: the server reads the database instead of answering from its page cache. */
const FRESH = { 'cache-control': 'no-cache' };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `npm run seed` itself, on the bench's database, so the bench also proves the command works. */
export function runSeed(
  options: Pick<LoadOptions, 'sizes'>,
  env: NodeJS.ProcessEnv,
): Promise<{ seconds: number; summary: string }> {
  const { sizes } = options;
  const args = [
    'tsx',
    path.join('scripts', 'seed.ts'),
    ...['--folders', sizes.folders, '--rules-per-folder', sizes.rulesPerFolder, '--campaigns', sizes.campaigns],
    ...[
      '--log-entries',
      sizes.auditLogEntries,
      '--activity-entries',
      sizes.ruleLogEntries,
      '--team',
      sizes.teamMembers,
    ],
  ].map(String);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('npx', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk;
      for (const line of String(chunk)
        .split('\n')
        .filter((l) => l.trim() && !l.startsWith('npm warn')))
        log(`  ${line}`);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`npm run seed failed (exit ${code}):\n${output.slice(-2000)}`));
      const summary = output.split('\n').find((l) => l.startsWith('Made ')) ?? '';
      resolve({ seconds: (performance.now() - started) / 1000, summary });
    });
  });
}

interface PreparedDatabase {
  env: { DATABASE_URL?: string; DATA_DIR: string };
  databaseUrl: string | undefined;
  dataDir: string;
  replayer(): Promise<Replayer>;
  dispose(): Promise<void>;
}

export async function adminQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function prepare(engine: LoadEngine, options: LoadOptions): Promise<PreparedDatabase> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `ad-rules-load-${engine}-`));
  if (engine === 'pglite') {
    return {
      env: { DATA_DIR: dataDir },
      databaseUrl: undefined,
      dataDir,
      replayer: () => pgliteReplayer(path.join(dataDir, 'pgdata')),
      dispose: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  if (options.seededPostgresUrl) {
    const databaseUrl = options.seededPostgresUrl;
    return {
      env: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
      databaseUrl,
      dataDir,
      replayer: () => postgresReplayer(databaseUrl),
      // Kept: the point of a seeded database is to run against it again.
      dispose: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `ad_rules_load_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await adminQuery(options.postgresUrl, `create database "${name}"`);
  const url = new URL(options.postgresUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  return {
    env: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
    databaseUrl,
    dataDir,
    replayer: () => postgresReplayer(databaseUrl),
    dispose: async () => {
      await adminQuery(options.postgresUrl, `drop database if exists "${name}" with (force)`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A database seeded beforehand: migrated to this checkout, and its superuser (the first bench run
 * created it, or the seed) signs in with this run's password — the server only creates an admin
 * where there is none.
 */
export async function adoptSeededPostgres(url: string, admin: { adminEmail: string; adminPassword: string }) {
  const dbh = await openPostgres(url, 1);
  try {
    await adoptSeeded(dbh, admin, url);
  } finally {
    await dbh.close();
  }
}

/**
 * A database seeded beforehand, made the bench's: migrated, and its first superuser given the
 * bench's login (the server creates an admin only where there is none).
 */
export async function adoptSeeded(dbh: DbHandle, admin: { adminEmail: string; adminPassword: string }, label: string) {
  await dbh.migrate();
  const made = await ensureAdmin(dbh.db, admin.adminEmail, admin.adminPassword);
  if (!made.created) {
    const { rows } = await dbh.sql.query<{ email: string }>(
      'update users set email = $1, password_hash = $2, is_active = true where id = (select min(id) from users where is_superuser) returning email',
      [admin.adminEmail, await hashPassword(admin.adminPassword)],
    );
    if (!rows.length) throw new Error(`No superuser in ${label}`);
  }
  // What migrating wrote (a new index over a million entries is hundreds of megabytes of WAL) is
  // flushed now, not by a checkpoint in the middle of the measured load.
  await dbh.sql.exec('checkpoint');
}

async function runEngine(engine: LoadEngine, options: LoadOptions): Promise<EngineOutcome> {
  const loadBefore = os.loadavg()[0]!;
  log(`${engine}: preparing a fresh database…`);
  const db = await prepare(engine, options);
  try {
    const seedEnv: NodeJS.ProcessEnv = { ...process.env, ...db.env };
    if (engine === 'pglite') delete seedEnv.DATABASE_URL;
    const admin = { adminEmail: 'load-bench@example.com', adminPassword: randomBytes(12).toString('hex') };
    let seeded: { seconds: number; summary: string };
    if (engine === 'postgres' && options.seededPostgresUrl) {
      log(`postgres: using ${new URL(options.seededPostgresUrl).pathname.slice(1)} as seeded beforehand…`);
      await adoptSeededPostgres(options.seededPostgresUrl, admin);
      seeded = { seconds: 0, summary: 'a database seeded beforehand by `npm run seed` (--postgres-seeded)' };
    } else if (engine === 'pglite' && options.seededDataDir) {
      log(`pglite: copying ${options.seededDataDir} (seeded beforehand by npm run seed)…`);
      await cp(path.join(options.seededDataDir, 'pgdata'), path.join(db.dataDir, 'pgdata'), { recursive: true });
      seeded = { seconds: 0, summary: `a copy of ${options.seededDataDir}, seeded beforehand by \`npm run seed\`` };
    } else seeded = await runSeed(options, seedEnv);

    const dbh = db.databaseUrl
      ? await openPostgres(db.databaseUrl, 2)
      : await openPglite(path.join(db.dataDir, 'pgdata'));
    const facts = await loadFacts(dbh);
    const counts = await existingRows(dbh);
    const version = String((await dbh.sql.query<{ v: string }>('select version() as v')).rows[0]!.v)
      .split(' on ')[0]!
      .split(',')[0]!;
    await dbh.close();
    const all = loadCalls(facts, options.deepOffset);
    const calls = all.filter((c) => c.endpoint === 'baseline' || !options.only || callKey(c).includes(options.only));

    const server = { dataDir: db.dataDir, databaseUrl: db.databaseUrl, logLevel: options.logLevel, ...admin };

    // 1. The statements of one request per call, from a server that logs them.
    log(`${engine}: capturing each call's SQL…`);
    const captureFile = path.join(db.dataDir, 'statements.jsonl');
    const statements = new Map<LoadCall, Statement[]>();
    const failures = new Map<LoadCall, string>();
    const capturing = await startServer({ ...server, logFile: path.join(db.dataDir, 'capture.log'), captureFile });
    try {
      for (const call of calls) {
        try {
          // Read from the database (not the page cache): warm first, as the first request opens connections.
          await getOnce(capturing.base + call.url, capturing.token, 60_000, FRESH);
          statements.set(
            call,
            await captureStatements(captureFile, () =>
              getOnce(capturing.base + call.url, capturing.token, 60_000, FRESH),
            ),
          );
        } catch (error) {
          failures.set(call, (error as Error).message);
          log(`  ${callKey(call)}: ${(error as Error).message}`);
        }
      }
    } finally {
      await capturing.stop();
    }

    // 2. The server as deployed: one request at a time, then the load.
    // As served (from the page cache after the first, unless --fresh) and read from the database.
    const single = new Map<LoadCall, number>();
    const singleRead = new Map<LoadCall, number>();
    const asServed = options.fresh ? FRESH : {};
    const loads = new Map<LoadCall, LoadResult>();
    const meLoads: LoadResult[] = [];
    const restarts: string[] = [];
    const serverLog = path.join(db.dataDir, 'server.log');
    let running = await startServer({ ...server, logFile: serverLog });
    try {
      log(`${engine}: one request at a time…`);
      for (const call of calls.filter((c) => !failures.has(c))) {
        single.set(call, await medianMs(() => getOnce(running.base + call.url, running.token, 60_000, asServed)));
        singleRead.set(call, await medianMs(() => getOnce(running.base + call.url, running.token, 60_000, FRESH)));
      }
      const me = calls.find((c) => c.endpoint === 'baseline')!;
      const idleMeMs = single.get(me) ?? 5;
      /**
       * Requests still queued when autocannon stops are still served: wait until the me call is
       * about as fast as on the idle server, so they do not slow the next call. A backlog that does
       * not drain within --settle seconds (a slow call on PGlite) is cut short by restarting the server.
       */
      const settle = async (call: LoadCall) => {
        const deadline = Date.now() + options.settle * 1000;
        let fast = 0;
        while (Date.now() < deadline) {
          const started = performance.now();
          const ok = await getOnce(running.base + me.url, running.token, 5000).then(
            () => true,
            () => false,
          );
          fast = ok && performance.now() - started < Math.max(5 * idleMeMs, 50) ? fast + 1 : 0;
          if (fast >= 2) return;
          await pause(250);
        }
        log(`  the backlog of ${callKey(call)} did not drain in ${options.settle} s: restarting the server`);
        restarts.push(callKey(call));
        await running.stop();
        running = await startServer({ ...server, logFile: serverLog });
      };
      const load = async (call: LoadCall) => {
        const result = await loadCall(running.base + call.url, running.token, options, asServed);
        log(
          `  ${callKey(call)}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms, ${result.errors} errors`,
        );
        await settle(call);
        return result;
      };
      log(`${engine}: ${options.connections} connections × ${options.duration} s per call…`);
      meLoads.push(await load(me));
      for (const call of calls.filter((c) => c !== me && !failures.has(c))) loads.set(call, await load(call));
      meLoads.push(await load(me)); // again at the end: how much the machine drifted during the run
    } finally {
      await running.stop();
    }

    // 3. The floor: the same statements straight on the database.
    log(`${engine}: replaying the SQL straight on the database…`);
    const floors = new Map<LoadCall, number>();
    const replayer = await db.replayer();
    try {
      // A call that ran no SQL (me, once the signed-in user is in memory) has no floor to compare with.
      for (const [call, list] of statements)
        if (list.length) floors.set(call, await medianMs(() => replayer.run(list)));
    } finally {
      await replayer.close();
    }

    const me = calls.find((c) => c.endpoint === 'baseline')!;
    const meRps = (meLoads[0]!.rps + meLoads[1]!.rps) / 2;
    const meP99 = (meLoads[0]!.p99_ms + meLoads[1]!.p99_ms) / 2;
    const outcomes: CallOutcome[] = calls.map((call) => {
      const result = call === me ? meLoads[0]! : loads.get(call);
      const singleMs = single.get(call);
      const readMs = singleRead.get(call);
      const floorMs = floors.get(call);
      return {
        key: callKey(call),
        endpoint: call.endpoint,
        name: call.name,
        url: call.url,
        failed: failures.get(call),
        load: result,
        statements: statements.get(call)?.length ?? 0,
        singleMs,
        floorMs,
        rpsRatioToMe: result ? result.rps / meRps : undefined,
        p99RatioToMe: result ? result.p99_ms / meP99 : undefined,
        rawSqlRatio: singleMs !== undefined && floorMs ? singleMs / floorMs : undefined,
        readMs,
        readRawSqlRatio: readMs !== undefined && floorMs ? readMs / floorMs : undefined,
      };
    });
    return {
      engine,
      version,
      seed: seeded,
      me: { first: meLoads[0]!, last: meLoads[1]!, rps: meRps, p99_ms: meP99 },
      calls: outcomes,
      loadAverage: { before: loadBefore, after: os.loadavg()[0]! },
      rows: counts,
      restarts,
    };
  } finally {
    await db.dispose().catch((error: Error) => log(`could not clean up: ${error.message}`));
  }
}

export async function runLoadBench(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(LOAD_USAGE);
    return;
  }
  const options = parseLoadOptions(argv, process.env);
  const startedAt = new Date();
  const engines: EngineOutcome[] = [];
  for (const engine of options.engines) engines.push(await runEngine(engine, options));
  const report = await writeLoadResults({
    startedAt,
    seconds: (Date.now() - startedAt.getTime()) / 1000,
    options,
    engines,
  });
  console.log(report.markdown);
  log(`Written to ${report.files.join(', ')}`);
}
