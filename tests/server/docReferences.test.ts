/**
 * The code's pointers into docs/ and the docs' pointers into the code hold:
 * - a comment (or string) in server/, src/, shared/, bench/ or scripts/ that names a section of a doc —
 *   `docs/engine.md, "Budget changes"`, `docs/engine.md "Budget changes"` or
 *   `docs/architecture.md#how-a-request-flows` — names a doc that exists and a heading of it (its text, or
 *   GitHub's anchor for it);
 * - every repository path docs/*.md and README.md write in backticks (`server/run/worker.ts`) exists.
 * The migrations' SQL is left as it was written.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

const SCANNED_FOLDERS = ['server', 'src', 'shared', 'bench', 'scripts'];
const SKIPPED_FOLDERS = ['server/db/migrations', 'node_modules'];
const SOURCE_FILE = /\.(m?ts|tsx|m?js|cjs)$/;
/** The repository's top-level folders a path in the docs starts with. */
const REPOSITORY_FOLDERS = ['server', 'src', 'shared', 'tests', 'bench', 'scripts', 'docs', 'deploy'];
/** Paths the docs name that are not meant to exist: docs/adding-a-resource.md's example, which the reader creates. */
const EXAMPLE_PATHS = ['shared/resources/holidays.ts'];

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (SKIPPED_FOLDERS.some((skipped) => path === skipped || name === skipped)) return [];
    if (statSync(join(root, path)).isDirectory()) return filesUnder(path);
    return SOURCE_FILE.test(name) ? [path] : [];
  });
}

/** Markdown without its fenced code blocks, whose lines are neither headings nor inline code. */
function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
}

/** The text of every heading (`## Budget changes` → `Budget changes`). */
function headingsOf(markdown: string): string[] {
  return [...withoutCodeBlocks(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((m) => m[1]!);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * The section references in `source` naming no heading of `docs` (file name → its markdown), as
 * written (`docs/engine.md, "Ceilings"`). A reference may run over comment lines: they are joined first.
 */
function missingSections(source: string, docs: Map<string, string>): string[] {
  const joined = source.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ');
  const missing: string[] = [];
  for (const m of joined.matchAll(/docs\/([\w.-]+\.md)(?:#([\w-]+)|,?\s+"([^"]+)")/g)) {
    const [reference, file, anchor, title] = m as unknown as [string, string, string?, string?];
    const markdown = docs.get(file);
    const headings = markdown === undefined ? [] : headingsOf(markdown);
    const found = anchor
      ? headings.some((heading) => anchorOf(heading) === anchor)
      : headings.some((heading) => heading.toLowerCase() === title!.trim().toLowerCase());
    if (!found) missing.push(reference);
  }
  return missing;
}

/** The repository paths a markdown text writes in backticks, less globs and placeholders (`<area>`). */
function repositoryPathsOf(markdown: string): string[] {
  const startsInRepository = new RegExp(`^(?:${REPOSITORY_FOLDERS.join('|')})/`);
  return [...withoutCodeBlocks(markdown).matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!)
    .filter((text) => startsInRepository.test(text) && !/[*{}<>]/.test(text))
    .map((path) => path.replace(/\/$/, ''));
}

const docs = new Map(
  readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => [name, readFileSync(join(root, 'docs', name), 'utf8')]),
);

describe('references between the code and docs/', () => {
  it('every docs section a comment names exists', () => {
    const missing = SCANNED_FOLDERS.flatMap(filesUnder).flatMap((file) =>
      missingSections(readFileSync(join(root, file), 'utf8'), docs).map((reference) => `${file}: ${reference}`),
    );
    expect(missing).toEqual([]);
  });

  it('every repository path the docs and the README write exists', () => {
    const markdownFiles = [...[...docs.keys()].map((name) => `docs/${name}`), 'README.md'];
    const missing = markdownFiles.flatMap((file) =>
      repositoryPathsOf(readFileSync(join(root, file), 'utf8'))
        .filter((path) => !EXAMPLE_PATHS.includes(path) && !existsSync(join(root, path)))
        .map((path) => `${file}: ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it('reports a made-up heading and accepts real ones, however written', () => {
    const madeUpDocs = new Map([
      ['engine.md', '# Rule semantics\n\n## Budget changes\n\n```sh\n# Not a heading\n```\n'],
    ]);
    const source = [
      '/** Raises (docs/engine.md, "Budget changes"), also docs/engine.md "budget changes" and',
      ' * docs/engine.md#budget-changes; but docs/engine.md, "Ceilings on growth", docs/engine.md#ceilings,',
      ' * docs/engine.md, "Not a heading" and docs/missing.md, "Budget changes" are not there. */',
      '// A reference over two lines: docs/engine.md, "Budget',
      '// changes".',
    ].join('\n');
    expect(missingSections(source, madeUpDocs)).toEqual([
      'docs/engine.md, "Ceilings on growth"',
      'docs/engine.md#ceilings',
      'docs/engine.md, "Not a heading"',
      'docs/missing.md, "Budget changes"',
    ]);
  });

  it('reads repository paths from backticks, less globs and placeholders', () => {
    const markdown =
      'See `server/run/worker.ts`, `shared/`, `tests/server/<area>/routes.test.ts`, `bench/*.ts`, `npm start`.';
    expect(repositoryPathsOf(markdown)).toEqual(['server/run/worker.ts', 'shared']);
    expect(anchorOf('Server (`server/`)')).toBe('server-server');
  });
});
