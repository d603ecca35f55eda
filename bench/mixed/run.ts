/**
 * `npm run bench -- --mixed`: a team's mixed traffic on the product at full size, per engine —
 * browsing users on every list with varied parameters, writers changing things once a second,
 * sessions renewed — then the same statements replayed straight on the database as the floor.
 * Writes bench/results/mixed-latest.md (and <timestamp>-mixed.md) and the "mixed" section of
 * latest.json. How to run and read it: docs/bench.md.
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type DbHandle } from '../../server/db/client';
import { existingRows } from '../seed';
import { pgliteReplayer, type Statement } from '../load/floor';
import { adminQuery, adoptSeeded, adoptSeededPostgres, runSeed } from '../load/run';
import { startServer } from '../load/server';
import { driveMixed, familyStats } from './drive';
import { MIXED_USAGE, parseMixedOptions, type MixedEngine, type MixedOptions } from './options';
import { captureReader, replayOnPglite, replayOnPostgres, type RawReplayResult } from './replay';
import { writeMixedResults, type MixedOutcome } from './report';
import { addStaff, completeRule, sessionRenewer, signInAll, teamWriters } from './team';
import { FAMILIES, trafficFacts, trafficGenerator, type Family } from './traffic';

const began = performance.now();
const log = (line: string) =>
  console.error(`[${String(Math.round((performance.now() - began) / 1000)).padStart(4)} s] ${line}`);
const FRESH = { 'cache-control': 'no-cache' };

/** The route each family reads, as the page cache's metric labels it. */
export const FAMILY_ROUTES: Record<Family, string> = {
  general_page: '/api/general_page/',
  trash_page: '/api/trash_page/',
  log: '/api/log/',
  activity: '/api/rule_log/',
  campaigns: '/api/campaigns/',
  team: '/api/user/',
};

interface RunDatabase {
  databaseUrl: string | undefined;
  dataDir: string;
  open(): Promise<DbHandle>;
  replay(reads: Statement[][], writes: Statement[][], options: MixedOptions): Promise<RawReplayResult>;
  dispose(): Promise<void>;
}

/**
 * A copy of the seeded data for this run (the writers change it): on PostgreSQL a database
 * created from the seeded one as its template, on PGlite a copy of the seeded data directory.
 * Without a seeded one, `npm run seed` fills a fresh one.
 */
async function prepare(
  engine: MixedEngine,
  options: MixedOptions,
  admin: { adminEmail: string; adminPassword: string },
): Promise<RunDatabase> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `ad-rules-mixed-${engine}-`));
  if (engine === 'pglite') {
    const pgdata = path.join(dataDir, 'pgdata');
    if (options.seededDataDir) {
      log(`pglite: copying ${options.seededDataDir}…`);
      await cp(path.join(options.seededDataDir, 'pgdata'), pgdata, { recursive: true });
      const copy = await openPglite(pgdata);
      try {
        await adoptSeeded(copy, admin, options.seededDataDir);
      } finally {
        await copy.close();
      }
    } else {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
      delete env.DATABASE_URL;
      await runSeed(options, env);
    }
    return {
      databaseUrl: undefined,
      dataDir,
      open: () => openPglite(pgdata),
      async replay(reads, writes) {
        const replayer = await pgliteReplayer(pgdata);
        try {
          return await replayOnPglite((list) => replayer.run(list), reads, writes, {
            writers: options.writers,
            seconds: options.duration,
          });
        } finally {
          await replayer.close();
        }
      },
      dispose: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `ad_rules_mixed_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  if (options.seededPostgresUrl) {
    log(`postgres: migrating ${new URL(options.seededPostgresUrl).pathname.slice(1)} and copying it…`);
    await adoptSeededPostgres(options.seededPostgresUrl, admin);
    const template = new URL(options.seededPostgresUrl).pathname.slice(1);
    await adminQuery(options.postgresUrl, `create database "${name}" template "${template}"`);
  } else {
    await adminQuery(options.postgresUrl, `create database "${name}"`);
  }
  const url = new URL(options.postgresUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  if (!options.seededPostgresUrl)
    await runSeed(options, { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
  return {
    databaseUrl,
    dataDir,
    open: () => openPostgres(databaseUrl, 2),
    replay: (reads, writes) =>
      replayOnPostgres(databaseUrl, reads, writes, {
        connections: options.users,
        writers: options.writers,
        seconds: options.duration,
      }),
    dispose: async () => {
      await adminQuery(options.postgresUrl, `drop database if exists "${name}" with (force)`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** `adrules_list_page_answers_total` per route and source, from the server's /metrics. */
async function pageAnswers(base: string, token: string): Promise<Map<string, { kept: number; all: number }>> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const byRoute = new Map<string, { kept: number; all: number }>();
  for (const match of text.matchAll(/^adrules_list_page_answers_total\{([^}]*)\} (\d+)/gm)) {
    const labels = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const entry = byRoute.get(labels.route ?? '') ?? { kept: 0, all: 0 };
    entry.all += Number(match[2]);
    if (labels.source === 'kept') entry.kept += Number(match[2]);
    byRoute.set(labels.route ?? '', entry);
  }
  return byRoute;
}

async function runEngine(engine: MixedEngine, options: MixedOptions): Promise<MixedOutcome> {
  const loadBefore = os.loadavg()[0]!;
  const password = randomBytes(12).toString('hex');
  const admin = { adminEmail: 'mixed-bench-admin@example.com', adminPassword: password };
  const db = await prepare(engine, options, admin);
  try {
    const dbh = await db.open();
    let facts: Awaited<ReturnType<typeof trafficFacts>>;
    let rows: Awaited<ReturnType<typeof existingRows>>;
    try {
      await dbh.migrate();
      await addStaff(dbh, options.users, password);
      facts = await trafficFacts(dbh);
      await completeRule(dbh, facts.activeRuleId);
      rows = await existingRows(dbh);
    } finally {
      await dbh.close();
    }
    const sequence = trafficGenerator(facts)(options.sequence);
    const metricsToken = randomBytes(12).toString('hex');
    const server = {
      dataDir: db.dataDir,
      databaseUrl: db.databaseUrl,
      logLevel: options.logLevel,
      ...admin,
      // Fifty colleagues sign in from the bench's one address within seconds.
      env: { LOGIN_RATE_LIMIT: '100000', METRICS_TOKEN: metricsToken },
    };

    // 1. The statements of the first requests of the sequence and of each kind of write.
    log(`${engine}: capturing the SQL of ${options.captured} requests and of the writes…`);
    const captureFile = path.join(db.dataDir, 'statements.jsonl');
    const capturing = await startServer({ ...server, logFile: path.join(db.dataDir, 'capture.log'), captureFile });
    const reads: Statement[][] = [];
    const writes: Statement[][] = [];
    try {
      const takeCaptured = captureReader(captureFile);
      await takeCaptured(); // the sign-in's own
      for (const request of sequence.slice(0, options.captured)) {
        const answer = await fetch(capturing.base + request.path, {
          headers: { authorization: `Bearer ${capturing.token}`, ...FRESH },
        });
        await answer.arrayBuffer();
        if (answer.status !== 200) throw new Error(`GET ${request.path} answered ${answer.status}`);
        reads.push(await takeCaptured());
      }
      const writers = teamWriters(capturing.base, capturing.token, facts);
      for (let step = 0; step < 2; step += 1)
        for (const writer of writers) {
          const status = await writer.change();
          if (status !== 200) throw new Error(`${writer.name} answered ${status}`);
          writes.push(await takeCaptured());
        }
    } finally {
      await capturing.stop();
    }

    // 2. The product under the team's traffic.
    const running = await startServer({ ...server, logFile: path.join(db.dataDir, 'server.log') });
    let outcome: Omit<MixedOutcome, 'raw' | 'rows' | 'loadAverage'>;
    try {
      log(`${engine}: signing in ${options.users} users…`);
      const sessions = await signInAll(running.base, options.users, password);
      const writers = teamWriters(running.base, running.token, facts);
      const renew = sessionRenewer(running.base, sessions);
      const drive = (seconds: number, fromRequest: number) =>
        driveMixed({
          base: running.base,
          tokens: sessions.map((s) => s.access),
          sequence,
          writers,
          refresh: renew,
          seconds,
          timeoutSeconds: options.timeout,
          fromRequest,
        });
      log(`${engine}: warming up for ${options.warmup} s…`);
      // The measured seconds go on where the warm-up stopped: asking its pages again would find them kept.
      const warmedUp = await drive(options.warmup, 0);
      const before = await pageAnswers(running.base, metricsToken);
      log(`${engine}: ${options.users} users + ${options.writers} writers for ${options.duration} s…`);
      const result = await drive(options.duration, warmedUp.nextRequest);
      const after = await pageAnswers(running.base, metricsToken);
      const families = Object.fromEntries(
        FAMILIES.map((family) => {
          const route = FAMILY_ROUTES[family];
          const kept = (after.get(route)?.kept ?? 0) - (before.get(route)?.kept ?? 0);
          const all = (after.get(route)?.all ?? 0) - (before.get(route)?.all ?? 0);
          const stats = familyStats(
            result.families.get(family) ?? { times: [], errors: 0, statuses: {} },
            result.seconds,
          );
          log(
            `  ${family}: ${stats.rps} req/s, p50 ${stats.p50_ms} p95 ${stats.p95_ms} p99 ${stats.p99_ms} ms, ${stats.errors} errors, ${all ? Math.round((100 * kept) / all) : 0} % from memory`,
          );
          return [family, { ...stats, from_memory: all ? kept / all : 0 }];
        }),
      );
      const writes = familyStats(result.writes, result.seconds);
      const refreshes = familyStats(result.refreshes, result.seconds);
      log(`  writes: p50 ${writes.p50_ms} p95 ${writes.p95_ms} p99 ${writes.p99_ms} ms, ${writes.errors} errors`);
      outcome = {
        engine,
        rps: result.totalRequests / result.seconds,
        timeouts: result.timeouts,
        families,
        writes,
        refreshes,
        statuses: Object.fromEntries([...result.families].map(([f, l]) => [f, l.statuses])),
      };
    } finally {
      await running.stop();
    }

    // 3. The floor: the same statements straight on the database.
    log(`${engine}: replaying the statements straight on the database for ${options.duration} s…`);
    const raw = await db.replay(reads, writes, options);
    log(`  raw SQL: ${raw.rps.toFixed(0)} requests/s (${raw.writes} writes)`);
    return { ...outcome, raw, rows, loadAverage: { before: loadBefore, after: os.loadavg()[0]! } };
  } finally {
    await db.dispose().catch((error: Error) => log(`could not clean up: ${error.message}`));
  }
}

export async function runMixedBench(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(MIXED_USAGE);
    return;
  }
  const options = parseMixedOptions(argv, process.env);
  const startedAt = new Date();
  const outcomes: MixedOutcome[] = [];
  for (const engine of options.engines) outcomes.push(await runEngine(engine, options));
  const report = await writeMixedResults({ startedAt, options, outcomes });
  console.log(report.markdown);
  log(`Written to ${report.files.join(', ')}`);
}
