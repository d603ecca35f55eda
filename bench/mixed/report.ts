/**
 * The mixed-traffic bench's results: bench/results/mixed-latest.md (and <timestamp>-mixed.md) with
 * each goal as a pass/fail column, and the "mixed" section of bench/results/latest.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mergeLatestSection } from '../latestJson';
import type { FamilyStats } from './drive';
import type { MixedEngine, MixedOptions } from './options';
import type { RawReplayResult } from './replay';
import { FAMILIES } from './traffic';

export interface MixedOutcome {
  engine: MixedEngine;
  rps: number;
  timeouts: number;
  families: Record<string, FamilyStats & { from_memory: number }>;
  writes: FamilyStats;
  refreshes: FamilyStats;
  statuses: Record<string, Record<string, number>>;
  raw: RawReplayResult;
  rows: Record<string, number>;
  loadAverage: { before: number; after: number };
}

/** The goals (docs/bench.md): PostgreSQL's for the team's traffic, PGlite's for an embedded install. */
export const GOALS = {
  postgres: { rps: 500, familyP95: 250, familyP99: 1000, writesP95: 250, rawRatio: 0.7 },
  pglite: { familyP99: 2000 },
};

const mark = (ok: boolean) => (ok ? 'yes' : '**no**');
const n0 = (v: number) => Math.round(v).toLocaleString('en-US');

/**
 * What this machine allows, whatever the product does: each user waits for an answer before asking
 * again, so the mean wait is users ÷ requests/s (Little's law). At the database's own rate for the
 * same statements (the raw replay) that wait is the floor; the rate goal needs a raw replay of at
 * least goal ÷ the ratio goal.
 */
function machineFloor(o: MixedOutcome, users: number): string {
  const { rps, rawRatio } = GOALS.postgres;
  const needed = rps / rawRatio;
  // Users ÷ requests/s, in ms (no answers at all: no bound).
  const meanWaitMs = (rate: number) => (rate ? (users / rate) * 1000 : Number.POSITIVE_INFINITY);
  return (
    `This machine's floor: with ${users} users each waiting for their answer, the mean wait is ${users} ÷ the rate; ` +
    `at the database's own rate for these statements (${n0(o.raw.rps)}/s) it would be **${n0(meanWaitMs(o.raw.rps))} ms** with no API at all ` +
    `(the product's: ${n0(meanWaitMs(o.rps))} ms). ${rps} requests/s at ×${rawRatio} needs a raw replay of ` +
    `${n0(needed)}/s or more: ${o.raw.rps >= needed ? 'this machine has it' : '**this machine does not reach it**'}.`
  );
}

function engineSection(o: MixedOutcome, users: number): string {
  const isPostgres = o.engine === 'postgres';
  const ratio = o.raw.rps ? o.rps / o.raw.rps : 0;
  const familyOk = (f: FamilyStats) =>
    isPostgres
      ? f.errors === 0 && f.p95_ms <= GOALS.postgres.familyP95 && f.p99_ms <= GOALS.postgres.familyP99
      : f.errors === 0 && f.p99_ms <= GOALS.pglite.familyP99;
  const rows = FAMILIES.map((name) => {
    const f = o.families[name]!;
    return `| ${name} | ${n0(f.requests)} | ${f.rps.toFixed(1)} | ${f.p50_ms} | ${f.p95_ms} | ${f.p99_ms} | ${f.errors} | ${Math.round(100 * f.from_memory)} % | ${mark(familyOk(f))} |`;
  });
  const w = o.writes;
  const writesOk = isPostgres ? w.errors === 0 && w.p95_ms <= GOALS.postgres.writesP95 : w.errors === 0;
  const r = o.refreshes;
  return [
    `### ${isPostgres ? 'PostgreSQL' : 'PGlite'}`,
    '',
    `Rows: ${Object.entries(o.rows)
      .map(([table, count]) => `${table} ${n0(count)}`)
      .join(', ')}. Load average ${o.loadAverage.before.toFixed(1)} before, ${o.loadAverage.after.toFixed(1)} after.`,
    '',
    `**${n0(o.rps)} requests/s** in all${isPostgres ? ` (goal ≥ ${GOALS.postgres.rps}: ${mark(o.rps >= GOALS.postgres.rps)})` : ''}; ` +
      `the same statements straight on the database: **${n0(o.raw.rps)} requests/s**, ` +
      `the product at **×${ratio.toFixed(2)}** of it${isPostgres ? ` (goal ≥ ×${GOALS.postgres.rawRatio}: ${mark(ratio >= GOALS.postgres.rawRatio)})` : ''}. ` +
      `Timeouts and connection errors: ${o.timeouts}.`,
    '',
    '| Family | Requests | req/s | p50 ms | p95 ms | p99 ms | Errors | From memory | Goal met |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    `| writes (3 × 1/s) | ${n0(w.requests)} | ${w.rps.toFixed(1)} | ${w.p50_ms} | ${w.p95_ms} | ${w.p99_ms} | ${w.errors} | — | ${mark(writesOk)} |`,
    `| session renewals (1/s) | ${n0(r.requests)} | ${r.rps.toFixed(1)} | ${r.p50_ms} | ${r.p95_ms} | ${r.p99_ms} | ${r.errors} | — | |`,
    '',
    ...(isPostgres ? [machineFloor(o, users), ''] : []),
    `Goals: ${isPostgres ? `every family p95 ≤ ${GOALS.postgres.familyP95} ms and p99 ≤ ${GOALS.postgres.familyP99} ms with 0 errors, writes p95 ≤ ${GOALS.postgres.writesP95} ms` : `0 errors, every family p99 ≤ ${GOALS.pglite.familyP99} ms`}.`,
    '',
  ].join('\n');
}

function revision(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export async function writeMixedResults(run: {
  startedAt: Date;
  options: MixedOptions;
  outcomes: MixedOutcome[];
}): Promise<{ markdown: string; files: string[] }> {
  const { options } = run;
  const cpus = os.cpus();
  const markdown = [
    `# Mixed traffic — ${run.startedAt.toISOString()}`,
    '',
    `git ${revision()}; ${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, Node ${process.versions.node}. ` +
      `${options.users} browsing users (one connection each, every one signed in) + 3 writers (1 change/s each) + ` +
      `1 session renewal/s, ${options.duration} s after ${options.warmup} s of warm-up; raw SQL: the statements of the ` +
      `first ${options.captured} requests and of the writes, ${options.users} connections, ${options.duration} s. ` +
      'How to read it: docs/bench.md.',
    '',
    ...run.outcomes.map((o) => engineSection(o, options.users)),
  ].join('\n');
  const dir = options.resultsDir;
  await mkdir(dir, { recursive: true });
  const stamp = run.startedAt.toISOString().replace(/[:.]/g, '-');
  const files = [path.join(dir, `${stamp}-mixed.md`), path.join(dir, 'mixed-latest.md'), path.join(dir, 'latest.json')];
  await writeFile(files[0]!, markdown);
  await writeFile(files[1]!, markdown);
  const round = (v: number) => Math.round(v * 10) / 10;
  await mergeLatestSection(
    files[2]!,
    'mixed',
    Object.fromEntries(
      run.outcomes.map((o) => [
        o.engine,
        {
          rps: round(o.rps),
          raw_sql_rps: round(o.raw.rps),
          raw_sql_ratio: o.raw.rps ? Number((o.rps / o.raw.rps).toFixed(3)) : null,
          users: options.users,
          writers: options.writers,
          seconds: options.duration,
          families: {
            ...Object.fromEntries(
              FAMILIES.map((f) => {
                const { requests: _requests, ...stats } = o.families[f]!;
                return [f, { ...stats, from_memory: Number(stats.from_memory.toFixed(3)) }];
              }),
            ),
            writes: (({ requests: _r, ...stats }) => stats)(o.writes),
          },
        },
      ]),
    ),
  );
  return { markdown, files };
}
