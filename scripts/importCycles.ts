/**
 * Finds import cycles among the product's own modules (server/ and src/): every relative import,
 * type-only and dynamic ones included, since a cycle of types still ties two modules' meanings
 * together, and the modules vite's `import.meta.glob` brings in (the resource registry's).
 * Run by tests/server/importCycles.test.ts; `npx tsx scripts/importCycles.ts` prints them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

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

/** Each module's relative imports that resolve to one of the product's files. */
export function importGraph(root: string, folders: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = folders.flatMap((folder) => sourceFiles(join(root, folder)));
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const { importedFiles } = ts.preProcessFile(source, true, true);
    const targets = [
      ...importedFiles.map((i) => resolveImport(file, i.fileName)).filter((t): t is string => t !== null),
      ...globImports(file, source, files),
    ];
    graph.set(relative(root, file), [...new Set(targets.map((t) => relative(root, t)))]);
  }
  return graph;
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
  const found = cycles(importGraph(root, ['server', 'src']));
  for (const cycle of found) console.log(cycle.join(' ↔ '));
  process.exitCode = found.length ? 1 : 0;
}
