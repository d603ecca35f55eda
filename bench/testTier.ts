/**
 * `npm run bench -- --test-tier`: the time of `npm run test:quick` (the unit tests and the server
 * tests on PGlite, side by side: tests/support/quickTier.mjs), the loop a developer runs while
 * working; its goal is under 4 minutes on two cores. Kept as latest.json's `test_tier` section.
 * Nothing else may run on the machine meanwhile: the figure is the suite's, not a shared core's.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { mergeLatestSection } from './latestJson';

const GOAL_SECONDS = 4 * 60;

export async function runTestTierBench(log: (line: string) => void): Promise<void> {
  log(`test tier: npm run test:quick on ${os.availableParallelism()} cores…`);
  const started = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join('tests', 'support', 'quickTier.mjs')], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  const seconds = Math.round((performance.now() - started) / 1000);
  const quick = {
    seconds,
    cores: os.availableParallelism(),
    passed: code === 0,
    goal_seconds: GOAL_SECONDS,
    within_goal: code === 0 && seconds < GOAL_SECONDS,
  };
  await mergeLatestSection(path.join('bench/results', 'latest.json'), 'test_tier', { quick });
  log(`test tier: ${quick.passed ? 'passed' : 'FAILED'} in ${seconds} s (goal: under ${GOAL_SECONDS} s)`);
  if (!quick.passed) process.exitCode = 1;
}
