/**
 * `npm run bench -- --backtest`: one rule over 30 days of 1,000 ads of hourly history, on PGlite and
 * on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL): the seconds from request to result, the
 * table's bytes per ad and day, and the agreement of a backtest with the engine run live against
 * the simulator (bench/backtest/agreement.ts); then the preview of an edit across a fleet of 1,000
 * ad accounts (bench/backtest/fleet.ts). Writes bench/results/latest.json's "backtest".
 */
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { prepareBacktest, runBacktest, type BacktestRequest } from '../../server/backtest/service';
import { pgliteFactory, postgresFactory, type DatabaseFactory } from '../databases';
import { mergeLatestSection } from '../latestJson';
import { agreementRun } from './agreement';
import { fleetRun } from './fleet';
import { seedHistory } from './history';

const everyHour = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => true));

function flag(argv: string[], name: string, fallback: number): number {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? Number(argv[index + 1]) : fallback;
}

export async function runBacktestBench(argv: string[], log: (line: string) => void): Promise<void> {
  const ads = flag(argv, 'ads', 1000);
  const days = flag(argv, 'days', 30);
  const agreementDays = flag(argv, 'agreement-days', 3);
  const fleet = { accounts: flag(argv, 'accounts', 1000), days, repeats: flag(argv, 'fleet-repeats', 3) };
  // --fleet-only: the fleet's preview alone; --no-fleet: the single rule and its agreement alone.
  const single = !argv.includes('--fleet-only');
  const fleetToo = !argv.includes('--no-fleet');
  const now = new Date();
  const factories: DatabaseFactory[] = [await pgliteFactory()];
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (url) factories.push(await postgresFactory(url));
  const section: Record<string, unknown> = {};
  const fleetSection: Record<string, unknown> = {};
  try {
    for (const factory of factories) {
      if (!single) break;
      const database = await factory.fresh('backtest');
      try {
        const db = database.handle.db;
        log(`${factory.engine}: writing ${ads} ads × ${days + 3} days of hourly history…`);
        const seeded = await seedHistory(db, ads, days, now);
        if (factory.engine === 'postgres') await database.handle.sql.exec('vacuum analyze ad_metric_history');
        const sized = await db.execute(sql`select pg_total_relation_size('ad_metric_history')::text as bytes`);
        const size = (sized as unknown as { rows: { bytes: string }[] }).rows[0];
        const bytesPerAdDay = Math.round(Number(size!.bytes) / seeded.adDays);
        const request: BacktestRequest = {
          folder: seeded.folderId,
          days,
          rule: {
            name: 'Bench',
            rule_filter: [
              { name: 'campaign_name_contains', values: ['EDM'], is_active: true },
              { name: 'campaign_name_not_contains', values: [], is_active: false },
            ],
            rule_task: [
              { name: 'spend_cpl_no_leads', values: { spend: '40' }, is_active: true },
              { name: 'trigger_cpl', values: { cpl: '60' }, is_active: true },
            ],
            rule_schedule: { schedule: everyHour, timezone: 'UTC' },
          },
        };
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        const result = await runBacktest(db, request, await prepareBacktest(db, request), {
          now,
          limits: { maxShare: 1, maxActions: 100_000 },
        });
        const seconds = Math.round((performance.now() - started) / 10) / 100;
        // This process's CPU (PGlite's worker thread included, a PostgreSQL server's work not): the wall
        // time above is several times it on a loaded machine.
        const cpu = process.cpuUsage(cpuBefore);
        const cpuSeconds = Math.round((cpu.user + cpu.system) / 10_000) / 100;
        log(
          `${factory.engine}: ${result.slots} hours, ${result.totals.pauses} pauses in ${seconds} s (${cpuSeconds} s of CPU); ${bytesPerAdDay} bytes per ad-day`,
        );
        log(`${factory.engine}: agreement run, ${agreementDays} simulated days…`);
        const agreement = await agreementRun(await factory.fresh('agreement'), agreementDays);
        log(`${factory.engine}: agreement ${(agreement.agreement * 100).toFixed(1)} % of ${agreement.pauses} pauses`);
        for (const d of agreement.differences) log(`  difference: ${d}`);
        section[factory.engine] = {
          ads,
          days,
          seconds,
          cpu_seconds: cpuSeconds,
          pauses: result.totals.pauses,
          agreement: agreement.agreement,
          agreement_pauses: agreement.pauses,
          agreement_revives: agreement.revives,
          agreement_days: agreementDays,
          differences: agreement.differences,
          bytes_per_ad_day: bytesPerAdDay,
        };
        section.bytes_per_ad_day = bytesPerAdDay;
      } finally {
        await database.close();
      }
    }
    for (const factory of factories) {
      if (!fleetToo) break;
      const database = await factory.fresh('fleet');
      try {
        fleetSection[factory.engine] = await fleetRun(factory.engine, database, fleet, log);
      } finally {
        await database.close();
      }
    }
  } finally {
    for (const factory of factories) await factory.dispose();
  }
  if (fleetToo) section.fleet = { ...(await lastFleet()), ...fleetSection };
  await mergeLatestSection('bench/results/latest.json', 'backtest', section);
  log('bench/results/latest.json: "backtest" written');
}

/** The fleet's numbers latest.json holds: an engine not run this time keeps them. */
async function lastFleet(): Promise<Record<string, unknown>> {
  const latest = await readFile('bench/results/latest.json', 'utf8').then(
    (text) => JSON.parse(text) as { backtest?: { fleet?: Record<string, unknown> } },
    () => ({}) as { backtest?: { fleet?: Record<string, unknown> } },
  );
  return latest.backtest?.fleet ?? {};
}
