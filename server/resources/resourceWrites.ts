/**
 * A one-file resource's writes: create, update and delete of its table (written as `table`: the
 * table owners' test reads this file), each change with its audit entry in the same transaction.
 */
import { eq } from 'drizzle-orm';
import { describeChanges, describeValues, recordAudit, type AuditActor } from '../audit/log';
import type { Database } from '../db/client';
import { findRow } from './resourceReads';
import { columnKey, type ResourceRecord, type ResourceRows, type Row } from './resourceRows';
import type { RowValues } from './rowValues';

/** The log's text of an update: each shown field before and after; a secret "changed" when its column was written. */
function changesTextOf({ fields, shown, toRecord }: ResourceRows, stored: Row, record: ResourceRecord, values: Row) {
  const before = shown(toRecord(stored));
  const secretChanged = fields.some(([name, f]) => f.kind === 'secret' && columnKey(name, f) in values);
  const after = {
    ...shown(record),
    ...Object.fromEntries(
      fields.filter(([, f]) => f.kind === 'secret').map(([, f]) => [f.label, secretChanged ? 'changed' : 'set']),
    ),
  };
  return describeChanges(Object.fromEntries(Object.keys(after).map((k) => [k, [before[k], after[k]]])));
}

export function resourceWritesOf(db: Database, rows: ResourceRows, rowValues: RowValues) {
  const { table, idColumn, one, toRecord, shown, titleOf } = rows;
  return {
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
      const stored = await findRow(db, rows, id);
      if (!stored) return null;
      const values = await rowValues(changes, stored, id);
      return db.transaction(async (tx) => {
        const [row] = Object.keys(values).length
          ? await tx.update(table).set(values).where(eq(idColumn, id)).returning()
          : [stored];
        const record = toRecord(row as Row);
        const changesText = changesTextOf(rows, stored, record, values);
        if (changesText) await recordAudit(tx, actor, { action: `Changed ${one} ${titleOf(record)}`, changesText });
        return record;
      });
    },

    async remove(actor: AuditActor, id: string | number): Promise<boolean> {
      const stored = await findRow(db, rows, id);
      if (!stored) return false;
      await db.transaction(async (tx) => {
        await tx.delete(table).where(eq(idColumn, id));
        await recordAudit(tx, actor, { action: `Deleted ${one} ${titleOf(toRecord(stored))}` });
      });
      return true;
    },
  };
}
