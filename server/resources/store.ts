/**
 * The data access of a resource defined in one file: list, find, create, update and delete over
 * its table, each change with its audit entry in the same transaction. Fields are read and written
 * as the definition says: a secret is encrypted on the way in and masked on the way out (a masked
 * value sent back keeps the stored one), a reference must name a row that exists and is not gone.
 */
import { asc, count, desc, eq, getTableColumns, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { MASKED, NEEDS_REENTRY, type FieldSpec } from '../../shared/resources/define';
import { describeChanges, describeValues, recordAudit, type AuditActor } from '../audit/log';
import type { Database } from '../db/client';
import { ValidationError } from '../http/errors';
import { commaList, slice, type PageRequest, type Slice, sortKeyName } from '../http/pagination';
import { searchAny } from '../http/search';
import { maskSecret, opens, type CredentialCipher } from '../rules/credentials';
import type { DefinedResource } from './registry';

export type ResourceRecord = Record<string, unknown>;
type Row = Record<string, unknown>;

/**
 * A resource's own check of a record about to be saved (its values in clear, the stored ones where
 * the input leaves them; `id` null when new): answers its problems per field, none when it may be saved.
 */
export type SavedCheck = (record: ResourceRecord, id: string | number | null) => Promise<Record<string, string[]>>;

/** How a stored secret is answered: masked, '' when none, NEEDS_REENTRY when the server's key no longer opens it. */
export const shownSecret = (cipher: CredentialCipher, stored: unknown): string =>
  typeof stored === 'string' && stored && !opens(cipher, stored)
    ? NEEDS_REENTRY
    : maskSecret(openSecret(cipher, stored));

/** A stored secret in clear ('' when the server's key no longer opens it). */
export function openSecret(cipher: CredentialCipher, stored: unknown): string {
  try {
    return typeof stored === 'string' && stored ? cipher.decryptText(stored) : '';
  } catch {
    return '';
  }
}

const columnKey = (name: string, field: FieldSpec) => field.column ?? name;

export function createResourceStore(
  db: Database,
  { resource, cipher, check }: { resource: DefinedResource; cipher: CredentialCipher; check?: SavedCheck },
) {
  const { spec } = resource;
  const table = resource.table as PgTable & Record<string, AnyColumn>;
  const fields = Object.entries(spec.fields);
  const columnOf = (name: string) => table[columnKey(name, spec.fields[name]!)]!;
  const idColumn = spec.idField ? columnOf(spec.idField) : table.id!;
  const one = spec.labels.one.toLowerCase();
  // The table's columns and the computed fields, the row's keys as db.select() alone gives them.
  const selection = { ...getTableColumns(table), ...resource.computed };

  const toRecord = (row: Row): ResourceRecord => ({
    ...(spec.idField ? {} : { id: row.id }),
    ...Object.fromEntries(
      fields.map(([name, field]) => {
        const value = row[columnKey(name, field)];
        if (field.kind === 'secret') return [name, shownSecret(cipher, value)];
        if (value instanceof Date) return [name, value.toISOString()];
        return [name, value ?? null];
      }),
    ),
  });

  async function referenceExists(field: Extract<FieldSpec, { kind: 'reference' }>, id: number) {
    const gone = field.goneColumn ? sql` and not ${sql.identifier(field.goneColumn)}` : sql``;
    const rows = await db.execute(
      sql`select 1 from ${sql.identifier(field.table)} where ${sql.identifier('id')} = ${id}${gone}`,
    );
    return (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows).length > 0;
  }

  /** The record as it will be saved, in clear: the input's values over the stored ones. */
  const savedRecord = (input: ResourceRecord, stored: Row | null): ResourceRecord =>
    Object.fromEntries(
      fields.map(([name, field]) => {
        const given = name in input && !(field.kind === 'secret' && MASKED.test(String(input[name])));
        if (given) return [name, input[name] ?? null];
        const value = stored?.[columnKey(name, field)] ?? null;
        return [name, field.kind === 'secret' ? openSecret(cipher, value) : value];
      }),
    );

  /** The row values of the fields given; secrets sealed unless their mask came back. */
  async function rowValues(input: ResourceRecord, stored: Row | null, id: string | number | null = null): Promise<Row> {
    const values: Row = {};
    const problems: Record<string, string[]> = {};
    for (const [name, field] of fields) {
      if (field.readOnly || !(name in input)) continue;
      const value = input[name] ?? null;
      if (field.kind === 'reference' && value !== null && !(await referenceExists(field, value as number)))
        problems[name] = [`Select a ${field.label.toLowerCase()} from the list`];
      if (field.kind === 'secret') {
        const kept = stored ? shownSecret(cipher, stored[columnKey(name, field)]) : '';
        if (stored && kept !== NEEDS_REENTRY && value === kept) continue;
        if (MASKED.test(String(value)) || value === NEEDS_REENTRY) {
          problems[name] = [`Enter the ${field.label.toLowerCase()} again`];
          continue;
        }
        values[columnKey(name, field)] = cipher.encryptText(String(value));
      } else values[columnKey(name, field)] = value;
    }
    if (!Object.keys(problems).length && check) Object.assign(problems, await check(savedRecord(input, stored), id));
    if (Object.keys(problems).length) throw new ValidationError(problems);
    return values;
  }

  /** What the log shows of a record: its fields by label, a secret only as "set". */
  const shown = (record: ResourceRecord) =>
    Object.fromEntries(
      fields
        .filter(([, field]) => !field.readOnly)
        .map(([name, field]) => [field.label, field.kind === 'secret' ? 'set' : record[name]]),
    );

  const titleOf = (record: ResourceRecord) => String(record.name ?? record[spec.idField ?? 'id']);

  const ordering = (raw: unknown): SQL[] => {
    const terms: SQL[] = [];
    for (const key of [...commaList(raw), ...(spec.list?.ordering ? [spec.list.ordering] : [])]) {
      const name = sortKeyName(key);
      const field = spec.fields[name];
      if (!field?.sortable && name !== 'id') continue;
      const column = name === 'id' ? idColumn : columnOf(name);
      const term = field?.kind === 'text' ? sql`lower(${column})` : sql`${column}`;
      terms.push(key.startsWith('-') ? desc(term) : asc(term));
    }
    return [...terms, asc(idColumn)];
  };

  const findRow = async (id: string | number) =>
    ((await db.select(selection).from(table).where(eq(idColumn, id)))[0] as Row | undefined) ?? null;

  return {
    async list(
      { limit, offset }: PageRequest,
      query: { ordering?: string; search?: string },
    ): Promise<Slice<ResourceRecord>> {
      const where = searchAny(
        query.search,
        (spec.search ?? []).map((name) => columnOf(name)),
      );
      const { count: total, results } = await slice(
        db
          .select(selection)
          .from(table)
          .where(where)
          .orderBy(...ordering(query.ordering))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(table).where(where),
      );
      return { count: total, results: (results as Row[]).map(toRecord) };
    },

    async find(id: string | number): Promise<ResourceRecord | null> {
      const row = await findRow(id);
      return row && toRecord(row);
    },

    async create(actor: AuditActor, input: ResourceRecord): Promise<ResourceRecord> {
      const values = await rowValues(input, null);
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(table).values(values).returning();
        const record = toRecord(row as Row);
        await recordAudit(tx, actor, {
          action: `Added ${one} ${titleOf(record)}`,
          changesText: describeValues(shown(record)),
        });
        return record;
      });
    },

    async update(actor: AuditActor, id: string | number, changes: ResourceRecord): Promise<ResourceRecord | null> {
      const stored = await findRow(id);
      if (!stored) return null;
      const values = await rowValues(changes, stored, id);
      return db.transaction(async (tx) => {
        const [row] = Object.keys(values).length
          ? await tx.update(table).set(values).where(eq(idColumn, id)).returning()
          : [stored];
        const before = shown(toRecord(stored));
        const record = toRecord(row as Row);
        const secretChanged = fields.some(([name, f]) => f.kind === 'secret' && columnKey(name, f) in values);
        const after = {
          ...shown(record),
          ...Object.fromEntries(
            fields.filter(([, f]) => f.kind === 'secret').map(([, f]) => [f.label, secretChanged ? 'changed' : 'set']),
          ),
        };
        const changesText = describeChanges(
          Object.fromEntries(Object.keys(after).map((k) => [k, [before[k], after[k]]])),
        );
        if (changesText) await recordAudit(tx, actor, { action: `Changed ${one} ${titleOf(record)}`, changesText });
        return record;
      });
    },

    async remove(actor: AuditActor, id: string | number): Promise<boolean> {
      const stored = await findRow(id);
      if (!stored) return false;
      await db.transaction(async (tx) => {
        await tx.delete(table).where(eq(idColumn, id));
        await recordAudit(tx, actor, { action: `Deleted ${one} ${titleOf(toRecord(stored))}` });
      });
      return true;
    },
  };
}

export type ResourceStore = ReturnType<typeof createResourceStore>;
