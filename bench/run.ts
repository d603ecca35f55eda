/**
 * `npm run bench`: list calls at a small and a large scale on PGlite (and PostgreSQL when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL is set), EXPLAIN of their statements at the large scale,
 * and the size of the browser bundle. Writes bench/results/<timestamp>.md and latest.md.
 * How to run it and read it: docs/bench.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { benchApp } from './app';
import { apiCalls, scaleFacts } from './calls';
import { measureBundle } from './bundle';
import { engineMain } from './engine/main';
import { pgliteFactory, postgresFactory, type DatabaseFactory } from './databases';
import { explainCalls } from './explain';
import { measureCalls } from './measure';
import { parseOptions, USAGE, type BenchOptions } from './options';
import { renderReport, type BenchResult, type EngineResult } from './report';
import { seedScale } from './seed';

const began = performance.now();
const log = (line: string) =>
  console.error(`[${String(Math.round((performance.now() - began) / 1000)).padStart(4)} s] ${line.replace(/^\n/, '')}`);

function revision(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim();
    return `git ${sha}${dirty ? ' with uncommitted changes in the working tree' : ''}`;
  } catch {
    return 'git revision unknown';
  }
}

async function runEngine(
  factory: DatabaseFactory,
  options: BenchOptions,
  explain: boolean,
): Promise<{ result: EngineResult; explained: BenchResult['explain'] }> {
  log(`\n${factory.engine}: seeding small and large databases…`);
  const small = await factory.fresh('small');
  const large = await factory.fresh('large');
  try {
    const seededSmall = await seedScale(small.handle, options.small);
    log(`  small seeded in ${seededSmall.seconds.toFixed(1)} s`);
    const seededLarge = await seedScale(large.handle, options.large);
    log(`  large seeded in ${seededLarge.seconds.toFixed(1)} s`);
    const version = String((await large.handle.sql.query<{ v: string }>('select version() as v')).rows[0]!.v)
      .split(' on ')[0]!
      .split(',')[0]!;

    const apps = { small: await benchApp(small.handle), large: await benchApp(large.handle) };
    try {
      const calls = {
        small: apiCalls(await scaleFacts(small.handle, options.small.folders)),
        large: apiCalls(await scaleFacts(large.handle, options.large.folders)),
      };
      log(`${factory.engine}: timing ${calls.large.length} calls…`);
      const timings = await measureCalls(apps, calls, options, log);
      let explained: BenchResult['explain'] = null;
      if (explain) {
        log(`${factory.engine}: EXPLAIN at the large scale…`);
        explained = {
          engine: version,
          calls: await explainCalls(large.handle, large.recorder, apps.large, calls.large),
        };
      }
      return {
        result: { engine: factory.engine, version, seeded: { small: seededSmall, large: seededLarge }, timings },
        explained,
      };
    } finally {
      await apps.small.close();
      await apps.large.close();
    }
  } finally {
    await small.close();
    await large.close();
  }
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--load')) {
    // The load bench: real server, real HTTP, many connections (bench/load/run.ts).
    const { runLoadBench } = await import('./load/run');
    return runLoadBench(argv.filter((a) => a !== '--load'));
  }
  if (argv.includes('--mixed')) {
    // A team's mixed traffic: many users, varied parameters, writers (bench/mixed/run.ts).
    const { runMixedBench } = await import('./mixed/run');
    return runMixedBench(argv.filter((a) => a !== '--mixed'));
  }
  if (argv.includes('--sync')) {
    // A full campaign sync at Graph's pace (bench/sync.ts).
    const { runSyncBench } = await import('./sync');
    return runSyncBench(
      argv.filter((a) => a !== '--sync'),
      log,
    );
  }
  if (argv.includes('--test-tier')) {
    // The quick test tier's time on this machine (bench/testTier.ts).
    const { runTestTierBench } = await import('./testTier');
    return runTestTierBench(log);
  }
  if (argv.includes('--bundle')) {
    // Only the browser bundle: what the first screen loads, into latest.json's `bundle` (bench/bundle.ts).
    const { bundleMain } = await import('./bundle');
    return bundleMain(log);
  }
  if (argv.includes('--walk')) {
    // Every parameter combination the list screens can send, on an idle app (bench/walk.ts).
    const { runWalk } = await import('./walk');
    return runWalk(
      argv.filter((a) => a !== '--walk'),
      log,
    );
  }
  if (argv.includes('--soak')) {
    // The soak under faults: days at an accelerated clock, workers killed, PostgreSQL restarted (bench/soak/run.ts).
    const { runSoakBench } = await import('./soak/run');
    return runSoakBench(argv, log);
  }
  if (argv.includes('--backtest')) {
    // One rule over 30 days of 1,000 ads of history, and its agreement with live runs (bench/backtest/run.ts).
    const { runBacktestBench } = await import('./backtest/run');
    return runBacktestBench(argv, log);
  }
  if (argv.includes('--decisions')) {
    // Wrong pauses: an agency with late leads judged naively and lag-aware (bench/decisions/run.ts).
    const { runDecisionsBench } = await import('./decisions/run');
    return runDecisionsBench(argv, log);
  }
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  if (argv.includes('--engine')) return engineMain(argv, process.env, log);
  const options = parseOptions(argv, process.env);
  const startedAt = new Date();
  const factories: DatabaseFactory[] = [];
  if (!options.skipPglite) factories.push(await pgliteFactory());
  if (options.postgresUrl) factories.push(await postgresFactory(options.postgresUrl));
  if (!factories.length) throw new Error('Nothing to run: --no-pglite needs BENCH_DATABASE_URL or TEST_DATABASE_URL.');

  const engines: EngineResult[] = [];
  let explain: BenchResult['explain'] = null;
  try {
    for (const factory of factories) {
      // Plans are read on the last engine: PostgreSQL when there is one, as deployed at scale.
      const { result, explained } = await runEngine(factory, options, factory === factories[factories.length - 1]);
      engines.push(result);
      explain = explained ?? explain;
    }
  } finally {
    for (const factory of factories) await factory.dispose();
  }

  let bundle: BenchResult['bundle'] = null;
  if (!options.skipBundle) {
    log('\nbundle: production vite build…');
    bundle = await measureBundle().catch((error: Error) => ({ error: error.message }));
  }

  const cpus = os.cpus();
  const report = renderReport({
    startedAt,
    seconds: (Date.now() - startedAt.getTime()) / 1000,
    machine: `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.versions.node}`,
    revision: revision(),
    options,
    engines,
    explain,
    bundle,
  });
  await mkdir(options.resultsDir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  await writeFile(path.join(options.resultsDir, `${stamp}.md`), report);
  await writeFile(path.join(options.resultsDir, 'latest.md'), report);
  console.log(report);
  log(`Written to ${path.join(options.resultsDir, `${stamp}.md`)} and latest.md`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
