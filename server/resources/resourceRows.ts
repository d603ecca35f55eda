/**
 * What a one-file resource's definition makes of its table: the column each field names, and a row
 * as the API answers it (secrets masked, dates as ISO text), as a saved check reads it (in clear)
 * and as the audit log shows it.
 */
import { getTableColumns, type AnyColumn } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { MASKED, type FieldSpec } from '../../shared/resources/define';
import type { CredentialCipher } from '../rules/credentials';
import type { DefinedResource } from './registry';
import { openSecret, shownSecret } from './secrets';

export type ResourceRecord = Record<string, unknown>;
export type Row = Record<string, unknown>;

export const columnKey = (name: string, field: FieldSpec) => field.column ?? name;

export function resourceRowsOf(resource: DefinedResource, cipher: CredentialCipher) {
  const { spec } = resource;
  const table = resource.table as PgTable & Record<string, AnyColumn>;
  const fields = Object.entries(spec.fields);
  const columnOf = (name: string) => table[columnKey(name, spec.fields[name]!)]!;

  /** What the log shows of a record: its fields by label, a secret only as "set". */
  const shown = (record: ResourceRecord) =>
    Object.fromEntries(
      fields
        .filter(([, field]) => !field.readOnly)
        .map(([name, field]) => [field.label, field.kind === 'secret' ? 'set' : record[name]]),
    );

  return {
    spec,
    table,
    fields,
    cipher,
    columnOf,
    idColumn: spec.idField ? columnOf(spec.idField) : table.id!,
    /** The resource's name in the log ("Added alert destination …"). */
    one: spec.labels.one.toLowerCase(),
    // The table's columns and the computed fields, the row's keys as db.select() alone gives them.
    selection: { ...getTableColumns(table), ...resource.computed },

    toRecord: (row: Row): ResourceRecord => ({
      ...(spec.idField ? {} : { id: row.id }),
      ...Object.fromEntries(
        fields.map(([name, field]) => {
          const value = row[columnKey(name, field)];
          if (field.kind === 'secret') return [name, shownSecret(cipher, value)];
          if (value instanceof Date) return [name, value.toISOString()];
          return [name, value ?? null];
        }),
      ),
    }),

    /** The record as it will be saved, in clear: the input's values over the stored ones. */
    savedRecord: (input: ResourceRecord, stored: Row | null): ResourceRecord =>
      Object.fromEntries(
        fields.map(([name, field]) => {
          const given = name in input && !(field.kind === 'secret' && MASKED.test(String(input[name])));
          if (given) return [name, input[name] ?? null];
          const value = stored?.[columnKey(name, field)] ?? null;
          return [name, field.kind === 'secret' ? openSecret(cipher, value) : value];
        }),
      ),

    shown,

    titleOf: (record: ResourceRecord) => String(record.name ?? record[spec.idField ?? 'id']),
  };
}

export type ResourceRows = ReturnType<typeof resourceRowsOf>;
