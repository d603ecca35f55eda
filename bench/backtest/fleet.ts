/**
 * The fleet's preview bench (`npm run bench -- --backtest`): `accounts` ad accounts (one folder and
 * one saved rule each, 4 to 20 ads an account) with `days + 3` days of hourly history, and an edit
 * that changes every folder's rule — old and new thresholds, every hour — previewed over `days`
 * (server/backtest/fleet.ts). Each repetition previews a fresh edit (other thresholds than the last:
 * nothing of an earlier preview can serve it); `seconds` is the median, `runs` every one, the first
 * being the process's first preview. Answers latest.json's `backtest.fleet.<engine>`.
 */
import { loadavg } from 'node:os';
import { previewFleet, type FleetRule } from '../../server/backtest/fleet';
import type { BenchDatabase, Engine } from '../databases';
import { seedFleetHistory } from './fleetHistory';

/** As the single rule's bench: no run held for the blast-radius limit, so every turn-off is replayed and counted. */
const NO_LIMIT = { maxShare: 1, maxActions: 100_000 };

const everyHour = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => true));

const ruleWith = (spend: number, cpl: number): FleetRule => ({
  name: 'Fleet rule',
  rule_filter: [
    { name: 'campaign_name_contains', values: ['EDM'], is_active: true },
    { name: 'campaign_name_not_contains', values: [], is_active: false },
  ],
  rule_task: [
    { name: 'spend_cpl_no_leads', values: { spend: String(spend) }, is_active: true },
    { name: 'trigger_cpl', values: { cpl: String(cpl) }, is_active: true },
  ],
  rule_schedule: { schedule: everyHour, timezone: 'UTC' },
});

export interface FleetBenchOptions {
  accounts: number;
  days: number;
  repeats: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function fleetRun(
  engine: Engine,
  database: BenchDatabase,
  options: FleetBenchOptions,
  log: (line: string) => void,
): Promise<Record<string, unknown>> {
  const { db } = database.handle;
  const now = new Date();
  log(`${engine}: writing ${options.accounts} ad accounts × ${options.days + 3} days of hourly history…`);
  const seedStarted = performance.now();
  const seeded = await seedFleetHistory(db, options.accounts, options.days, now, everyHour, (done) =>
    log(`  ${done} accounts written`),
  );
  // The history as a preview finds it, written long before: vacuumed and analysed.
  await database.handle.sql.exec('vacuum analyze ad_metric_history');
  log(
    `${engine}: ${seeded.ads} ads, ${seeded.adDays} ad-days in ${Math.round((performance.now() - seedStarted) / 1000)} s`,
  );
  const runs: { seconds: number; cpuSeconds: number; statements: number; load: number }[] = [];
  let last: Awaited<ReturnType<typeof previewFleet>> | null = null;
  for (let repeat = 0; repeat < options.repeats; repeat += 1) {
    // A fresh edit each time: the old values and the new ones move by a dollar a repetition.
    const [before, after] = [ruleWith(40 + repeat, 60 + repeat), ruleWith(30 + repeat, 45 + repeat)];
    const changes = seeded.folders.map((f) => ({ folderId: f.folderId, ruleId: f.ruleId, before, after }));
    const load = round2(loadavg()[0]!);
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const statements = await database.recorder.capture(async () => {
      last = await previewFleet(db, changes, { now, days: options.days, limits: NO_LIMIT });
    });
    const seconds = round2((performance.now() - started) / 1000);
    const cpu = process.cpuUsage(cpuBefore);
    const cpuSeconds = round2((cpu.user + cpu.system) / 1e6);
    runs.push({ seconds, cpuSeconds, statements: statements.length, load });
    const totals = last!.totals;
    log(
      `${engine}: preview ${repeat + 1}: ${totals.folders} folders, ${totals.rules} rules, paused ${totals.before.paused} → ${totals.after.paused} in ${seconds} s (${cpuSeconds} s of CPU, ${statements.length} statements, load ${load})`,
    );
  }
  const totals = last!.totals;
  return {
    accounts: options.accounts,
    ads: seeded.ads,
    days: options.days,
    rules: totals.rules,
    seconds: median(runs.map((r) => r.seconds)),
    cpu_seconds: median(runs.map((r) => r.cpuSeconds)),
    runs: runs.map((r) => r.seconds),
    first_seconds: runs[0]!.seconds,
    statements: runs[0]!.statements,
    load_average: runs.map((r) => r.load),
    before: totals.before,
    after: totals.after,
  };
}
