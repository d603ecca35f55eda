/**
 * What a one-file resource saves of an input: the row values of the fields given, a secret sealed
 * unless its mask came back, after each reference is checked to name a row that exists and is not
 * gone and the resource's own check (SavedCheck) has passed the record; problems answer a ValidationError.
 */
import { sql } from 'drizzle-orm';
import { MASKED, NEEDS_REENTRY, type FieldSpec } from '../../shared/resources/define';
import type { Database } from '../db/client';
import { ValidationError } from '../http/errors';
import { columnKey, type ResourceRecord, type ResourceRows, type Row } from './resourceRows';
import { shownSecret } from './secrets';

/**
 * A resource's own check of a record about to be saved (its values in clear, the stored ones where
 * the input leaves them; `id` null when new): answers its problems per field, none when it may be saved.
 */
export type SavedCheck = (record: ResourceRecord, id: string | number | null) => Promise<Record<string, string[]>>;

export type RowValues = (input: ResourceRecord, stored: Row | null, id?: string | number | null) => Promise<Row>;

async function referenceExists(db: Database, field: Extract<FieldSpec, { kind: 'reference' }>, id: number) {
  const gone = field.goneColumn ? sql` and not ${sql.identifier(field.goneColumn)}` : sql``;
  const rows = await db.execute(
    sql`select 1 from ${sql.identifier(field.table)} where ${sql.identifier('id')} = ${id}${gone}`,
  );
  return (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows).length > 0;
}

export function rowValuesOf(db: Database, rows: ResourceRows, check?: SavedCheck): RowValues {
  const { fields, cipher, savedRecord } = rows;
  return async (input, stored, id = null) => {
    const values: Row = {};
    const problems: Record<string, string[]> = {};
    for (const [name, field] of fields) {
      if (field.readOnly || !(name in input)) continue;
      const value = input[name] ?? null;
      if (field.kind === 'reference' && value !== null && !(await referenceExists(db, field, value as number)))
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
  };
}
