/** A one-file resource's reads: a page of its list (searched and ordered, listQuery.ts) and one record. */
import { count, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { slice, type PageRequest, type Slice } from '../http/pagination';
import { listOrdering, listSearch } from './listQuery';
import type { ResourceRecord, ResourceRows, Row } from './resourceRows';

/** The stored row of the id, computed fields included; null when there is none. */
export const findRow = async (db: Database, { table, selection, idColumn }: ResourceRows, id: string | number) =>
  ((await db.select(selection).from(table).where(eq(idColumn, id)))[0] as Row | undefined) ?? null;

export function resourceReadsOf(db: Database, rows: ResourceRows) {
  const { table, selection, toRecord } = rows;
  return {
    async list(
      { limit, offset }: PageRequest,
      query: { ordering?: string; search?: string },
    ): Promise<Slice<ResourceRecord>> {
      const where = listSearch(rows, query.search);
      const { count: total, results } = await slice(
        db
          .select(selection)
          .from(table)
          .where(where)
          .orderBy(...listOrdering(rows, query.ordering))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(table).where(where),
      );
      return { count: total, results: (results as Row[]).map(toRecord) };
    },

    async find(id: string | number): Promise<ResourceRecord | null> {
      const row = await findRow(db, rows, id);
      return row && toRecord(row);
    },
  };
}
