/**
 * `npm run bench -- --sync`: a full campaign and metrics sync (every ad account, then each one's
 * campaigns and lifetime campaign insights) of many ad accounts against the Graph simulator at
 * Graph's pace (its `meta` latency profile) and with each account's call budget, on a fresh
 * PostgreSQL database and on PGlite. Writes bench/results/sync.md and the "sync" section of
 * latest.json. How to read it: docs/bench.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GraphClient } from '../server/adplatform/graphClient';
import { DEFAULT_META_API_VERSION } from '../server/adplatform/versions';
import { startSimulator } from '../server/adplatform/simulator/index';
import { parseLatencyProfile, type LatencyProfileName } from '../server/adplatform/simulator/latency';
import { CampaignSync } from '../server/campaigns/sync';
import { openPglite, openPostgres, type DbHandle } from '../server/db/client';
import { mergeLatestSection } from './latestJson';
import { adminQuery } from './load/run';

export const SYNC_USAGE = `npm run bench -- --sync [flags]
  --accounts N        simulated ad accounts (default 1000, 5 campaigns each)
  --account-quota N   simulator calls per ad account per 5 minutes (default 60)
  --latency meta|off  Graph's pace (default meta) or at once
  --no-postgres, --no-pglite   skip a database
  BENCH_DATABASE_URL (else TEST_DATABASE_URL, else postgres://root@127.0.0.1:5432/postgres): where the
  bench creates ad_rules_sync_bench_<run> (dropped afterwards).`;

const GOAL_SECONDS = 300;

interface SyncRun {
  engine: 'postgres' | 'pglite';
  accounts: number;
  campaigns: number;
  seconds: number;
  calls: number;
  refused: number;
  max_calls_per_account: number;
  failures: number;
  latency_profile: LatencyProfileName;
}

function flag(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function database(engine: 'postgres' | 'pglite', serverUrl: string) {
  if (engine === 'pglite') {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ad-rules-sync-bench-'));
    return {
      dbh: await openPglite(path.join(dir, 'pgdata')),
      dispose: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const name = `ad_rules_sync_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await adminQuery(serverUrl, `create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    dbh: (await openPostgres(url.toString(), 10)) as DbHandle,
    dispose: () => adminQuery(serverUrl, `drop database if exists "${name}" with (force)`),
  };
}

async function runOnce(
  engine: 'postgres' | 'pglite',
  options: { accounts: number; accountQuota: number; latency: LatencyProfileName; serverUrl: string },
  log: (line: string) => void,
): Promise<SyncRun> {
  const simulator = await startSimulator({
    seed: 1,
    accounts: options.accounts,
    campaignsPerAccount: 5,
    adsPerCampaign: 3,
    scenarios: [],
    latency: options.latency,
    accountQuota: options.accountQuota,
    appQuota: options.accounts * options.accountQuota * 10,
  });
  const { dbh, dispose } = await database(engine, options.serverUrl);
  try {
    await dbh.migrate();
    const graph = new GraphClient({
      baseUrl: simulator.url,
      apiVersion: DEFAULT_META_API_VERSION,
      accessToken: 'simulator-token',
    });
    const sync = new CampaignSync(dbh.db, graph);
    log(`${engine}: syncing ${options.accounts} ad accounts (latency ${options.latency})…`);
    const started = performance.now();
    const report = await sync.syncAll();
    const seconds = (performance.now() - started) / 1000;
    const counts = [...simulator.accountCalls.values()];
    const run: SyncRun = {
      engine,
      accounts: report.accounts,
      campaigns: report.campaigns,
      seconds: Number(seconds.toFixed(1)),
      calls: graph.calls,
      refused: counts.reduce((t, c) => t + c.refused, 0),
      max_calls_per_account: Math.max(0, ...counts.map((c) => c.reads + c.writes)),
      failures: report.failures.length,
      latency_profile: options.latency,
    };
    log(
      `  ${run.accounts} accounts, ${run.campaigns} campaigns in ${run.seconds} s, ${run.calls} calls, ${run.refused} refused, ${run.failures} failed accounts`,
    );
    return run;
  } finally {
    await dbh.close();
    await dispose();
    await simulator.close();
  }
}

export async function runSyncBench(argv: string[], log: (line: string) => void): Promise<void> {
  if (argv.includes('--help')) return void console.log(SYNC_USAGE);
  const accounts = Number(flag(argv, 'accounts') ?? 1000);
  const accountQuota = Number(flag(argv, 'account-quota') ?? 60);
  const latency = parseLatencyProfile(flag(argv, 'latency') ?? 'meta');
  const serverUrl =
    process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://root@127.0.0.1:5432/postgres';
  const engines = (['postgres', 'pglite'] as const).filter((e) => !argv.includes(`--no-${e}`));
  const runs: SyncRun[] = [];
  for (const engine of engines) runs.push(await runOnce(engine, { accounts, accountQuota, latency, serverUrl }, log));
  const markdown = [
    `# Campaign sync at Graph's pace — ${new Date().toISOString()}`,
    '',
    `${accounts} simulated ad accounts (5 campaigns each), the simulator's latency profile ${latency}, a budget of ` +
      `${accountQuota} calls per account per 5 minutes; load average ${os.loadavg()[0]!.toFixed(1)} at the end. ` +
      `Goal: the whole sync within ${GOAL_SECONDS} s, no refused call. How to read it: docs/bench.md.`,
    '',
    '| Database | Accounts | Campaigns | Seconds | Calls | Most calls for one account | Refused | Failed accounts | Goal met |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...runs.map(
      (r) =>
        `| ${r.engine} | ${r.accounts} | ${r.campaigns} | ${r.seconds} | ${r.calls} | ${r.max_calls_per_account} | ${r.refused} | ${r.failures} | ${r.seconds <= GOAL_SECONDS && r.refused === 0 && r.failures === 0 ? 'yes' : '**no**'} |`,
    ),
    '',
  ].join('\n');
  await mkdir('bench/results', { recursive: true });
  await writeFile(path.join('bench/results', 'sync.md'), markdown);
  await mergeLatestSection(
    path.join('bench/results', 'latest.json'),
    'sync',
    Object.fromEntries(runs.map(({ engine, ...r }) => [engine, r])),
  );
  console.log(markdown);
}
