/**
 * `npm run bench -- --engine`: the rule engine at scale. A Graph simulator with many ad accounts,
 * each under a per-account call budget; one folder per account with N rules, all due in the same
 * slot; real worker processes (two on PostgreSQL, one on PGlite). Measures the time from the scan
 * to the last turn-off, Graph reads per account, rate-limit waits and refusals, actions per second.
 * How to run it and read it: docs/bench.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startSimulator, type Simulator } from '../../server/adplatform/simulator/index';
import type { LatencyProfileName } from '../../server/adplatform/simulator/latency';
import type { BenchAccount } from './seed';
import type { SlotProgress } from './progress';

export interface EngineBenchOptions {
  accounts: number;
  rulesPerAccount: number;
  campaignsPerAccount: number;
  adsPerCampaign: number;
  /** Simulator calls per ad account per 5 minutes (100 % business use case usage). */
  accountQuota: number;
  /** PostgreSQL server to create the bench database on; none → PGlite only. */
  postgresUrl: string | undefined;
  skipPglite: boolean;
  /** Give up waiting for the slot after this many seconds. */
  timeoutSeconds: number;
  /** How long the simulator takes to answer: Graph's pace ('meta', the default) or at once ('off'). */
  latency: LatencyProfileName;
}

interface ClientCounts {
  usageWaits: number;
  usageWaitMs: number;
  refusedRetries: number;
  otherRetries: number;
  calls: number;
}

export interface EngineRunResult {
  engine: 'postgres' | 'pglite';
  workers: number;
  accounts: number;
  rules: number;
  seconds_to_last_action: number | null;
  seconds_to_last_run: number | null;
  max_reads_per_account_slot: number;
  reads_total: number;
  writes_total: number;
  rate_limited_calls: number;
  /** Calls the client sent again after a timeout, a 5xx or a refusal (each a read or write more). */
  retried_calls: number;
  usage_waits: number;
  usage_wait_seconds: number;
  actions: number;
  actions_per_second: number | null;
  runs_finished: number;
  runs_failed: number;
  snapshots: number;
  completed: boolean;
  errors: string[];
}

const WORKER = path.join(import.meta.dirname, 'worker.ts');

class WorkerProcess {
  readonly child: ChildProcess;
  private readonly waiting: ((line: Record<string, unknown>) => boolean)[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<number | null>;

  constructor(env: Record<string, string>) {
    this.child = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_WORKER_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_WORKER_PROFILE] : []),
        '--import',
        'tsx',
        WORKER,
      ],
      {
        env: { ...process.env, ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let buffer = '';
    this.child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      for (const text of parts) {
        if (!text.trim()) continue;
        let line: Record<string, unknown>;
        try {
          line = JSON.parse(text) as Record<string, unknown>;
        } catch {
          this.stderr.push(text);
          continue;
        }
        if (line.error) this.stderr.push(String(line.error));
        const index = this.waiting.findIndex((accept) => accept(line));
        if (index >= 0) this.waiting.splice(index, 1);
      }
    });
    this.child.stderr!.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  /** The next line with `key`, or an error when the process exits first. */
  next<T>(key: string, timeoutMs = 300_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker: no "${key}" in ${timeoutMs / 1000} s`)), timeoutMs);
      this.waiting.push((line) => {
        if (!(key in line)) return false;
        clearTimeout(timer);
        resolve(line as T);
        return true;
      });
      this.exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`worker exited (${code}): ${this.stderr.join('').slice(-2000)}`));
      });
    });
  }

  send(command: string): void {
    this.child.stdin!.write(`${command}\n`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.send('stop');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.exited;
    clearTimeout(timer);
  }
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/** The UTC hour that has begun: rules are due in it, and it is not yet late (less than an hour ago). */
const currentSlot = (now = Date.now()) => new Date(Math.floor(now / 3_600_000) * 3_600_000);

async function runOnce(
  kind: 'postgres' | 'pglite',
  options: EngineBenchOptions,
  log: (line: string) => void,
): Promise<EngineRunResult> {
  const slot = currentSlot();
  const simulator: Simulator = await startSimulator({
    seed: 1,
    accounts: options.accounts,
    campaignsPerAccount: options.campaignsPerAccount,
    adsPerCampaign: options.adsPerCampaign,
    scenarios: [],
    latency: options.latency,
    accountQuota: options.accountQuota,
    // Marketing API calls count against each ad account's business use case budget, not the app-level
    // platform limit (x-app-usage), which would otherwise throttle every account at once.
    appQuota: options.accounts * options.accountQuota * 10,
  });
  const directory = await mkdtemp(path.join(os.tmpdir(), 'engine-bench-'));
  const seedFile = path.join(directory, 'seed.json');
  const accounts: BenchAccount[] = simulator.world.accounts.map((a) => ({
    adAccountId: `act_${a.accountId}`,
    name: a.name,
  }));
  await writeFile(seedFile, JSON.stringify({ accounts, rulesPerAccount: options.rulesPerAccount }));

  const database = `ad_rules_engine_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let databaseUrl = '';
  if (kind === 'postgres') {
    await adminQuery(options.postgresUrl!, `create database "${database}"`);
    const url = new URL(options.postgresUrl!);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }
  const baseEnv = { KIND: kind, DATABASE_URL: databaseUrl, GRAPH_URL: simulator.url, SLOT: slot.toISOString() };
  const workers: WorkerProcess[] = [];
  try {
    log(`${kind}: ${options.accounts} accounts in the simulator; migrating and seeding…`);
    const seeding = Date.now();
    const first = new WorkerProcess({ ...baseEnv, SEED_FILE: seedFile });
    workers.push(first);
    const seeded = await first.next<{ seeded: { rules: number } }>('seeded');
    await first.next('ready');
    if (kind === 'postgres') {
      const second = new WorkerProcess(baseEnv);
      workers.push(second);
      await second.next('ready');
    }
    log(`${kind}: ${seeded.seeded.rules} rules seeded in ${((Date.now() - seeding) / 1000).toFixed(1)} s; scanning`);

    // The slot begins: every worker scans, as each does at the quarter hour.
    const began = Date.now();
    for (const worker of workers) worker.send('scan');
    void first
      .next<{ scanned: number; seconds: number }>('scanned')
      .then((s) => log(`${kind}: the scan found ${s.scanned} due and enqueued them in ${s.seconds} s`))
      .catch(() => undefined);
    let progress: SlotProgress;
    let lastLogged = 0;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      first.send('stats');
      progress = (await first.next<{ stats: SlotProgress }>('stats')).stats;
      const elapsed = (Date.now() - began) / 1000;
      if (elapsed - lastLogged >= 10) {
        lastLogged = elapsed;
        log(
          `${kind}: ${progress.finished}/${seeded.seeded.rules} runs, ${progress.actions} turn-offs after ${Math.round(elapsed)} s`,
        );
      }
      if (progress.finished >= seeded.seeded.rules) break;
      if (elapsed > options.timeoutSeconds) {
        log(`${kind}: gave up after ${options.timeoutSeconds} s`);
        break;
      }
    }
    const clients: ClientCounts[] = [];
    const errors: string[] = [];
    for (const worker of workers) {
      worker.send('stats');
      const answer = await worker.next<{ client: ClientCounts; errors: string[] }>('client');
      clients.push(answer.client);
      errors.push(...answer.errors);
    }
    const counts = [...simulator.accountCalls.values()];
    const sum = (pick: (c: ClientCounts) => number) => clients.reduce((total, c) => total + pick(c), 0);
    const seconds = (at: number | null) => (at === null ? null : Math.max(0, (at - began) / 1000));
    const toLastAction = seconds(progress.lastActionAt);
    return {
      engine: kind,
      workers: workers.length,
      accounts: options.accounts,
      rules: seeded.seeded.rules,
      seconds_to_last_action: toLastAction === null ? null : Number(toLastAction.toFixed(1)),
      seconds_to_last_run:
        progress.lastFinishedAt === null ? null : Number(seconds(progress.lastFinishedAt)!.toFixed(1)),
      max_reads_per_account_slot: Math.max(0, ...counts.map((c) => c.reads)),
      reads_total: counts.reduce((t, c) => t + c.reads, 0),
      writes_total: counts.reduce((t, c) => t + c.writes, 0),
      rate_limited_calls: counts.reduce((t, c) => t + c.refused, 0),
      retried_calls: sum((c) => c.refusedRetries + c.otherRetries),
      usage_waits: sum((c) => c.usageWaits),
      usage_wait_seconds: Number((sum((c) => c.usageWaitMs) / 1000).toFixed(1)),
      actions: progress.actions,
      actions_per_second: toLastAction ? Number((progress.actions / toLastAction).toFixed(1)) : null,
      runs_finished: progress.finished,
      runs_failed: progress.failed,
      snapshots: progress.snapshots,
      completed: progress.finished >= seeded.seeded.rules,
      errors: [...new Set([...errors, ...workers.flatMap((w) => w.stderr)])].slice(0, 10),
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await simulator.close();
    await rm(directory, { recursive: true, force: true });
    if (kind === 'postgres')
      await adminQuery(options.postgresUrl!, `drop database if exists "${database}" with (force)`).catch(
        () => undefined,
      );
  }
}

export async function runEngineBench(
  options: EngineBenchOptions,
  log: (line: string) => void,
): Promise<EngineRunResult[]> {
  const results: EngineRunResult[] = [];
  if (options.postgresUrl) results.push(await runOnce('postgres', options, log));
  if (!options.skipPglite) results.push(await runOnce('pglite', options, log));
  return results;
}
