/**
 * The decisions bench's `budget` section: a simulated agency (agency.ts) under one scaling rule pair
 * per folder (rules.ts), run twice over the same simulated days — naive (no ceilings, no maturity,
 * no lag allowance, no roll-back) and safe (the defaults, a lag allowance, roll-back) — each on a
 * fresh database and simulator, then judged by the simulator's truth (tally.ts). Writes
 * `decisions.budget` in bench/results/latest.json and bench/results/decisions-budget-latest.md.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { counter } from '../../args';
import type { DatabaseFactory } from '../../databases';
import { mergeLatestSection } from '../../latestJson';
import { driveBudgetVariant, type BudgetOptions } from './drive';
import { budgetGoals, renderBudget, type BudgetDatabaseResult, type BudgetRunFacts } from './report';
import type { BudgetVariant } from './rules';
import { tallyBudgetRun, type BudgetCounts } from './tally';

export const BUDGET_USAGE = `  --decisions --only budget    budget rules run naive and safe (bench/results/decisions-budget-latest.md):
    --accounts N           simulated ad accounts, one folder and rule pair each (default 50)
    --campaigns N          campaigns per account (default 10), --adsets N ad sets per campaign (default 3)
    --days N               simulated days (default 14), --every N the rules run every N hours (default 4)
    --target N             the target cost per lead (default 30), --lag N the safe run's lag allowance in hours (default 24)`;

export function budgetOptions(argv: string[]): BudgetOptions {
  const count = counter(argv, BUDGET_USAGE);
  return {
    accounts: count('accounts', 50, 1),
    campaignsPerAccount: count('campaigns', 10, 1),
    adsetsPerCampaign: count('adsets', 3, 1),
    adsPerAdset: 1,
    days: count('days', 14, 1),
    everyHours: count('every', 4, 1),
    concurrency: 4,
    seed: count('seed', 31, 1),
    target: count('target', 30, 1),
    percent: 20,
    lagHours: count('lag', 24, 1),
  };
}

const VARIANTS: BudgetVariant[] = ['naive', 'safe'];
const ENGINES: BudgetDatabaseResult['database'][] = ['pglite', 'postgres'];

/** Where each database's last result is kept, with the setup it ran at. */
const savedResultFile = (engine: string) => `bench/results/decisions-budget-${engine}.json`;

async function saveDatabaseResults(results: BudgetDatabaseResult[], options: BudgetOptions): Promise<void> {
  await mkdir('bench/results', { recursive: true });
  for (const result of results)
    await writeFile(savedResultFile(result.database), `${JSON.stringify({ setup: options, result }, null, 2)}\n`);
}

/**
 * The other database's last result at the same setup: each database can run in its own process
 * (`--no-pglite` for PostgreSQL alone), one a CPU, and the one that finishes last reports both.
 */
async function otherDatabaseResults(
  results: BudgetDatabaseResult[],
  options: BudgetOptions,
): Promise<BudgetDatabaseResult[]> {
  const others: BudgetDatabaseResult[] = [];
  for (const engine of ENGINES) {
    if (results.some((r) => r.database === engine)) continue;
    const saved = await readFile(savedResultFile(engine), 'utf8').then(
      (text) => JSON.parse(text) as { setup: BudgetOptions; result: BudgetDatabaseResult },
      () => undefined,
    );
    if (saved && JSON.stringify(saved.setup) === JSON.stringify(options)) others.push(saved.result);
  }
  return others;
}

export async function runBudgetSection(
  argv: string[],
  factories: DatabaseFactory[],
  log: (line: string) => void,
): Promise<BudgetDatabaseResult[]> {
  const options = budgetOptions(argv);
  const startedAt = new Date();
  const runVariant = async (
    factory: DatabaseFactory,
    variant: BudgetVariant,
  ): Promise<{ counts: BudgetCounts; facts: BudgetRunFacts }> => {
    log(`${factory.engine}: budget ${variant}, ${options.days} simulated days…`);
    const database = await factory.fresh(`budget_${variant}`);
    try {
      const run = await driveBudgetVariant(database, variant, options, (line) =>
        log(`${factory.engine} ${line.trim()}`),
      );
      try {
        const { counts, largest, largestChanges } = await tallyBudgetRun(database.handle.db, run, options.target);
        const facts: BudgetRunFacts = {
          runs: run.slots * run.ruleIds.length,
          runs_failed: run.runsFailed,
          runs_held: run.runsHeld,
          seconds: run.seconds,
        };
        for (const error of run.firstErrors) log(`  failed: ${error.split('\n')[0]}`);
        log(`  ${factory.engine} budget ${variant}: ${JSON.stringify({ ...counts, ...facts })}`);
        if (largest)
          log(
            `  ${factory.engine} budget ${variant}: largest 24 h growth on ${largest.objectId}, ${largestChanges
              .map(
                (c) => `${new Date(c.at).toISOString().slice(5, 16)} ${c.action.split('_')[0]} ${c.before}→${c.after}`,
              )
              .join(', ')}`,
          );
        return { counts, facts };
      } finally {
        await run.sim.close();
      }
    } finally {
      await database.close();
    }
  };
  // Every database and variant at once: each has its own simulator and database.
  const results: BudgetDatabaseResult[] = await Promise.all(
    factories.map(async (factory) => {
      const [naive, safe] = await Promise.all(VARIANTS.map((variant) => runVariant(factory, variant)));
      return {
        database: factory.engine,
        naive: naive!.counts,
        safe: safe!.counts,
        facts: { naive: naive!.facts, safe: safe!.facts },
      };
    }),
  );
  await saveDatabaseResults(results, options);
  results.push(...(await otherDatabaseResults(results, options)));
  results.sort((a, b) => ENGINES.indexOf(a.database) - ENGINES.indexOf(b.database));
  const first = results[0]!;
  const section: Record<string, unknown> = {
    database: results.map((r) => r.database).join(' and '),
    naive: first.naive,
    safe: first.safe,
    goals: budgetGoals(first),
    facts: first.facts,
    setup: { ...options, started_at: startedAt.toISOString() },
  };
  for (const r of results.slice(1))
    section[r.database] = { naive: r.naive, safe: r.safe, goals: budgetGoals(r), facts: r.facts };
  await mergeLatestSection('bench/results/latest.json', 'decisions', { budget: section });
  await mkdir('bench/results', { recursive: true });
  const report = renderBudget(results, options, startedAt);
  await writeFile('bench/results/decisions-budget-latest.md', report);
  console.log(report);
  log('bench/results/latest.json "decisions.budget" and bench/results/decisions-budget-latest.md written');
  return results;
}
