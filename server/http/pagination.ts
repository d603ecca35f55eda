/**
 * DRF-style limit/offset paging (`paginate`: one page of any list → `{count, next, previous,
 * results}`; `estimatedSlice` and `countMatching` for lists too big to count in full), and parsing of `ordering=a,-b` and
 * comma-separated lists (docs/contract.md#conventions).
 */
import { asc, desc, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyColumn } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import { MAX_ID } from './params';

export interface PageRequest {
  limit: number;
  offset: number;
}

export interface Page<T> {
  count: number;
  /** Present on big lists (log, rule log, campaigns): true when `count` is not exact. */
  count_is_estimate?: boolean;
  /** With count_is_estimate: true when `count` is a lower bound ("1,000+"), false for the planner's estimate ("about"). */
  count_is_lower_bound?: boolean;
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
  /** Set on big lists (estimatedSlice): how well `count` is known. */
  countKind?: MatchCount['kind'];
}

/** Runs a page's rows query and its `count()` query together. */
export async function slice<T>(rows: PromiseLike<T[]>, total: PromiseLike<{ n: number }[]>): Promise<Slice<T>> {
  const [results, [counted]] = await Promise.all([rows, total]);
  return { count: counted?.n ?? 0, results };
}

/**
 * The list's total as a column of its page: an uncorrelated subquery, run once by the database, so
 * the page and its count are one statement (see sliceWithTotal).
 */
export const totalOf = (counting: SQLWrapper) => sql<number>`(${counting})`.mapWith(Number);

/**
 * The page's rows, each carrying the list's total (`total`, from totalOf or `count(*) over ()`),
 * and that total. A page past the end has no row to carry it: only then is it counted apart.
 */
export async function sliceWithTotal<T extends { total: number }>(
  rows: PromiseLike<T[]>,
  offset: number,
  countApart: () => PromiseLike<{ n: number }[]>,
): Promise<Slice<T>> {
  const results = await rows;
  if (results.length) return { count: Number(results[0]!.total), results };
  if (offset === 0) return { count: 0, results };
  const [counted] = await countApart();
  return { count: counted?.n ?? 0, results };
}

/**
 * Where a big list stops counting: when the planner expects more matching rows than this, the
 * total is its estimate; otherwise the rows are counted, up to this many (LIST_COUNT_CAP).
 */
export const DEFAULT_COUNT_CAP = 1_000;

/** How many rows match a big list's filters, and how well that is known. */
export interface MatchCount {
  n: number;
  /** exact; estimate: the planner's guess; atLeast: counting stopped at the cap. */
  kind: 'exact' | 'estimate' | 'atLeast';
}

/** A select whose text and parameters key the estimate cache. */
type MatchingQuery = SQLWrapper & { toSQL(): { sql: string; params: unknown[] } };

/**
 * How long a planner's estimate is reused for the same filters. The estimate comes from the
 * table's statistics, which PostgreSQL itself refreshes only every so often (autovacuum's analyze),
 * so asking again within a minute would mostly get the same number for the price of a planning.
 */
const ESTIMATE_TTL_MS = 60_000;
const ESTIMATES_KEPT = 1_000;
const estimates = new WeakMap<Database, Map<string, { rows: Promise<number>; until: number }>>();

/**
 * The planner's row estimate for `matching` (EXPLAIN, nothing executed), reused for ESTIMATE_TTL_MS.
 * Kept from the moment it is asked, so the statements of one list that need the same estimate at
 * once (its page and its count, side by side) plan it once; a failed one is not kept.
 */
export function plannerEstimate(db: Database, matching: MatchingQuery): Promise<number> {
  const { sql: text, params } = matching.toSQL();
  const key = `${text}\u0000${JSON.stringify(params, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`;
  const kept = estimates.get(db) ?? new Map<string, { rows: Promise<number>; until: number }>();
  estimates.set(db, kept);
  const now = Date.now();
  const hit = kept.get(key);
  if (hit && hit.until > now) return hit.rows;
  const rows = db
    .execute(sql`explain (format json) ${matching}`)
    .then((plan) => planRows(resultRows<{ 'QUERY PLAN': unknown }>(plan)[0]?.['QUERY PLAN']));
  const entry = { rows, until: now + ESTIMATE_TTL_MS };
  // Oldest first: a Map keeps insertion order, so the first key is the one to drop.
  kept.delete(key);
  if (kept.size >= ESTIMATES_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, entry);
  rows.catch(() => {
    if (kept.get(key) === entry) kept.delete(key);
  });
  return rows;
}

/**
 * Counts the rows of `matching` (the list's filtered rows, no order, no limit) without reading a
 * big list in full: first the planner's estimate (EXPLAIN, nothing executed, kept for a minute);
 * above `cap` that is the answer, as the PostgreSQL wiki's "count estimate" and Django's estimated
 * paginators do. At or below it the rows are counted exactly, reading at most `cap + 1` of them:
 * if the planner was wrong and there are more, the answer is "at least cap".
 */
export async function countMatching(db: Database, matching: MatchingQuery, cap: number): Promise<MatchCount> {
  const estimate = await plannerEstimate(db, matching);
  if (estimate > cap) return { n: estimate, kind: 'estimate' };
  const counted = await db.execute(sql`select count(*)::int as n from (${matching} limit ${cap + 1}) as matching`);
  const n = Number(resultRows<{ n: number }>(counted)[0]?.n ?? 0);
  return n > cap ? { n: cap, kind: 'atLeast' } : { n, kind: 'exact' };
}

/** The rows of drizzle's `execute` (node-postgres and PGlite both answer `{rows}`). */
export const resultRows = <Row>(result: unknown): Row[] =>
  Array.isArray(result) ? (result as Row[]) : ((result as { rows?: Row[] }).rows ?? []);

/** The top node's row estimate of an EXPLAIN (FORMAT JSON) answer (json, or its text on some drivers). */
function planRows(plan: unknown): number {
  const parsed = typeof plan === 'string' ? (JSON.parse(plan) as unknown) : plan;
  const rows = (parsed as { Plan?: { 'Plan Rows'?: number } }[] | undefined)?.[0]?.Plan?.['Plan Rows'];
  return typeof rows === 'number' && Number.isFinite(rows) ? Math.round(rows) : 0;
}

/**
 * One page of a big list: `rowsPlusOne` reads the page's rows plus one (so whether a further page
 * has rows is known without the total) and `total` asks countMatching. The last page (or an empty
 * list) knows its exact total, whatever was estimated before, and asks nothing more: a list's reads
 * run one after another on one connection (DbHandle.onOneConnection), so asking for the total only
 * once the page is read costs no time, and saves the count where the page already proves it. An
 * estimate is never below what the page proves (the rows up to its end, plus one when more follow).
 */
export async function estimatedSlice<T>(
  { limit, offset }: PageRequest,
  rowsPlusOne: PromiseLike<T[]>,
  total: () => PromiseLike<MatchCount>,
): Promise<Slice<T>> {
  const fetched = await rowsPlusOne;
  const hasMore = fetched.length > limit;
  const results = hasMore ? fetched.slice(0, limit) : fetched;
  const seen = offset + results.length;
  // The last page, or an empty list: everything there is has been seen.
  if (!hasMore && (results.length > 0 || offset === 0)) return { count: seen, results, hasMore, countKind: 'exact' };
  const counted = await total();
  return { count: Math.max(counted.n, seen + (hasMore ? 1 : 0)), results, hasMore, countKind: counted.kind };
}

/** A slice as the API answers it, with links to the next and previous pages of the same request. */
export function paginate<T>(
  request: FastifyRequest,
  { limit, offset }: PageRequest,
  { count, results, hasMore, countKind }: Slice<T>,
): Page<T> {
  return {
    count,
    ...(countKind === undefined
      ? {}
      : { count_is_estimate: countKind !== 'exact', count_is_lower_bound: countKind === 'atLeast' }),
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
  id: AnyColumn | SQL,
): SQL[] {
  const firstKey = firstSortTerm(raw, columns);
  return [...orderingTerms(raw, columns, fallback), firstKey && !firstKey.startsWith('-') ? asc(id) : desc(id)];
}

/** An ordering's term without its direction: `-name` → `name`. */
export const sortKeyName = (term: string) => term.replace(/^-/, '');

/** The names `ordering=` sorts by, in order, without their directions. */
export const orderingKeys = (raw: unknown) => commaList(raw).map(sortKeyName);

/** The first term of `ordering=` that names one of `columns`, with its direction (`-name`), if any. */
export const firstSortTerm = (raw: unknown, columns: object) =>
  commaList(raw).find((term) => Object.hasOwn(columns, sortKeyName(term)));

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
