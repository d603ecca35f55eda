/** The `search` parameter of list endpoints: case-insensitive "contains" over some columns. */
import { and, ilike, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * 'a_b%' → '%a\_b\%%': the text matched literally anywhere, LIKE's wildcards escaped. NUL is
 * dropped: PostgreSQL refuses it in any text (so no stored value holds one).
 */
export const containsPattern = (search: string) =>
  `%${search.replaceAll('\u0000', '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A row matches when any of the columns contains the text; undefined for a blank search. */
export function searchAny(search: unknown, columns: (AnyColumn | SQL)[]): SQL | undefined {
  const text = String(search ?? '').trim();
  if (!text) return undefined;
  const pattern = containsPattern(text);
  return or(...columns.map((column) => ilike(column, pattern)));
}

/**
 * Whether any of the columns contains the text `pattern` (a containsPattern), checked by
 * list_text_matches (migration 0012): the recheck behind a trigram-indexed search text. The
 * function is opaque and declared costly to the planner, so a search that matches few entries is
 * served from the indexes and sorted, and one that matches many walks the sort index instead.
 */
export const textMatches = (columns: (AnyColumn | SQL)[], pattern: string) =>
  sql`list_text_matches(array[${sql.join(columns, sql`, `)}]::text[], ${pattern})`;

/**
 * `column ILIKE containsPattern(text)` written so the planner reads the column's trigram index even
 * on a small table (a couple of thousand folders): the ILIKE is the index condition and
 * textMatches, declared costly, the recheck. A text under three characters holds no trigram, so
 * the index would be read whole: it stays a plain ILIKE.
 */
export function indexedContains(column: AnyColumn, text: string): SQL {
  const pattern = containsPattern(text);
  return text.length < 3 ? ilike(column, pattern) : and(ilike(column, pattern), textMatches([column], pattern))!;
}
