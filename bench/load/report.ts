/**
 * The load bench's results: a Markdown report (bench/results/<timestamp>-load.md and
 * load-latest.md; -load-fresh / load-fresh-latest.md for a --fresh run) with each target as a
 * pass/fail column, and the "lists" ("lists_fresh") section of bench/results/latest.json (other
 * sections of that file are kept).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LoadResult } from './drive';
import type { LoadEngine, LoadOptions } from './options';

export interface CallOutcome {
  key: string;
  endpoint: string;
  name: string;
  url: string;
  /** Why the call could not be measured (it did not answer 2xx). */
  failed: string | undefined;
  load: LoadResult | undefined;
  statements: number;
  singleMs: number | undefined;
  floorMs: number | undefined;
  rpsRatioToMe: number | undefined;
  p99RatioToMe: number | undefined;
  rawSqlRatio: number | undefined;
  /** One request at a time that reads the database (Cache-Control: no-cache), and that over the raw SQL. */
  readMs: number | undefined;
  readRawSqlRatio: number | undefined;
}

export interface EngineOutcome {
  engine: LoadEngine;
  version: string;
  seed: { seconds: number; summary: string };
  me: { first: LoadResult; last: LoadResult; rps: number; p99_ms: number };
  calls: CallOutcome[];
  loadAverage: { before: number; after: number };
  /** Rows in the database the server ran on. */
  rows: Record<string, number>;
  /** Calls after which the server was restarted because its backlog did not drain. */
  restarts: string[];
}

export interface LoadRun {
  startedAt: Date;
  seconds: number;
  options: LoadOptions;
  engines: EngineOutcome[];
}

/** The targets the product is to reach (issue: lists at scale): shown, not enforced. */
export const TARGETS = {
  postgres: { rpsRatio: 0.5, p99RatioToMe: 3, rawSqlRatio: 1.5, meRps: 2000 },
  pglite: { rpsRatio: 0.25 },
} as const;

const n = (v: number, digits = 0) =>
  v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const x = (v: number | undefined) => (v === undefined ? '—' : `×${v.toFixed(2)}`);
const ms = (v: number | undefined) => (v === undefined ? '—' : v < 10 ? v.toFixed(2) : v.toFixed(1));
const verdict = (ok: boolean | undefined) => (ok === undefined ? '—' : ok ? 'pass' : '**FAIL**');

interface Checks {
  rps: boolean | undefined;
  errors: boolean | undefined;
  p99: boolean | undefined;
  rawSql: boolean | undefined;
}

function checks(engine: LoadEngine, call: CallOutcome): Checks {
  if (!call.load) return { rps: false, errors: false, p99: undefined, rawSql: undefined };
  const errors = call.load.errors === 0;
  if (engine === 'pglite')
    return { rps: call.rpsRatioToMe! >= TARGETS.pglite.rpsRatio, errors, p99: undefined, rawSql: undefined };
  return {
    rps: call.rpsRatioToMe! >= TARGETS.postgres.rpsRatio,
    errors,
    p99: call.p99RatioToMe! <= TARGETS.postgres.p99RatioToMe,
    rawSql: call.rawSqlRatio === undefined ? undefined : call.rawSqlRatio <= TARGETS.postgres.rawSqlRatio,
  };
}

/** The measured columns of a call's row, in order; the targets' pass/fail columns follow them. */
const MEASURED_COLUMNS = [
  'req/s',
  '÷ me',
  'p50 ms',
  'p99 ms',
  'p99 ÷ me',
  'Errors',
  '1 request ms',
  'Raw SQL ms (stmts)',
  '÷ raw SQL',
  '1 read ms',
  'read ÷ raw SQL',
];

function engineSection(e: EngineOutcome, options: LoadOptions): string[] {
  const pgTargets = e.engine === 'postgres';
  const title = e.engine === 'pglite' ? `Embedded PGlite (${e.version})` : e.version;
  // The table's columns, named once: its header, alignment row and empty cells follow from them.
  const verdicts = pgTargets ? ['≥ 0.5 me', '0 errors', 'p99 ≤ 3× me', '≤ 1.5× raw'] : ['≥ 0.25 me', '0 errors'];
  const columns = [...MEASURED_COLUMNS, ...verdicts];
  const lines = [
    `<!-- engine: ${e.engine} -->`,
    `### ${title}`,
    '',
    e.seed.seconds
      ? `Seeded by \`npm run seed\` in ${e.seed.seconds.toFixed(0)} s: ${e.seed.summary.replace(/^Made /, '')}`
      : `Data: ${e.seed.summary}.`,
    '',
    `Rows: ${Object.entries(e.rows)
      .map(([table, count]) => `${table} ${n(count)}`)
      .join(', ')}.`,
    '',
    `Load average (1 min) ${e.loadAverage.before.toFixed(1)} before, ${e.loadAverage.after.toFixed(1)} after, on ${os.cpus().length} cores.`,
    '',
    ...(e.restarts.length
      ? [
          `The server was restarted after ${e.restarts.join('; ')}: the requests still queued when the load stopped had not been served ${options.settle} s later.`,
          '',
        ]
      : []),
    `Baseline GET /api/user/me/: ${n(e.me.first.rps)} req/s (p99 ${e.me.first.p99_ms} ms) at the start, ${n(e.me.last.rps)} req/s (p99 ${e.me.last.p99_ms} ms) at the end; the ratios divide by their mean, ${n(e.me.rps)} req/s and p99 ${ms(e.me.p99_ms)} ms.` +
      (pgTargets
        ? ` Target ≥ ${n(TARGETS.postgres.meRps)} req/s at ${options.connections} connections: ${verdict(e.me.rps >= TARGETS.postgres.meRps)}.`
        : ''),
    '',
    `| Call | ${columns.join(' | ')} |`,
    `|---|${'---:|'.repeat(MEASURED_COLUMNS.length)}${'---|'.repeat(verdicts.length)}`,
  ];
  const failing: string[] = [];
  for (const c of e.calls) {
    const name = c.endpoint === 'baseline' ? 'me (start)' : `${c.endpoint}: ${c.name}`;
    if (!c.load) {
      lines.push(`| ${name} | not measured: ${c.failed ?? '?'} |${' |'.repeat(columns.length - 1)}`);
      failing.push(`${name} (not measured)`);
      continue;
    }
    const k = checks(e.engine, c);
    const cells = [
      name,
      n(c.load.rps),
      x(c.rpsRatioToMe),
      ms(c.load.p50_ms),
      ms(c.load.p99_ms),
      x(c.p99RatioToMe),
      c.load.timeouts ? `${n(c.load.errors)} (${n(c.load.timeouts)} timeouts)` : n(c.load.errors),
      ms(c.singleMs),
      c.floorMs === undefined ? (c.statements === 0 && c.load ? 'no SQL' : '—') : `${ms(c.floorMs)} (${c.statements})`,
      x(c.rawSqlRatio),
      ms(c.readMs),
      x(c.readRawSqlRatio),
      verdict(k.rps),
      verdict(k.errors),
      ...(pgTargets ? [verdict(k.p99), verdict(k.rawSql)] : []),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
    if (c.endpoint !== 'baseline' && [k.rps, k.errors, k.p99, k.rawSql].includes(false)) failing.push(name);
  }
  const measured = e.calls.filter((c) => c.endpoint !== 'baseline').length;
  lines.push(
    '',
    failing.length
      ? `${failing.length} of ${measured} list calls miss a target: ${failing.join('; ')}.`
      : `Every one of the ${measured} list calls meets its targets.`,
    '',
    '<!-- end engine -->',
    '',
  );
  return lines;
}

function revision(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim();
    return `git ${sha}${dirty ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'git revision unknown';
  }
}

export function renderLoadReport(run: LoadRun): string {
  const { options } = run;
  const cpus = os.cpus();
  const s = options.sizes;
  return [
    `# Load benchmark${options.fresh ? ', every request reading the database' : ''} — ${run.startedAt.toISOString()}`,
    '',
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.versions.node}; ${revision()}. Whole run: ${(run.seconds / 60).toFixed(0)} min.`,
    '',
    `Data: ${n(s.folders)} folders, ${n(s.folders * s.rulesPerFolder)} rules, ${n(s.campaigns)} campaigns, ${n(s.auditLogEntries)} audit-log and ${n(s.ruleLogEntries)} rule-log entries, ${n(s.teamMembers)} team members. ` +
      `Load: autocannon, ${options.connections} connections, ${options.duration} s per call, ${options.timeout} s timeout; deep pages at offset ${n(options.deepOffset)}. ` +
      `Server: \`npm start\` (built app, real HTTP), LOG_LEVEL=${options.logLevel}, logged in through POST /api/token/ as the admin.` +
      (options.only ? ` Only the calls whose name contains "${options.only}" (--only).` : ''),
    '',
    'Read the ratios, not the requests per second: the bench, the server and the database share the same few cores (with whatever else the machine runs; see the load average), so absolute numbers move from run to run while ratios within one run hold better. How to read this: docs/bench.md.',
    '',
    "- **÷ me**: the call's requests/s divided by GET /api/user/me/'s (authentication and Fastify alone) in the same run; **p99 ÷ me** likewise for the 99th percentile latency.",
    '- **1 request ms**: median latency of one request at a time on the idle server, over one kept-open connection (as `pg` keeps one for the raw SQL). **Raw SQL ms**: the statements the server ran for that request, replayed one after another on one connection straight to the database (no HTTP, no app); **÷ raw SQL** is how much the app adds to the floor the database sets. **1 read ms** and **read ÷ raw SQL**: the same for a request that reads the database (Cache-Control: no-cache, as a hard reload sends).',
    options.fresh
      ? '- **Every request of this run read the database** (`--fresh`: each sent Cache-Control: no-cache, so the page cache never answered): what the lists cost when what they show keeps changing.'
      : '- **As served**: a list page asked for again is answered from the page cache (server/http/pageCache.ts) until something the lists show changes, and nothing changes during the bench, so after its first request each call is answered from memory. `npm run bench -- --load --fresh` measures every request reading the database (load-fresh-latest.md).',
    "- Targets: PostgreSQL, every list call ≥ 0.5 of me's req/s, 0 errors, p99 ≤ 3× me's, one request ≤ 1.5× its raw SQL, me ≥ 2,000 req/s; PGlite, every call ≥ 0.25 of me's req/s and 0 errors.",
    '',
    ...run.engines.flatMap((e) => engineSection(e, options)),
  ].join('\n');
}

/** The `lists` section of latest.json: per engine, per call, the six numbers. */
function listsSection(engines: EngineOutcome[]) {
  const round = (v: number | undefined, digits: number) =>
    v === undefined || !Number.isFinite(v) ? null : Number(v.toFixed(digits));
  return Object.fromEntries(
    engines.map((e) => [
      e.engine,
      Object.fromEntries(
        e.calls.map((c) => [
          c.key,
          {
            rps: round(c.key === 'me' ? e.me.rps : c.load?.rps, 1),
            p50_ms: round(c.load?.p50_ms, 2),
            p99_ms: round(c.key === 'me' ? e.me.p99_ms : c.load?.p99_ms, 2),
            errors: c.load ? c.load.errors : null,
            rps_ratio_to_me: round(c.key === 'me' ? 1 : c.rpsRatioToMe, 3),
            raw_sql_ratio: round(c.rawSqlRatio, 3),
            single_ms: round(c.singleMs, 3),
            raw_sql_ms: round(c.floorMs, 3),
            read_single_ms: round(c.readMs, 3),
            read_raw_sql_ratio: round(c.readRawSqlRatio, 3),
          },
        ]),
      ),
    ]),
  );
}

export async function writeLoadResults(run: LoadRun): Promise<{ markdown: string; files: string[] }> {
  const dir = run.options.resultsDir;
  await mkdir(dir, { recursive: true });
  const markdown = renderLoadReport(run);
  const stamp = run.startedAt.toISOString().replace(/[:.]/g, '-');
  const kind = run.options.fresh ? 'load-fresh' : 'load';
  const files = [
    path.join(dir, `${stamp}-${kind}.md`),
    path.join(dir, `${kind}-latest.md`),
    path.join(dir, 'latest.json'),
  ];
  await writeFile(files[0]!, markdown);
  // An engine not run this time keeps its last section in load-latest.md, marked with its run's date.
  const previous = await readFile(files[1]!, 'utf8').catch(() => '');
  const previousDate = /^# Load benchmark.* — (\S+)$/m.exec(previous)?.[1] ?? 'an earlier run';
  const kept = [...previous.matchAll(/<!-- engine: (\w+) -->\n([\s\S]*?)<!-- end engine -->\n/g)]
    .filter((m) => !run.engines.some((e) => e.engine === m[1]))
    .map(
      (m) =>
        `<!-- engine: ${m[1]} -->\n${m[2]!.replace(/^(### .*)$/m, `$1 — from the run of ${previousDate}`)}<!-- end engine -->\n`,
    );
  await writeFile(files[1]!, kept.length ? `${markdown}\n${kept.join('\n')}` : markdown);
  const existing = await readFile(files[2]!, 'utf8').then(
    (text) => JSON.parse(text) as Record<string, unknown>,
    () => ({}) as Record<string, unknown>,
  );
  // Engines not run this time keep their last numbers.
  const section = run.options.fresh ? 'lists_fresh' : 'lists';
  const lists = { ...((existing[section] as Record<string, unknown>) ?? {}), ...listsSection(run.engines) };
  await writeFile(files[2]!, `${JSON.stringify({ ...existing, [section]: lists }, null, 2)}\n`);
  return { markdown, files };
}
