/**
 * DRF-style limit/offset paging (`paginate`: one page of any list → `{count, next, previous,
 * results}`; `cappedSlice` for lists too big to count in full), and parsing of `ordering=a,-b` and
 * comma-separated lists (DESIGN §4).
 */
import { asc, desc, type SQL } from 'drizzle-orm';
import type { AnyColumn } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { MAX_ID } from './params';

export interface PageRequest {
  limit: number;
  offset: number;
}

export interface Page<T> {
  count: number;
  /** Present on lists whose total is capped: true when `count` is only a lower bound. */
  count_is_estimate?: boolean;
  next: string | null;
  previous: string | null;
  results: T[];
}

function nonNegativeInt(value: unknown, fallback: number): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof value === 'number' ? value : NaN;
  // Safe integers only: 1e308 is an integer to JavaScript but overflows the database's bigint.
  return Number.isSafeInteger(n) && n >= 0 ? n : fallback;
}

export function pageRequest(
  query: { limit?: string; offset?: string },
  defaultLimit = 10,
  maxLimit = 1000,
): PageRequest {
  const limit = Math.min(Math.max(nonNegativeInt(query.limit, defaultLimit), 1), maxLimit);
  return { limit, offset: nonNegativeInt(query.offset, 0) };
}

/**
 * The same request for another page, on the server's configured address (PUBLIC_URL): never on the
 * Host or X-Forwarded-* headers a client sent, which would let it point the links elsewhere.
 */
function pageUrl(request: FastifyRequest, limit: number, offset: number): string {
  const path = request.url.startsWith('/') ? request.url : '/';
  const url = new URL(`${request.server.config.publicUrl}${path}`);
  url.searchParams.set('limit', String(limit));
  if (offset > 0) url.searchParams.set('offset', String(offset));
  else url.searchParams.delete('offset');
  return url.toString();
}

/** One page of a list as a repository reads it: the rows asked for and how many there are in all. */
export interface Slice<T> {
  count: number;
  results: T[];
  /** Whether rows follow this page; known when the rows were read one past the page. */
  hasMore?: boolean;
  /** Set by capped counts: true when `count` is a lower bound, not the total. */
  countIsEstimate?: boolean;
}

/** Runs a page's rows query and its `count()` query together. */
export async function slice<T>(rows: PromiseLike<T[]>, total: PromiseLike<{ n: number }[]>): Promise<Slice<T>> {
  const [results, [counted]] = await Promise.all([rows, total]);
  return { count: counted?.n ?? 0, results };
}

/** How many rows a big list counts at most before answering "at least this many". */
export const DEFAULT_COUNT_CAP = 10_000;

/**
 * One page of a list too big to count in full on every page: `rowsPlusOne` reads the page's rows
 * plus one (so whether a further page has rows is known without the total), and
 * `countPlusOne` counts the filtered rows up to `countCap + 1` (`select count(*) from (… limit
 * cap + 1)`). Past the cap, `count` is a lower bound (at least the cap, or the rows up to the end of
 * this page), flagged by `countIsEstimate`; on the last page the exact total is known again.
 */
export async function cappedSlice<T>(
  { limit, offset }: PageRequest,
  countCap: number,
  rowsPlusOne: PromiseLike<T[]>,
  countPlusOne: PromiseLike<{ n: number }[]>,
): Promise<Slice<T>> {
  const [fetched, [counted]] = await Promise.all([rowsPlusOne, countPlusOne]);
  const hasMore = fetched.length > limit;
  const results = hasMore ? fetched.slice(0, limit) : fetched;
  const counts = counted?.n ?? 0;
  if (counts <= countCap) return { count: counts, results, hasMore, countIsEstimate: false };
  const seen = offset + results.length;
  if (!hasMore && results.length > 0) return { count: seen, results, hasMore, countIsEstimate: false };
  return { count: Math.max(countCap, seen + (hasMore ? 1 : 0)), results, hasMore, countIsEstimate: true };
}

/** A slice as the API answers it, with links to the next and previous pages of the same request. */
export function paginate<T>(
  request: FastifyRequest,
  { limit, offset }: PageRequest,
  { count, results, hasMore, countIsEstimate }: Slice<T>,
): Page<T> {
  return {
    count,
    ...(countIsEstimate === undefined ? {} : { count_is_estimate: countIsEstimate }),
    next: (hasMore ?? offset + limit < count) ? pageUrl(request, limit, offset + limit) : null,
    previous: offset > 0 ? pageUrl(request, limit, Math.max(offset - limit, 0)) : null,
    results,
  };
}

/**
 * `ordering=name,-created_at` → ORDER BY terms, keeping only keys in `columns`
 * (aliases such as ad_account → folder_name are entries of the map). Unknown keys are ignored.
 */
export function orderingTerms(raw: unknown, columns: Record<string, AnyColumn | SQL>, fallback: SQL[]): SQL[] {
  const terms: SQL[] = [];
  for (const key of commaList(raw)) {
    const descending = key.startsWith('-');
    const name = descending ? key.slice(1) : key;
    // Own keys only: '__proto__' or 'constructor' are names every object answers to.
    if (Object.hasOwn(columns, name)) terms.push(descending ? desc(columns[name]!) : asc(columns[name]!));
  }
  return terms.length ? terms : fallback;
}

/**
 * orderingTerms, then `id` in the direction of the first sortable key (descending when there is
 * none): rows that tie, such as entries written in one transaction with one timestamp, keep the
 * order they were written in, and pages never overlap.
 */
export function orderingWithId(
  raw: unknown,
  columns: Record<string, AnyColumn | SQL>,
  fallback: SQL[],
  id: AnyColumn,
): SQL[] {
  const firstKey = commaList(raw).find((key) => Object.hasOwn(columns, key.replace(/^-/, '')));
  return [...orderingTerms(raw, columns, fallback), firstKey && !firstKey.startsWith('-') ? asc(id) : desc(id)];
}

/** `a, b,,c` → ['a', 'b', 'c']; an entry holding NUL names nothing (PostgreSQL refuses NUL in text). */
export function commaList(raw: unknown): string[] {
  return String(raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && !s.includes('\u0000'));
}

/** `1,2,x,3` → [1, 2, 3]; a number beyond the id column names nothing. */
export function idList(raw: unknown): number[] {
  return commaList(raw)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0 && n <= MAX_ID);
}
