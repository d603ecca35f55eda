/**
 * The decisions bench's `quality` section: a simulated agency selling webinar seats (agency.ts) run
 * under two rule sets of equal strictness — CPL only, and cost per attendee from the product's own
 * Demio sync — each on a fresh database, then judged by the simulators' truth (tally.ts). Writes
 * `decisions.quality` in bench/results/latest.json and bench/results/decisions-quality-latest.md.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { counter } from '../../args';
import type { DatabaseFactory } from '../../databases';
import { mergeLatestSection } from '../../latestJson';
import { driveQualityVariant, type QualityOptions, type QualityVariant } from './drive';
import { QUALITY_GOALS, renderQuality, type QualityDatabaseResult } from './report';
import { tallyOracle, tallyQuality, type OracleCounts } from './tally';

/** The midpoint of the simulator's show-up rates (5–70 %): the two rule sets' common price. */
const MEAN_SHOW_UP = 0.375;

export const QUALITY_USAGE = `  --decisions --only quality   webinar seats: CPL-only rules against cost per attendee (bench/results/decisions-quality-latest.md):
    --accounts N           simulated ad accounts, one folder and rule each (default 50)
    --campaigns N          webinar campaigns per account (default 10), --ads N ads per campaign (default 3)
    --days N               simulated days (default 22), --every N rules and outcome sync every N hours (default 12)
    --cpl N                the CPL-only threshold (default 30); cost per attendee is N ÷ 0.375
    --min-registrations N  settled registrations before cost per attendee judges (default 10)`;

export function qualityOptions(argv: string[]): QualityOptions {
  const count = counter(argv, QUALITY_USAGE);
  const cpl = count('cpl', 30, 1);
  return {
    accounts: count('accounts', 50, 1),
    campaignsPerAccount: count('campaigns', 10, 1),
    adsPerCampaign: count('ads', 3, 1),
    days: count('days', 22, 1),
    everyHours: count('every', 12, 1),
    concurrency: 4,
    seed: count('seed', 23, 1),
    cpl,
    costPerAttendee: Math.round((cpl / MEAN_SHOW_UP) * 100) / 100,
    minRegistrations: count('min-registrations', 10, 1),
  };
}

const VARIANTS: QualityVariant[] = ['cpl_only', 'show_up_aware'];

export async function runQualitySection(
  argv: string[],
  factories: DatabaseFactory[],
  log: (line: string) => void,
): Promise<QualityDatabaseResult[]> {
  const options = qualityOptions(argv);
  const startedAt = new Date();
  const runVariant = async (factory: DatabaseFactory, variant: QualityVariant) => {
    log(`${factory.engine}: quality ${variant}, ${options.days} simulated days…`);
    const database = await factory.fresh(`quality_${variant}`);
    try {
      const run = await driveQualityVariant(database, variant, options, (line) =>
        log(`${factory.engine} ${line.trim()}`),
      );
      try {
        const counts = await tallyQuality(database.handle.db, run, options.costPerAttendee);
        for (const error of run.firstErrors) log(`  failed: ${error.split('\n')[0]}`);
        log(`  ${factory.engine} ${variant}: ${JSON.stringify(counts)}`);
        const oracle: OracleCounts = tallyOracle(run, options.costPerAttendee, options.everyHours);
        return { counts, oracle };
      } finally {
        await run.demio.close();
        await run.sim.close();
      }
    } finally {
      await database.close();
    }
  };
  const results = await Promise.all(
    factories.map(async (factory) => {
      const [cplOnly, showUpAware] = await Promise.all(VARIANTS.map((variant) => runVariant(factory, variant)));
      return {
        database: factory.engine,
        cpl_only: cplOnly!.counts,
        show_up_aware: showUpAware!.counts,
        oracle: cplOnly!.oracle,
      };
    }),
  );
  const first = results[0]!;
  const section: Record<string, unknown> = {
    database: results.map((r) => r.database).join(' and '),
    cpl_only: first.cpl_only,
    show_up_aware: first.show_up_aware,
    oracle: first.oracle,
    goals: QUALITY_GOALS(first),
    setup: { ...options, started_at: startedAt.toISOString() },
  };
  for (const r of results.slice(1)) section[r.database] = { cpl_only: r.cpl_only, show_up_aware: r.show_up_aware };
  await mergeLatestSection('bench/results/latest.json', 'decisions', { quality: section });
  await mkdir('bench/results', { recursive: true });
  const report = renderQuality(results, options, startedAt);
  await writeFile('bench/results/decisions-quality-latest.md', report);
  console.log(report);
  log('bench/results/latest.json "decisions.quality" and bench/results/decisions-quality-latest.md written');
  return results;
}
