/** A one-file resource's list query: its search over the definition's search fields, and its order. */
import { asc, desc, sql, type SQL } from 'drizzle-orm';
import { commaList, sortKeyName } from '../http/pagination';
import { searchAny } from '../http/search';
import type { ResourceRows } from './resourceRows';

/** Rows whose search fields contain the text; undefined for a blank search. */
export const listSearch = ({ spec, columnOf }: ResourceRows, search: string | undefined): SQL | undefined =>
  searchAny(
    search,
    (spec.search ?? []).map((name) => columnOf(name)),
  );

/** The `ordering` asked (sortable fields only; text without case), then the definition's own, then the id. */
export function listOrdering({ spec, columnOf, idColumn }: ResourceRows, raw: unknown): SQL[] {
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
}
