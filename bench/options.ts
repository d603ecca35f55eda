/** `npm run bench -- [flags]`: the sizes of the two databases compared, and what to run. */
import { counter } from './args';
import { DECISIONS_USAGE } from './decisions/run';
import { BUDGET_USAGE } from './decisions/budget/run';
import { QUALITY_USAGE } from './decisions/quality/run';
import { ENGINE_USAGE } from './engine/main';
import type { Scale } from './scale';
import { SOAK_USAGE } from './soak/run';

export interface BenchOptions {
  small: Scale;
  large: Scale;
  /** Timed rounds per call and scale (after the warm-up); the median is reported. */
  rounds: number;
  /** A call stops early (after at least MIN_ROUNDS) once its timed rounds took this long, so one slow call cannot stretch the run. */
  callSeconds: number;
  warmup: number;
  /** PostgreSQL server to create the bench databases on (BENCH_DATABASE_URL, else TEST_DATABASE_URL). */
  postgresUrl: string | undefined;
  skipPglite: boolean;
  skipBundle: boolean;
  resultsDir: string;
}

export const USAGE = `npm run bench -- [flags]
  --folders N            large scale folders (default 2000; small is 1/100, at least 20)
  --rules-per-folder N   rules per folder at both scales (default 10)
  --campaigns N          large scale campaigns (default 100000; small is 1/100, at least 1000)
  --log-per-rule N       audit-log entries per rule (default 5)
  --activity-per-rule N  rule-log entries per rule (default 5)
  --small-folders N      override the small scale's folders (same for --small-campaigns)
  --rounds N             timed rounds per call and scale (default 21)
  --call-seconds N       stop a call's rounds after N seconds, once it has 5 (default 8)
  --warmup N             untimed rounds first (default 2)
  --no-pglite            skip the embedded database (PostgreSQL only)
  --no-bundle            skip the browser bundle build
  --bundle               only the browser bundle (into latest.json's bundle section)
  --test-tier            the time of npm run test:quick on this machine (into latest.json's test_tier section)
  --load                 the load bench instead (real server, many connections): npm run bench -- --load --help
  --sync                 a full campaign sync of 1,000 ad accounts at Graph's pace: npm run bench -- --sync --help
  --walk                 every parameter combination the list screens send, slowest first: npm run bench -- --walk --help
  --mixed                a team's mixed traffic on every list, with writers: npm run bench -- --mixed --help
${ENGINE_USAGE}
${SOAK_USAGE}
${DECISIONS_USAGE}
${QUALITY_USAGE}
${BUDGET_USAGE}
  BENCH_DATABASE_URL or TEST_DATABASE_URL: also run on that PostgreSQL server (a database per scale is created and dropped).`;

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const count = counter(argv, USAGE);
  const folders = count('folders', 2000, 1);
  const campaigns = count('campaigns', 100_000, 1);
  const rulesPerFolder = count('rules-per-folder', 10, 1);
  const logPerRule = count('log-per-rule', 5, 1);
  const activityPerRule = count('activity-per-rule', 5, 1);
  const shared = { rulesPerFolder, logPerRule, activityPerRule };
  return {
    large: { label: 'large', folders, campaigns, ...shared },
    small: {
      label: 'small',
      folders: count('small-folders', Math.min(folders, Math.max(20, Math.round(folders / 100))), 1),
      campaigns: count('small-campaigns', Math.min(campaigns, Math.max(1000, Math.round(campaigns / 100))), 1),
      ...shared,
    },
    rounds: count('rounds', 21, 1),
    callSeconds: count('call-seconds', 8, 1),
    warmup: count('warmup', 2),
    postgresUrl: env.BENCH_DATABASE_URL || env.TEST_DATABASE_URL || undefined,
    skipPglite: argv.includes('--no-pglite'),
    skipBundle: argv.includes('--no-bundle'),
    resultsDir: 'bench/results',
  };
}
