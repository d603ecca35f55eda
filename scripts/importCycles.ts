/**
 * Finds import cycles among the product's own modules (server/ and src/): every relative import,
 * type-only ones included, since a cycle of types still ties two modules' meanings together.
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

/** Each module's relative imports that resolve to one of the product's files. */
export function importGraph(root: string, folders: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of folders.flatMap((folder) => sourceFiles(join(root, folder)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
    const targets = importedFiles.map((i) => resolveImport(file, i.fileName)).filter((t): t is string => t !== null);
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
