/**
 * The project's imports (server/, src/, bench/, scripts/; type-only ones included):
 * - no cycles: a module's meaning should be readable from what it imports, without coming back to itself;
 * - no import a "never" rule forbids (scripts/importCycles.ts's NEVER_RULES): which rooms of the
 *   server and which layers of the browser app stand on which.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CHECKED_FOLDERS,
  cycles,
  describeViolations,
  importGraph,
  NEVER_RULES,
  type NeverRule,
  neverViolations,
  patternMatcher,
  ruleTitle,
} from '../../scripts/importCycles';

const root = resolve(import.meta.dirname, '../..');
const graph = importGraph(root, CHECKED_FOLDERS);

describe('import cycles', () => {
  it('finds none in server/, src/, shared/, bench/ or scripts/', () => {
    expect(cycles(graph).map((cycle) => cycle.join(' ↔ '))).toEqual([]);
  });

  it("follows the resource registry's import.meta.glob to every resource folder and definition", () => {
    expect(graph.get('src/resources/index.ts')).toEqual(
      expect.arrayContaining(['src/resources/team/index.ts', 'src/resources/permissions/index.ts']),
    );
    expect(graph.get('src/resources/defined/registry.tsx')).toEqual(
      expect.arrayContaining(['shared/resources/adAccounts.ts', 'shared/resources/alertDestinations.ts']),
    );
  });

  it('would find one: the checker sees a two-module cycle and a longer one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts', 'c.ts']],
      ['c.ts', ['d.ts']],
      ['d.ts', ['e.ts']],
      ['e.ts', ['c.ts']],
      ['f.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([
      ['c.ts', 'd.ts', 'e.ts'],
      ['a.ts', 'b.ts'],
    ]);
  });
});

describe('never rules', () => {
  it.each(NEVER_RULES.map((rule) => [ruleTitle(rule), rule] as const))('%s', (_title, rule) => {
    const violations = neverViolations(graph, [rule]);
    if (violations.length) expect.fail(`\n${describeViolations(violations)}`);
  });

  it("names only modules that exist: every rule's from and to patterns match something in the graph", () => {
    const importers = [...graph.keys()];
    const imported = [...new Set([...graph.values()].flat())];
    const unmatched = NEVER_RULES.flatMap((rule) => [
      ...rule.from.filter((p) => !importers.some((m) => patternMatcher(p).test(m))).map((p) => `from ${p}`),
      ...rule.to.filter((p) => !imported.some((m) => patternMatcher(p).test(m))).map((p) => `to ${p}`),
    ]);
    expect(unmatched).toEqual([]);
  });

  it('would find a violation: the checker reports each forbidden edge with its rule, and spares the exceptions', () => {
    const rules: NeverRule[] = [
      { from: ['server/pure/'], to: ['server/db/', 'fastify'], why: 'pure' },
      { from: ['server/**/routes.ts', 'server/**/*Routes.ts'], to: ['drizzle-orm'], why: 'routes call stores' },
      { from: ['src/domain/'], to: ['src/'], except: ['src/domain/'], why: 'domain stands alone' },
    ];
    const synthetic = new Map([
      ['server/pure/decide.ts', ['server/pure/compare.ts', 'server/db/schema/index.ts', 'fastify', 'zod']],
      ['server/pure/compare.ts', ['fastify-type-provider-zod']],
      ['server/area/routes.ts', ['server/area/store.ts', 'drizzle-orm']],
      ['server/area/nested/userRoutes.ts', ['drizzle-orm/pg-core']],
      ['server/area/store.ts', ['drizzle-orm', 'server/db/schema/index.ts']],
      ['src/domain/rules.ts', ['src/domain/constants.ts', 'src/layout/Page.tsx']],
      ['src/domain/constants.ts', []],
    ]);
    const found = neverViolations(synthetic, rules);
    expect(found.map((v) => `${v.importer} → ${v.imported} (${v.rule.why})`)).toEqual([
      'server/pure/decide.ts → server/db/schema/index.ts (pure)',
      'server/pure/decide.ts → fastify (pure)',
      'server/area/routes.ts → drizzle-orm (routes call stores)',
      'server/area/nested/userRoutes.ts → drizzle-orm/pg-core (routes call stores)',
      'src/domain/rules.ts → src/layout/Page.tsx (domain stands alone)',
    ]);
    expect(describeViolations(found)).toContain(
      'server/pure/ never imports server/db/, fastify — pure; 2 imports break it:\n' +
        '  server/pure/decide.ts → server/db/schema/index.ts\n' +
        '  server/pure/decide.ts → fastify',
    );
  });

  describe('on files: type-only, re-exported and dynamic imports count, as do packages', () => {
    const fixture = mkdtempSync(join(tmpdir(), 'import-rules-'));
    afterAll(() => rmSync(fixture, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(fixture, path)), { recursive: true });
      writeFileSync(join(fixture, path), text);
    };

    it('sees them and breaks the rule', () => {
      write(
        'server/judgement/a.ts',
        "import type { Row } from '../db/schema';\nexport type { Job } from '../run/queue';\n",
      );
      write(
        'server/judgement/b.ts',
        "export const load = () => import('../alerts/send');\nimport type { FastifyInstance } from 'fastify';\n",
      );
      write('server/db/schema/index.ts', 'export type Row = { id: number };\n');
      write('server/run/queue.ts', 'export type Job = { id: number };\n');
      write('server/alerts/send.ts', 'export const send = () => undefined;\n');
      const found = neverViolations(importGraph(fixture, ['server']), [NEVER_RULES[0]!]);
      expect(found.map((v) => `${v.importer} → ${v.imported}`).sort()).toEqual([
        'server/judgement/a.ts → server/db/schema/index.ts',
        'server/judgement/a.ts → server/run/queue.ts',
        'server/judgement/b.ts → fastify',
        'server/judgement/b.ts → server/alerts/send.ts',
      ]);
    });
  });
});
