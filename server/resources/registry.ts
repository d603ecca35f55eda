/**
 * The resources defined in one file each (shared/resources/): every module there that
 * default-exports a definition, with its table — the module's own `table` export, or the table of
 * server/db/schema the definition names — and the fields it computes. Nothing else lists them.
 */
import { readdirSync } from 'node:fs';
import { getTableName, is, type SQL } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { ResourceSpec } from '../../shared/resources/define';
import * as schema from '../db/schema/index';

export interface DefinedResource {
  spec: ResourceSpec;
  table: PgTable;
  /** Read-only fields the server works out per row (the file's `computed` export): field → SQL. */
  computed: Record<string, SQL>;
  /** The definition file, from the repository's root. */
  file: string;
}

const FOLDER = new URL('../../shared/resources/', import.meta.url);

const schemaTables = new Map<string, PgTable>(
  (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => [getTableName(table), table]),
);

export async function definedResources(): Promise<DefinedResource[]> {
  const files = readdirSync(FOLDER)
    .filter((name) => /^[a-zA-Z]+\.ts$/.test(name))
    .sort();
  const loaded = await Promise.all(
    files.map(async (name) => {
      const module = (await import(new URL(name, FOLDER).href)) as {
        default?: ResourceSpec;
        table?: PgTable;
        computed?: Record<string, SQL>;
      };
      const spec = module.default;
      if (!spec?.name || !spec.fields) return null;
      const table = module.table ?? schemaTables.get(spec.table);
      if (!table || getTableName(table) !== spec.table)
        throw new Error(`${name}: no table ${spec.table} in the file or in server/db/schema`);
      const computed = module.computed ?? {};
      for (const field of Object.keys(computed))
        if (!spec.fields[field]?.readOnly) throw new Error(`${name}: computed ${field} is not a read-only field`);
      return { spec, table, computed, file: `shared/resources/${name}` };
    }),
  );
  return loaded.filter((resource): resource is DefinedResource => resource !== null);
}
