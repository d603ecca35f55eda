/**
 * No import cycles among the product's modules (server/ and src/), type-only imports included:
 * a module's meaning should be readable from what it imports, without coming back to itself.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph } from '../../scripts/importCycles';

const root = resolve(import.meta.dirname, '../..');

describe('import cycles', () => {
  const found = cycles(importGraph(root, ['server', 'src']));

  it('finds none in server/ or src/', () => {
    expect(found.map((cycle) => cycle.join(' ↔ '))).toEqual([]);
  });

  it("follows the resource registry's import.meta.glob to every resource folder and definition", () => {
    const graph = importGraph(root, ['src']);
    expect(graph.get('src/resources/index.ts')).toEqual(
      expect.arrayContaining(['src/resources/team/index.ts', 'src/resources/permissions/index.ts']),
    );
    expect(graph.get('src/resources/defined/registry.tsx')).toEqual(
      expect.arrayContaining(['src/domain/resources/adAccounts.ts', 'src/domain/resources/alertDestinations.ts']),
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
