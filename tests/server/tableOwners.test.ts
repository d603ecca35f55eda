/**
 * One owner per table: a table the areas share is written (insert, update, delete) by its owning
 * area's store only, and a run's pipeline phases reach the database through stores, never the schema.
 * A plain scan of the source: a drizzle call on the table (`.insert(ruleActivity)`) or raw SQL
 * naming it (`update rule_activity`, `insert into ${ruleActivity}`). A one-file resource's table
 * (shared/resources/, not in the schema) is named as each source imports it (`table as
 * alertDestinations`); the generic resource store writes every such table as `table`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../server/db/schema/index';
import { definedResources } from '../../server/resources/registry';
import { importGraph } from '../../scripts/importCycles';

const root = resolve(import.meta.dirname, '../..');

/**
 * Each table more than one area needs, and its writer: one store's file, the exact files of one store
 * composed of pieces, or an area's folder (ending in /).
 */
const OWNERS: Record<string, string | string[]> = {
  rule_activity: [
    'server/activity/claims.ts',
    'server/activity/claimOutcomes.ts',
    'server/activity/recordedEntries.ts',
    'server/activity/mailClaims.ts',
    'server/activity/undoExemptions.ts',
  ],
  rule_exemptions: 'server/activity/undoExemptions.ts',
  rule_runs: 'server/run/ledger.ts',
  account_health: 'server/health/store.ts',
  campaigns: 'server/campaigns/',
  rules: 'server/rules/',
  users: 'server/people/',
};

/** The writes of the generic store of the one-file resources (shared/resources/): each one's table as `table`. */
const RESOURCE_STORE = 'server/resources/resourceWrites.ts';

/**
 * A one-file resource's table another area writes too: the resource store owns the row (adds, edits,
 * deletes it); `columns` are kept by `writer`, which only updates them, and the resource store never
 * writes them (read-only fields of the definition).
 */
const RESOURCE_COLUMN_OWNERS: Record<string, { writer: string; columns: string[] }> = {
  alert_destinations: {
    writer: 'server/alerts/lastDelivery.ts',
    columns: [
      'last_delivery_at',
      'last_delivery_source',
      'last_answer_code',
      'last_delivery_error',
      'consecutive_failures',
    ],
  },
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
  for (const [table, owner] of Object.entries(OWNERS)) {
    const folder = typeof owner === 'string' && owner.endsWith('/') ? owner : null;
    const files = typeof owner === 'string' ? [owner] : owner;
    it(`${table} is written only ${folder ? 'in' : 'by'} ${files.join(', ')}`, () => {
      const exported = tableNames.get(table);
      expect(exported, `${table} in server/db/schema`).toBeDefined();
      const writers = sources.filter(({ text }) => writesOf(text, table, exported!).length).map(({ file }) => file);
      expect(writers.length).toBeGreaterThan(0);
      if (folder) expect(writers.filter((file) => !file.startsWith(folder))).toEqual([]);
      else expect(writers.sort()).toEqual([...files].sort());
    });
  }

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

const resources = await definedResources();

/** The names `source` gives a one-file resource's table: the local name of its file's `table` it imports. */
function namesIn(source: string, definitionFile: string): string[] {
  const file = definitionFile.replace(/\.ts$/, '');
  return [...source.matchAll(/import\s*(?:\w+\s*,\s*)?\{([^}]*)\}\s*from\s*'([^']+)'/g)]
    .filter(([, , from]) => from!.endsWith(file))
    .flatMap(([, names]) => [...names!.matchAll(/(?:^|,)\s*table(?:\s+as\s+(\w+))?\s*(?=,|$)/g)])
    .map((m) => m[1] ?? 'table');
}

/** The columns each `.update(name).set({ … })` of the source sets. */
function columnsSet(source: string, name: string): string[] {
  const update = new RegExp(`\\.update\\(\\s*(?:\\w+\\.)?${name}\\s*\\)\\s*\\.set\\(\\{([\\s\\S]*?)\\}\\)`, 'g');
  return [...source.matchAll(update)].flatMap((m) => [...m[1]!.matchAll(/^\s*(\w+):/gm)].map((key) => key[1]!));
}

describe("a one-file resource's table", () => {
  for (const [table, { writer, columns }] of Object.entries(RESOURCE_COLUMN_OWNERS)) {
    const resource = resources.find((r) => getTableName(r.table) === table);

    it(`${table} is written only by ${RESOURCE_STORE}, and its ${columns.join(', ')} by ${writer}`, () => {
      expect(resource, `${table} defined in shared/resources`).toBeDefined();
      const store = sources.find(({ file }) => file === RESOURCE_STORE)!;
      expect(writesOf(store.text, table, 'table')).toHaveLength(3);
      const writers = sources
        .filter(
          ({ file, text }) =>
            file !== RESOURCE_STORE && namesIn(text, resource!.file).some((name) => writesOf(text, table, name).length),
        )
        .map(({ file }) => file);
      expect(writers).toEqual([writer]);
    });

    it(`${writer} only updates ${table}'s ${columns.join(', ')}, which the resource store never writes`, () => {
      const { text } = sources.find(({ file }) => file === writer)!;
      const names = namesIn(text, resource!.file);
      const writes = names.flatMap((name) => writesOf(text, table, name));
      expect(writes.length).toBeGreaterThan(0);
      expect(writes.filter((write) => !write.startsWith('.update('))).toEqual([]);
      const set = names.flatMap((name) => columnsSet(text, name));
      expect(set.length).toBeGreaterThan(0);
      expect(set.filter((column) => !columns.includes(column))).toEqual([]);
      expect(columns.filter((column) => !resource!.spec.fields[column]?.readOnly)).toEqual([]);
    });
  }

  it('sees the names a source imports the table under, and the columns an update sets', () => {
    const file = 'shared/resources/alertDestinations.ts';
    expect(
      namesIn(
        "import { eq } from 'drizzle-orm';\nimport { table as hooks } from '../../shared/resources/alertDestinations';",
        file,
      ),
    ).toEqual(['hooks']);
    expect(namesIn("import spec, { table } from '../shared/resources/alertDestinations';", file)).toEqual(['table']);
    expect(namesIn("import { table as t } from './elsewhere';", file)).toEqual([]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template in the source, on purpose
    expect(columnsSet('db.update(hooks).set({\n  last_answer_code: 1,\n  name: sql`${x} + 1`,\n})', 'hooks')).toEqual([
      'last_answer_code',
      'name',
    ]);
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
