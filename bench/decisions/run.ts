/**
 * `npm run bench -- --decisions`: rules' decisions measured, in three sections. Lag: a simulated agency (agency.ts) with late
 * leads, run twice over the same simulated days — its rules judging as the engine did before the
 * judging settings (naive) and with the new defaults plus the lag allowance and revive (lag_aware)
 * — each pause then judged by the simulator's settled truth (tally.ts). On PGlite, and on
 * PostgreSQL too with --postgres (BENCH_DATABASE_URL or TEST_DATABASE_URL). Writes the "decisions"
 * section of bench/results/latest.json and bench/results/decisions-latest.md; docs/bench.md says
 * how to read them. Quality: webinar seats bought by CPL-only rules and by cost per attendee
 * (quality/run.ts). Budget: scaling rules run naive and with ceilings (budget/run.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { counter, flagValue } from '../args';
import { pgliteFactory, postgresFactory, type DatabaseFactory } from '../databases';
import { mergeLatestSection } from '../latestJson';
import { driveVariant, type DecisionsOptions, type Variant } from './drive';
import { renderDecisions, GOALS, type DatabaseResult } from './report';
import { BUDGET_USAGE, runBudgetSection } from './budget/run';
import { runQualitySection, QUALITY_USAGE } from './quality/run';
import { tally } from './tally';

export const DECISIONS_USAGE = `  --decisions            wrong pauses: an agency with late leads, its rules judged naively and lag-aware (bench/results/decisions-latest.md):
    --accounts N           simulated ad accounts, one folder and rule each (default 50)
    --campaigns N          campaigns per account (default 10), --ads N ads per campaign (default 3)
    --days N               simulated days (default 14), --every N the rules run every N hours (default 4)
    --postgres             also on PostgreSQL (BENCH_DATABASE_URL / TEST_DATABASE_URL); --no-pglite: PostgreSQL alone
    --only lag|quality|budget   one section (all three by default; the quality and budget sections' flags below)`;

export function decisionsOptions(argv: string[]): DecisionsOptions {
  const count = counter(argv, DECISIONS_USAGE);
  return {
    accounts: count('accounts', 50, 1),
    campaignsPerAccount: count('campaigns', 10, 1),
    adsPerCampaign: count('ads', 3, 1),
    days: count('days', 14, 1),
    everyHours: count('every', 4, 1),
    concurrency: 4,
    seed: count('seed', 19, 1),
    spend: 40,
    cpl: 60,
  };
}

const VARIANTS: Variant[] = ['naive', 'lag_aware'];
const SECTIONS = ['lag', 'quality', 'budget'];

/** `--only lag`, `--only quality` or `--only budget` runs one section; all run by default, in that order. */
export async function runDecisionsBench(argv: string[], log: (line: string) => void): Promise<void> {
  const only = flagValue(argv, 'only');
  if (only !== undefined && !SECTIONS.includes(only))
    throw new Error(
      `--only must be lag, quality or budget (got ${only})\n\n${DECISIONS_USAGE}\n${QUALITY_USAGE}\n${BUDGET_USAGE}`,
    );
  const factories: DatabaseFactory[] = argv.includes('--no-pglite') ? [] : [await pgliteFactory()];
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (argv.includes('--postgres')) {
    if (!url) throw new Error('--postgres needs BENCH_DATABASE_URL or TEST_DATABASE_URL');
    factories.push(await postgresFactory(url));
  }
  try {
    if (only === undefined || only === 'lag') await runLagSection(argv, factories, log);
    if (only === undefined || only === 'quality') await runQualitySection(argv, factories, log);
    if (only === undefined || only === 'budget') await runBudgetSection(argv, factories, log);
  } finally {
    for (const factory of factories) await factory.dispose();
  }
}

/** The lag section: late leads judged naively and lag-aware. */
async function runLagSection(argv: string[], factories: DatabaseFactory[], log: (line: string) => void): Promise<void> {
  const options = decisionsOptions(argv);
  const startedAt = new Date();
  // Every database and variant at once: each has its own simulator and database, and the
  // databases' work runs beside the main thread's (PGlite's worker thread, PostgreSQL's processes).
  const runVariant = async (factory: DatabaseFactory, variant: Variant) => {
    log(`${factory.engine}: ${variant}, ${options.days} simulated days…`);
    const database = await factory.fresh(`decisions_${variant}`);
    try {
      const run = await driveVariant(database, variant, options, (line) => log(`${factory.engine} ${line.trim()}`));
      try {
        const counts = await tally(database.handle.db, run);
        for (const error of run.firstErrors) log(`  failed run: ${error.split('\n')[0]}`);
        log(`  ${factory.engine} ${variant}: ${JSON.stringify(counts)}`);
        return { counts, lagHours: [...run.lagHours.values()].filter((v): v is number => v !== null) };
      } finally {
        await run.sim.close();
      }
    } finally {
      await database.close();
    }
  };
  const results: DatabaseResult[] = await Promise.all(
    factories.map(async (factory) => {
      const [naive, lagAware] = await Promise.all(VARIANTS.map((variant) => runVariant(factory, variant)));
      return {
        database: factory.engine,
        naive: naive!.counts,
        lag_aware: lagAware!.counts,
        lag_hours: lagAware!.lagHours,
      };
    }),
  );

  const first = results[0]!;
  const section: Record<string, unknown> = {
    database: results.map((r) => r.database).join(' and '),
    naive: first.naive,
    lag_aware: first.lag_aware,
    goals: GOALS(first),
    setup: { ...options, started_at: startedAt.toISOString() },
  };
  // The other database's run, when there was one (never an older run's numbers).
  section.postgres = undefined;
  for (const r of results.slice(1)) section[r.database] = { naive: r.naive, lag_aware: r.lag_aware };
  await mergeLatestSection('bench/results/latest.json', 'decisions', section);
  await mkdir('bench/results', { recursive: true });
  const report = renderDecisions(results, options, startedAt);
  await writeFile('bench/results/decisions-latest.md', report);
  console.log(report);
  log('bench/results/latest.json "decisions" and bench/results/decisions-latest.md written');
}
