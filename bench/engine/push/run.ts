/**
 * `npm run bench -- --engine` (its push section; `--only push` alone): the same simulated hours of
 * the same agency run both ways on each database — polled every hour, and pushed (Meta's signed
 * webhooks to the product's receiver, the schedule a daily floor) — then compared: how late each
 * pushed decision came after it became due (p95, goal ≤ 300 s), Graph's insights calls per idle
 * account and hour both ways (goal: push ≤ 0.2 × polling), and the decisions that differ (goal 0).
 * Writes `engine.push.{postgres,pglite}` in bench/results/latest.json and bench/results/engine-push.md;
 * docs/bench.md says how to read them.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { counter } from '../../args';
import { pgliteFactory, postgresFactory, type DatabaseFactory } from '../../databases';
import { mergeLatestSection } from '../../latestJson';
import { driveMode, type Mode, type PushBenchOptions } from './drive';
import { percentile, tallyMode, type ModeTally } from './tally';

export const PUSH_USAGE = `    push section (--only push):
    --push-accounts N      simulated ad accounts, half idle (default 40)
    --push-hours N         simulated hours, run polled and pushed (default 36)
    --push-step N          simulated seconds the clock moves at a time under push (default 60)`;

export const PUSH_GOALS = { p95Seconds: 300, insightsShare: 0.2, differing: 0 };

export function pushOptions(argv: string[]): PushBenchOptions {
  const count = counter(argv, PUSH_USAGE);
  return {
    accounts: count('push-accounts', 40, 2),
    campaignsPerAccount: 4,
    adsPerCampaign: 3,
    hours: count('push-hours', 36, 2),
    stepSeconds: count('push-step', 60, 1),
    seed: 23,
  };
}

export interface PushResult {
  engine: string;
  polling: ModeTally;
  push: ModeTally;
  differing: string[];
  seconds: { polling: number; push: number };
}

async function runOn(factory: DatabaseFactory, options: PushBenchOptions, log: (line: string) => void) {
  const tallies = {} as Record<Mode, ModeTally>;
  const seconds = {} as Record<Mode, number>;
  for (const mode of ['polling', 'push'] as const) {
    log(`${factory.engine}: ${mode}, ${options.hours} simulated hours…`);
    const database = await factory.fresh(`push_${mode}`);
    try {
      const run = await driveMode(database, mode, options, (line) => log(`${factory.engine}${line}`));
      try {
        tallies[mode] = await tallyMode(database.handle.db, run, options);
        seconds[mode] = run.seconds;
      } finally {
        await run.sim.close();
      }
    } finally {
      await database.close();
    }
  }
  const keys = (t: ModeTally) => new Set(t.decisions.map((d) => d.key));
  const [polled, pushed] = [keys(tallies.polling), keys(tallies.push)];
  const differing = [...new Set([...polled, ...pushed])].filter((k) => polled.has(k) !== pushed.has(k)).sort();
  return { engine: factory.engine, polling: tallies.polling, push: tallies.push, differing, seconds };
}

function sectionOf(r: PushResult, options: PushBenchOptions) {
  const p95 = percentile(r.push.lateness, 95);
  const ratio = r.polling.insightsPerIdleAccountHour
    ? r.push.insightsPerIdleAccountHour / r.polling.insightsPerIdleAccountHour
    : null;
  const seconds = (n: number | null) => (n === null ? null : Number(n.toFixed(1)));
  return {
    p95_seconds: seconds(p95),
    median_seconds: seconds(percentile(r.push.lateness, 50)),
    processing_seconds_p95: seconds((percentile(r.push.processingMs, 95) ?? 0) / 1000),
    insights_calls_per_idle_account_hour: r.push.insightsPerIdleAccountHour,
    polling_insights_calls_per_idle_account_hour: r.polling.insightsPerIdleAccountHour,
    insights_calls_per_account_hour: r.push.insightsPerAccountHour,
    polling_insights_calls_per_account_hour: r.polling.insightsPerAccountHour,
    decisions: r.push.decisions.length,
    polling_decisions: r.polling.decisions.length,
    decisions_differ_from_polling: r.differing.length,
    decisions_by_trigger: Object.fromEntries(
      [...new Set(r.push.decisions.map((d) => d.trigger))].map((t) => [
        t,
        r.push.decisions.filter((d) => d.trigger === t).length,
      ]),
    ),
    runs_by_trigger: r.push.runsByTrigger,
    polling_runs: Object.values(r.polling.runsByTrigger).reduce((a, b) => a + b, 0),
    skipped_hours: r.push.skippedHours,
    notifications: r.push.notifications,
    reads_total: r.push.readsTotal,
    polling_reads_total: r.polling.readsTotal,
    goals_met: {
      p95_seconds: p95 !== null && p95 <= PUSH_GOALS.p95Seconds,
      insights: ratio !== null && ratio <= PUSH_GOALS.insightsShare,
      decisions: r.differing.length === PUSH_GOALS.differing,
    },
    wall_seconds: r.seconds,
    setup: {
      accounts: options.accounts,
      idle_accounts: Math.floor(options.accounts / 2),
      campaigns_per_account: options.campaignsPerAccount,
      ads_per_campaign: options.adsPerCampaign,
      hours: options.hours,
      step_seconds: options.stepSeconds,
      seed: options.seed,
      latency_profile: 'off',
    },
  };
}

function render(results: PushResult[], options: PushBenchOptions, startedAt: Date): string {
  const cpus = os.cpus();
  const yes = (ok: boolean) => (ok ? 'yes' : '**no**');
  const rows = results.map((r) => {
    const s = sectionOf(r, options);
    return `| ${r.engine} | ${s.p95_seconds ?? '—'} (median ${s.median_seconds ?? '—'}) | ${s.insights_calls_per_idle_account_hour} | ${s.polling_insights_calls_per_idle_account_hour} | ${s.decisions} / ${s.polling_decisions} | ${s.decisions_differ_from_polling} | ${JSON.stringify(s.decisions_by_trigger)} | ${s.skipped_hours} | ${s.wall_seconds.polling} / ${s.wall_seconds.push} | ${yes(s.goals_met.p95_seconds && s.goals_met.insights && s.goals_met.decisions)} |`;
  });
  const differing = results.flatMap((r) => r.differing.slice(0, 10).map((k) => `- ${r.engine}: ${k}`));
  return [
    `# Push bench — ${startedAt.toISOString()}`,
    '',
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, Node ${process.versions.node}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' / ',
      )} at the end. ${options.accounts} ad accounts (half idle) × ${options.campaignsPerAccount} campaigns × ${options.adsPerCampaign} ads, one rule each (spend over $40 with no lead, CPL over $60; 24 h / 1,000 impressions maturity), ${options.hours} simulated hours run polled (hourly) and pushed (clock steps of ${options.stepSeconds} s). Goals: p95 ≤ ${PUSH_GOALS.p95Seconds} s from due to decision, push insights calls per idle account-hour ≤ ${PUSH_GOALS.insightsShare} × polling, no decision differing. How to read this: docs/bench.md.`,
    '',
    '| Engine | p95 s due → decision | Insights / idle account-hour, push | … polling | Decisions push / polling | Differ | Push decisions by trigger | Hours skipped | Wall s polling / push | Goals met |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...(differing.length ? ['Decisions made one way only:', '', ...differing, ''] : []),
  ].join('\n');
}

/** The push section: both databases (PostgreSQL unless --no-postgres, PGlite unless --no-pglite), one after the other. */
export async function runPushSection(
  argv: string[],
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<void> {
  const options = pushOptions(argv);
  const startedAt = new Date();
  const factories: DatabaseFactory[] = [];
  if (!argv.includes('--no-postgres'))
    factories.push(
      await postgresFactory(
        env.BENCH_DATABASE_URL || env.TEST_DATABASE_URL || 'postgres://root@127.0.0.1:5432/postgres',
      ),
    );
  if (!argv.includes('--no-pglite')) factories.push(await pgliteFactory());
  const results: PushResult[] = [];
  try {
    for (const factory of factories) results.push(await runOn(factory, options, log));
  } finally {
    for (const factory of factories) await factory.dispose();
  }
  const file = 'bench/results/latest.json';
  const existing = await readFile(file, 'utf8').then(
    (text) =>
      ((JSON.parse(text) as { engine?: { push?: Record<string, unknown> } }).engine?.push ?? {}) as Record<
        string,
        unknown
      >,
    () => ({}) as Record<string, unknown>,
  );
  const push = { ...existing, ...Object.fromEntries(results.map((r) => [r.engine, sectionOf(r, options)])) };
  await mergeLatestSection(file, 'engine', { push });
  await mkdir('bench/results', { recursive: true });
  const report = render(results, options, startedAt);
  await writeFile('bench/results/engine-push.md', `${report}\n`);
  console.log(report);
  log('bench/results/latest.json "engine.push" and bench/results/engine-push.md written');
}
