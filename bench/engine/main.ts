/**
 * `npm run bench -- --engine [flags]`: runs the engine bench (run.ts), writes
 * bench/results/engine.md and the `engine` section of bench/results/latest.json (other sections
 * of that file are kept).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runEngineBench, type EngineBenchOptions, type EngineRunResult } from './run';
import { parseLatencyProfile } from '../../server/adplatform/simulator/latency';
import { mergeLatestSection } from '../latestJson';
import { flagValue } from '../args';
import { PUSH_USAGE, runPushSection } from './push/run';

export const ENGINE_USAGE = `  --engine               the rule engine at scale instead (bench/results/engine.md, latest.json):
    --accounts N           simulated ad accounts, one folder each (default 1000)
    --rules-per-account N  rules per folder, all due in the same slot (default 10)
    --account-quota N      simulator calls per ad account per 5 minutes (default 60)
    --engine-timeout N     give up on a slot after N seconds (default 600)
    --latency meta|off     the simulator answers at Graph's pace (default meta: reads p50 300 ms, ad insights
                           800 ms, writes 400 ms, docs/simulator.md) or at once (off)
    --no-pglite            PostgreSQL only (BENCH_DATABASE_URL / TEST_DATABASE_URL, else postgres://root@127.0.0.1:5432/postgres)
    --no-postgres          PGlite only
    --only slot|push       one section: the slot at scale, or pushed against polled (both by default)
${PUSH_USAGE}`;

function count(argv: string[], name: string, fallback: number): number {
  const index = argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(argv[index + 1]);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a whole number ≥ 1 (got ${argv[index + 1]})`);
  return value;
}

export function engineOptions(argv: string[], env: NodeJS.ProcessEnv): EngineBenchOptions {
  return {
    accounts: count(argv, 'accounts', 1000),
    rulesPerAccount: count(argv, 'rules-per-account', 10),
    campaignsPerAccount: 5,
    adsPerCampaign: 3,
    accountQuota: count(argv, 'account-quota', 60),
    postgresUrl: argv.includes('--no-postgres')
      ? undefined
      : env.BENCH_DATABASE_URL || env.TEST_DATABASE_URL || 'postgres://root@127.0.0.1:5432/postgres',
    skipPglite: argv.includes('--no-pglite'),
    timeoutSeconds: count(argv, 'engine-timeout', 600),
    latency: parseLatencyProfile(argv.includes('--latency') ? argv[argv.indexOf('--latency') + 1] : 'meta'),
  };
}

const GOAL = { seconds: 60, reads: 3 };

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

function renderEngineReport(results: EngineRunResult[], options: EngineBenchOptions, startedAt: Date): string {
  const cpus = os.cpus();
  const yes = (ok: boolean) => (ok ? 'yes' : '**no**');
  const row = (r: EngineRunResult) =>
    `| ${r.engine} (${r.workers} worker${r.workers > 1 ? 's' : ''}) | ${r.rules.toLocaleString('en-US')} / ${r.accounts.toLocaleString('en-US')} | ${r.runs_finished.toLocaleString('en-US')}${r.completed ? '' : ' (gave up)'} | ${r.seconds_to_last_action ?? '—'} | ${r.seconds_to_last_run ?? '—'} | ${r.max_reads_per_account_slot} | ${r.rate_limited_calls} | ${r.retried_calls} | ${r.usage_waits} (${r.usage_wait_seconds} s) | ${r.actions.toLocaleString('en-US')} | ${r.actions_per_second ?? '—'} | ${r.runs_failed} | ${yes(r.completed && (r.seconds_to_last_run ?? Infinity) <= GOAL.seconds && r.max_reads_per_account_slot <= GOAL.reads)} |`;
  const errors = results.flatMap((r) => r.errors.map((e) => `- ${r.engine}: ${e.split('\n')[0]}`));
  return [
    `# Engine bench — ${startedAt.toISOString()}`,
    '',
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, Node ${process.versions.node}. ${options.accounts} simulated ad accounts (${options.campaignsPerAccount} campaigns × ${options.adsPerCampaign} ads each), ${options.rulesPerAccount} rules per folder all due in one slot, a budget of ${options.accountQuota} calls per account per 5 minutes; the simulator's latency profile: ${options.latency}; load average ${loadAverage()} (1 / 5 / 15 min) at the end; blast-radius limits lifted (ENGINE_MAX_SHARE=1, ENGINE_MAX_ACTIONS=1,000,000). Goal: every run done within ${GOAL.seconds} s of the slot, at most ${GOAL.reads} Graph reads per account. How to read this: docs/bench.md.`,
    '',
    '| Engine | Rules / accounts | Runs done | s to last turn-off | s to last run | Max reads / account | Refused calls | Retried calls | Usage waits | Turn-offs | Turn-offs / s | Failed runs | Goal met |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...results.map(row),
    '',
    ...(errors.length ? ['Errors reported by the workers:', '', ...errors, ''] : []),
  ].join('\n');
}

/** The `engine` section of latest.json: this run's engines replace theirs, the others keep their last numbers. */
async function mergeLatestJson(file: string, results: EngineRunResult[], options: EngineBenchOptions): Promise<void> {
  const engine: Record<string, unknown> = {};
  for (const r of results) {
    engine[r.engine] = {
      latency_profile: options.latency,
      accounts: r.accounts,
      rules: r.rules,
      seconds_to_last_action: r.seconds_to_last_action,
      max_reads_per_account_slot: r.max_reads_per_account_slot,
      rate_limited_calls: r.rate_limited_calls,
      retried_calls: r.retried_calls,
      seconds_to_last_run: r.seconds_to_last_run,
      usage_waits: r.usage_waits,
      actions: r.actions,
      actions_per_second: r.actions_per_second,
      workers: r.workers,
      runs_finished: r.runs_finished,
      completed: r.completed,
    };
  }
  await mergeLatestSection(file, 'engine', engine);
}

export async function engineMain(argv: string[], env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<void> {
  const only = flagValue(argv, 'only');
  if (only !== undefined && only !== 'slot' && only !== 'push')
    throw new Error(`--only must be slot or push (got ${only})\n\n${ENGINE_USAGE}`);
  if (only !== 'push') await slotMain(argv, env, log);
  if (only !== 'slot') await runPushSection(argv, env, log);
}

/** The slot at scale: every rule of every folder due at once (run.ts). */
async function slotMain(argv: string[], env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<void> {
  const options = engineOptions(argv, env);
  const startedAt = new Date();
  const results = await runEngineBench(options, log);
  const report = renderEngineReport(results, options, startedAt);
  const directory = 'bench/results';
  await mkdir(directory, { recursive: true });
  await writeFile(path.join(directory, 'engine.md'), `${report}\n`);
  await mergeLatestJson(path.join(directory, 'latest.json'), results, options);
  console.log(report);
  log(`Written to ${path.join(directory, 'engine.md')} and latest.json`);
}
