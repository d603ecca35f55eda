/**
 * One owner per table: a table the areas share is written (insert, update, delete) by its owning
 * area's store only, and a run's pipeline phases reach the database through stores, never the schema.
 * A plain scan of the source: a drizzle call on the table (`.insert(ruleActivity)`) or raw SQL
 * naming it (`update rule_activity`, `insert into ${ruleActivity}`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../server/db/schema/index';
import { importGraph } from '../../scripts/importCycles';

const root = resolve(import.meta.dirname, '../..');

/** Each table more than one area needs, and its writer: one store's file, or an area's folder (ending in /). */
const OWNERS: Record<string, string> = {
  rule_activity: 'server/activity/entries.ts',
  rule_exemptions: 'server/activity/entries.ts',
  rule_runs: 'server/run/ledger.ts',
  account_health: 'server/health/store.ts',
  campaigns: 'server/campaigns/',
};

const tableNames = new Map(
  (Object.entries(schema) as [string, unknown][])
    .filter((entry): entry is [string, PgTable] => is(entry[1], PgTable))
    .map(([exported, table]) => [getTableName(table), exported]),
);

/** Where `source` writes the table (SQL name `table`, exported from the schema as `exported`). */
function writesOf(source: string, table: string, exported: string): string[] {
  const drizzle = new RegExp(`\\.(insert|update|delete)\\(\\s*(?:\\w+\\.)?${exported}\\b`, 'g');
  const raw = new RegExp(
    `\\b(insert\\s+into|update|delete\\s+from)\\s+(?:"?${table}\\b|\\$\\{\\s*(?:\\w+\\.)?${exported}\\s*\\})`,
    'gi',
  );
  return [...source.matchAll(drizzle), ...source.matchAll(raw)].map((m) => m[0]);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return path.endsWith(join('db', 'schema')) ? [] : sourceFiles(path);
    return /\.(m?ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const sources = sourceFiles(join(root, 'server')).map((path) => ({
  file: relative(root, path),
  text: readFileSync(path, 'utf8'),
}));

describe('table owners', () => {
  for (const [table, owner] of Object.entries(OWNERS))
    it(`${table} is written only ${owner.endsWith('/') ? 'in' : 'by'} ${owner}`, () => {
      const exported = tableNames.get(table);
      expect(exported, `${table} in server/db/schema`).toBeDefined();
      const writers = sources.filter(({ text }) => writesOf(text, table, exported!).length).map(({ file }) => file);
      expect(writers.length).toBeGreaterThan(0);
      expect(writers.filter((file) => (owner.endsWith('/') ? !file.startsWith(owner) : file !== owner))).toEqual([]);
    });

  it('sees a write in each form it looks for, and not a read', () => {
    const found = (source: string) => writesOf(source, 'rule_activity', 'ruleActivity');
    expect(found('await tx\n  .insert(ruleActivity)\n  .values(v)')).toHaveLength(1);
    expect(found('db.update(schema.ruleActivity).set(x)')).toHaveLength(1);
    expect(found('db.delete( ruleActivity )')).toHaveLength(1);
    expect(found('sql`update rule_activity set state = 1`')).toHaveLength(1);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template in the source, on purpose
    expect(found('sql`insert into ${ruleActivity} (id) values (1)`')).toHaveLength(1);
    expect(found('sql`delete from "rule_activity" where id = 1`')).toHaveLength(1);
    expect(found('db.select().from(ruleActivity); db.update(ruleActivityLog)')).toEqual([]);
  });
});

describe("a run's pipeline phases", () => {
  it('never import the database schema: they read and write through stores', () => {
    const graph = importGraph(root, ['server']);
    const imports = [...graph].flatMap(([file, imported]) =>
      file.startsWith('server/run/pipeline/')
        ? imported.filter((target) => target.startsWith('server/db/schema/')).map((target) => `${file} → ${target}`)
        : [],
    );
    expect(imports).toEqual([]);
  });
});
