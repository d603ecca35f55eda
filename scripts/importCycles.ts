/**
 * Finds import cycles among the project's own modules (server/, src/, bench/, scripts/): every
 * relative import, type-only and dynamic ones included, since a cycle of types still ties two
 * modules' meanings together, and the modules vite's `import.meta.glob` brings in (the resource
 * registry's). Also checks the "never" rules: which folders never import which (NEVER_RULES).
 * Run by tests/server/importCycles.test.ts; `npx tsx scripts/importCycles.ts` prints both.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The folders checked: the product's (server/, src/), its benches and its scripts. */
export const CHECKED_FOLDERS = ['server', 'src', 'shared', 'bench', 'scripts'];

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs', '/index.ts', '/index.tsx'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(m?ts|tsx|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  if (existsSync(base) && statSync(base).isFile()) return base;
  const stripped = base.replace(/\.js$/, '');
  for (const ext of EXTENSIONS) if (existsSync(stripped + ext)) return stripped + ext;
  return null;
}

/** A relative glob of vite's (`*`, `**`, `{a,b}`) as a test of absolute paths from `dir`. */
function globMatcher(dir: string, pattern: string): RegExp {
  const source = resolve(dir, pattern)
    .split(/(\*\*\/|\*|\{[^}]*\})/)
    .map((part) => {
      if (part === '**/') return '(?:.*/)?';
      if (part === '*') return '[^/]*';
      if (part.startsWith('{')) return `(?:${part.slice(1, -1).split(',').map(escapeRegExp).join('|')})`;
      return escapeRegExp(part);
    })
    .join('');
  return new RegExp(`^${source}$`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The files an `import.meta.glob(…)` of this source names (string or array patterns; `!` excludes). */
function globImports(file: string, source: string, files: string[]): string[] {
  return [...source.matchAll(/import\.meta\.glob(?:<[^>]*>)?\(\s*(\[[^\]]*\]|'[^']*'|"[^"]*")/g)].flatMap((match) => {
    const patterns = [...match[1]!.matchAll(/'([^']*)'|"([^"]*)"/g)].map((m) => m[1] ?? m[2]!);
    const include = patterns.filter((p) => !p.startsWith('!')).map((p) => globMatcher(dirname(file), p));
    const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => globMatcher(dirname(file), p.slice(1)));
    return files.filter((f) => include.some((r) => r.test(f)) && !exclude.some((r) => r.test(f)));
  });
}

/**
 * Each module's imports: the relative ones that resolve to one of the project's files (as paths from
 * the root) and the packages it imports (as written: `fastify`, `drizzle-orm/pg-core`, `node:fs`).
 * Only files are keys, so a package is a leaf and never part of a cycle.
 */
export function importGraph(root: string, folders: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = folders.flatMap((folder) => sourceFiles(join(root, folder)));
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const { importedFiles } = ts.preProcessFile(source, true, true);
    const specifiers = importedFiles.map((i) => i.fileName);
    const targets = [
      ...specifiers
        .map((s) => resolveImport(file, s))
        .filter((t): t is string => t !== null)
        .map((t) => relative(root, t)),
      ...globImports(file, source, files).map((t) => relative(root, t)),
      ...specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('/')),
    ];
    graph.set(relative(root, file), [...new Set(targets)]);
  }
  return graph;
}

/**
 * A rule that modules under `from` never import one under `to` (type-only imports included), unless
 * the imported one is under `except`. A pattern is a path from the root: a folder ends in `/`
 * (`server/db/`); `*` stands for part of a name and a `**` segment for any folders (the route files'
 * rule below); a pattern without a trailing `/` also names what is under it, so `drizzle-orm` is
 * that package with its subpaths.
 */
export interface NeverRule {
  from: string[];
  to: string[];
  except?: string[];
  why: string;
}

export interface NeverViolation {
  importer: string;
  imported: string;
  rule: NeverRule;
}

export const NEVER_RULES: NeverRule[] = [
  {
    from: ['server/judgement/'],
    to: ['server/db/', 'server/run/', 'server/activity/', 'server/alerts/', 'server/http/', 'fastify', '@fastify/'],
    why: 'judgement is pure: it decides from what it is given, and neither reads nor writes, runs, records, alerts or answers requests',
  },
  {
    from: ['server/run/pipeline/'],
    to: ['server/db/schema/'],
    why: "a run's phases write through their area's store, not the tables",
  },
  {
    from: ['server/run/pipeline/'],
    to: ['drizzle-orm'],
    why: "a phase's SQL lives in its area's store",
  },
  {
    from: ['server/**/routes.ts', 'server/**/*Routes.ts'],
    to: ['server/db/schema/', 'drizzle-orm'],
    why: 'a route is a schema, a call to its store, a reply: queries live in the store',
  },
  {
    from: ['src/providers/'],
    to: ['src/resources/', 'src/custom-pages/'],
    why: 'the providers sit under the screens: resources and custom pages use them, never the other way',
  },
  {
    from: ['src/layout/'],
    to: ['src/resources/', 'src/custom-pages/'],
    why: 'the layout sits under the screens: resources and custom pages use it, never the other way',
  },
  {
    from: ['src/resources/'],
    to: ['src/custom-pages/'],
    why: 'resources and custom pages are siblings: what both need belongs in shared/, providers or layout',
  },
  {
    from: ['src/custom-pages/'],
    to: ['src/resources/'],
    why: 'resources and custom pages are siblings: what both need belongs in shared/, providers or layout',
  },
  {
    from: ['shared/'],
    to: ['src/', 'server/'],
    why: 'shared/ is the domain both the browser app and the server stand on: it stands on nothing of either',
  },
  {
    from: ['server/'],
    to: ['src/'],
    why: 'the server shares only shared/ with the browser app',
  },
  {
    from: ['server/', 'src/', 'shared/'],
    to: ['bench/'],
    why: 'the benches measure the product; the product never depends on them',
  },
];

/** A NeverRule pattern as a test of paths from the root (and of package names). */
export function patternMatcher(pattern: string): RegExp {
  const folder = pattern.endsWith('/');
  const source = pattern
    .replace(/\/$/, '')
    .split(/(\*\*\/|\*\*|\*)/)
    .map((part) => {
      if (part === '**/') return '(?:.*/)?';
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      return escapeRegExp(part);
    })
    .join('');
  return new RegExp(folder ? `^${source}/` : `^${source}(?:/|$)`);
}

const matchesAny = (patterns: string[] | undefined, path: string) =>
  (patterns ?? []).some((p) => patternMatcher(p).test(path));

/** Every import that breaks one of the rules, rule by rule, in the graph's order. */
export function neverViolations(graph: Map<string, string[]>, rules: NeverRule[]): NeverViolation[] {
  return rules.flatMap((rule) =>
    [...graph].flatMap(([importer, imports]) =>
      matchesAny(rule.from, importer)
        ? imports
            .filter((imported) => matchesAny(rule.to, imported) && !matchesAny(rule.except, imported))
            .map((imported) => ({ importer, imported, rule }))
        : [],
    ),
  );
}

export const ruleTitle = (rule: NeverRule) =>
  `${rule.from.join(', ')} never imports ${rule.to.join(', ')}${rule.except ? ` (except ${rule.except.join(', ')})` : ''}`;

/** The violations as lines: the rule, why, then each importer → imported. */
export function describeViolations(violations: NeverViolation[]): string {
  const byRule = new Map<NeverRule, NeverViolation[]>();
  for (const v of violations) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v]);
  return [...byRule]
    .map(
      ([rule, found]) =>
        `${ruleTitle(rule)} — ${rule.why}; ${found.length} import${found.length === 1 ? '' : 's'} break${found.length === 1 ? 's' : ''} it:\n` +
        found.map((v) => `  ${v.importer} → ${v.imported}`).join('\n'),
    )
    .join('\n\n');
}

/** The cycles of a graph: its strongly connected components with more than one module (Tarjan). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
  const graph = importGraph(root, CHECKED_FOLDERS);
  const found = cycles(graph);
  for (const cycle of found) console.log(cycle.join(' ↔ '));
  const violations = neverViolations(graph, NEVER_RULES);
  if (violations.length) console.log(describeViolations(violations));
  process.exitCode = found.length || violations.length ? 1 : 0;
}
