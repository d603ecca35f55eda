/** The bench report, in Markdown: what was measured, the ratios, the plans and the bundle. */
import { BARE_REACT_ADMIN, type BundleReport } from './bundle';
import type { ExplainedCall, TableScan } from './explain';
import type { CallTiming } from './measure';
import type { BenchOptions } from './options';
import type { Scale } from './scale';
import type { SeedCounts } from './seed';

export interface EngineResult {
  engine: 'pglite' | 'postgres';
  version: string;
  seeded: { small: SeedCounts; large: SeedCounts };
  timings: CallTiming[];
}

export interface BenchResult {
  startedAt: Date;
  seconds: number;
  machine: string;
  revision: string;
  options: BenchOptions;
  engines: EngineResult[];
  explain: { engine: string; calls: ExplainedCall[] } | null;
  bundle: BundleReport | { error: string } | null;
}

/** A large/small ratio above this is flagged: the call grows with the data. */
export const GROWTH_FLAG = 3;

const n = (value: number) => value.toLocaleString('en-US');
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));
const kb = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const ratio = (value: number) => (value >= GROWTH_FLAG ? `**×${value.toFixed(2)}**` : `×${value.toFixed(2)}`);
const sizes = (s: { results: number | null; total: number | null }) =>
  s.results === null ? '—' : `${n(s.results)} of ${n(s.total ?? 0)}`;

const scaleText = (scale: Scale) =>
  `${n(scale.folders)} folders / ${n(scale.folders * scale.rulesPerFolder)} rules / ${n(scale.campaigns)} campaigns / ` +
  `${n(scale.folders * scale.rulesPerFolder * scale.logPerRule)} audit-log and ${n(scale.folders * scale.rulesPerFolder * scale.activityPerRule)} rule-log entries`;

function engineSection(result: EngineResult): string[] {
  const title = result.engine === 'pglite' ? `Embedded PGlite (${result.version})` : result.version;
  const seeded = (s: SeedCounts) =>
    `${n(s.folders)} folders, ${n(s.rules)} rules, ${n(s.campaigns)} campaigns, ${n(s.auditLog)} audit-log, ${n(s.ruleActivity)} rule-log entries (${s.seconds.toFixed(1)} s)`;
  const lines = [
    `### ${title}`,
    '',
    `Seeded small: ${seeded(result.seeded.small)}; large: ${seeded(result.seeded.large)}.`,
    '',
    '| Endpoint | Call | Small, median ms | Large, median ms | Large / small | Results (small · large) | Rounds |',
    '|---|---|---:|---:|---:|---|---:|',
  ];
  for (const t of result.timings) {
    lines.push(
      `| ${t.endpoint} | ${t.name} | ${ms(t.small.medianMs)} | ${ms(t.large.medianMs)} | ${ratio(t.ratio)} | ${sizes(t.small)} · ${sizes(t.large)} | ${t.rounds} |`,
    );
  }
  const grown = result.timings.filter((t) => t.ratio >= GROWTH_FLAG);
  lines.push(
    '',
    grown.length
      ? `Grows with the data (×${GROWTH_FLAG} or more): ${grown.map((t) => `${t.endpoint} ${t.name} (×${t.ratio.toFixed(1)})`).join('; ')}.`
      : `No call grows ×${GROWTH_FLAG} or more.`,
    '',
  );
  return lines;
}

const scanText = (s: TableScan) =>
  s.node === 'Seq Scan'
    ? `**Seq Scan ${s.table}** (${n(s.rowsRead)} rows)`
    : `${s.node} ${s.table}${s.indexes.length ? ` via ${[...new Set(s.indexes)].join(', ')}` : ''} (${n(s.rowsRead)} rows)`;

function explainSection(explain: NonNullable<BenchResult['explain']>): string[] {
  const lines = [
    `## Query plans at the large scale (${explain.engine})`,
    '',
    'EXPLAIN ANALYZE of every statement each call ran, as captured from the app (full SQL and plans below the table). A scan of a big table (folders, rules, audit_log, rule_activity, campaigns) is either an index scan or a **Seq Scan**; "rows" is how many rows that scan read, including rows its filter then dropped. A statement is either "rows" (the page, or the rules of its folders) or "count" (the page\'s total, which reads every matching row whatever the index).',
    '',
    '| Endpoint | Call | Statement | Scans of big tables | Verdict |',
    '|---|---|---|---|---|',
  ];
  const scans: string[] = [];
  for (const call of explain.calls) {
    call.queries.forEach((q, i) => {
      const verdict = q.seqScans.length
        ? `**SCAN** (${n(q.rowsRead)} rows read)`
        : `index (${n(q.rowsRead)} rows read)`;
      lines.push(
        `| ${call.endpoint} | ${call.name} | ${i + 1} (${q.role}) | ${q.scans.map(scanText).join('; ')} | ${verdict} |`,
      );
      if (q.seqScans.length)
        scans.push(
          `${call.endpoint} ${call.name}, statement ${i + 1} (${q.role}): ${q.seqScans.map((s) => `${s.table} (${n(s.rowsRead)} rows)`).join(', ')}`,
        );
    });
  }
  lines.push(
    '',
    scans.length
      ? `Sequential scans of big tables:\n\n${scans.map((s) => `- ${s}`).join('\n')}`
      : 'No sequential scan of a big table.',
    '',
  );
  for (const call of explain.calls.filter((c) => c.queries.length)) {
    lines.push(
      `<details><summary>${call.endpoint} — ${call.name}: <code>${call.url.replace(/&/g, '&amp;')}</code></summary>`,
      '',
    );
    for (const [i, q] of call.queries.entries()) {
      lines.push(`Statement ${i + 1}:`, '', '```sql', q.sql, '```', '', '```', q.plan, '```', '');
    }
    lines.push('</details>', '');
  }
  return lines;
}

function bundleSection(bundle: BenchResult['bundle']): string[] {
  if (!bundle) return ['## Browser bundle', '', 'Skipped (--no-bundle).', ''];
  if ('error' in bundle)
    return ['## Browser bundle', '', 'The production build failed:', '', '```', bundle.error, '```', ''];
  const lines = [
    '## Browser bundle',
    '',
    `Production \`vite build\` (${bundle.buildSeconds.toFixed(0)} s). Loaded up front = index.html's module script and its modulepreload chunks; kB = 1,000 bytes, gzip at zlib's default level (as vite reports).`,
    '',
    '| Up-front JavaScript | Raw kB | Gzip kB |',
    '|---|---:|---:|',
    ...bundle.upFront.map((c) => `| ${c.file} | ${kb(c.rawKb)} | ${kb(c.gzipKb)} |`),
    `| **Total up front** | **${kb(bundle.upFrontRawKb)}** | **${kb(bundle.upFrontGzipKb)}** |`,
    `| Bare react-admin app (docs/decisions.md) | ${kb(BARE_REACT_ADMIN.rawKb)} | ${kb(BARE_REACT_ADMIN.gzipKb)} |`,
    `| **Up front / bare react-admin** | **×${(bundle.upFrontRawKb / BARE_REACT_ADMIN.rawKb).toFixed(2)}** | **×${(bundle.upFrontGzipKb / BARE_REACT_ADMIN.gzipKb).toFixed(2)}** |`,
    '',
    `All JavaScript of the build, including ${bundle.lazyChunks} chunks loaded on demand: ${kb(bundle.allJsRawKb)} kB raw, ${kb(bundle.allJsGzipKb)} kB gzip.` +
      (bundle.css.length
        ? ` CSS up front: ${bundle.css.map((c) => `${kb(c.rawKb)} kB raw / ${kb(c.gzipKb)} kB gzip`).join(', ')}.`
        : ''),
    '',
  ];
  return lines;
}

export function renderReport(result: BenchResult): string {
  const { options } = result;
  return [
    `# Benchmark — ${result.startedAt.toISOString()}`,
    '',
    `${result.machine}; ${result.revision}. Whole run: ${result.seconds.toFixed(0)} s.`,
    '',
    'Read ratios, not milliseconds: both scales run in the same process, alternating call by call, so the ratio holds on a busy machine where absolute times do not. How to read this: docs/bench.md.',
    '',
    '## API list calls: large / small',
    '',
    `- Small: ${scaleText(options.small)}`,
    `- Large: ${scaleText(options.large)}`,
    `- Each call: one pass over every call, then per call ${options.warmup} warm-up rounds and up to ${options.rounds} timed rounds per scale, alternating small and large (fewer when a call's rounds pass ${options.callSeconds} s, never under 5); the median. Real app (buildApp, fastify.inject) as a superuser; each page asks for the same number of results at both scales.`,
    '',
    ...result.engines.flatMap(engineSection),
    ...(result.explain ? explainSection(result.explain) : ['## Query plans', '', 'Not run.', '']),
    ...bundleSection(result.bundle),
  ].join('\n');
}
