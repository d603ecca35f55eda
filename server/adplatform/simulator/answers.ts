/**
 * The shapes every simulated Graph answer shares: error bodies
 * `{error: {message, type, code, error_subcode?, fbtrace_id}}`, the `fields` parameter, and cursor
 * paging with absolute `paging.next` / `paging.previous` links that work when fetched as given.
 */
export type Params = Record<string, string>;

export interface GraphAnswer {
  status: number;
  body: unknown;
  /** The ad account the call touched (for the usage headers). */
  accountId?: string;
  /** A write took effect. */
  wrote?: boolean;
}

export interface GraphContext {
  /** Base for absolute paging links, e.g. http://127.0.0.1:8090/v21.0 */
  linkBase: string;
  /** The token the call was made with; Graph's paging links carry it so they can be fetched as-is. */
  accessToken?: string;
  /** Whether the token reaches an ad account (digits); absent: it reaches every one (tokens.ts). */
  reaches?: (accountId: string) => boolean;
}

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 5000;
let traceCounter = 0;

/** Graph's error body. `type` is GraphMethodException for objects that cannot be loaded, as on Graph. */
export function errorAnswer(
  status: number,
  code: number,
  message: string,
  extra: Record<string, unknown> = {},
): GraphAnswer {
  traceCounter += 1;
  const type = code === 100 && extra.error_subcode === 33 ? 'GraphMethodException' : 'OAuthException';
  return {
    status,
    body: {
      error: { message, type, code, ...extra, fbtrace_id: `Sim${traceCounter.toString(36).padStart(8, '0')}` },
    },
  };
}

/** Thrown where a nested part of an answer (an expanded field, an edge inside `fields`) is refused. */
export class Refusal extends Error {
  constructor(readonly answer: GraphAnswer) {
    super('refused');
  }
}

export const notFound = (id: string, method = 'GET') =>
  errorAnswer(
    400,
    100,
    `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    { error_subcode: 33 },
  );

/** The names in a `fields` parameter (`campaign{name}` and `insights.date_preset(…)` name `campaign`, `insights`). */
export function requestedFields(fields: string | undefined, defaults: readonly string[]): string[] {
  if (!fields) return [...defaults];
  const names: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of fields) {
    if (char === '{' || char === '(') depth += 1;
    if (char === '}' || char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      names.push(current);
      current = '';
    } else current += char;
  }
  names.push(current);
  return [...new Set(names.map((name) => name.trim().split(/[.{(]/)[0]!.trim()).filter(Boolean))];
}

const encodeCursor = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
function decodeCursor(cursor: string | undefined): number | undefined {
  if (!cursor) return undefined;
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? Number(match[1]) : undefined;
}

/**
 * One page of a list edge: `{data, paging: {cursors: {before, after}, next?, previous?}}`. Items are
 * rendered only for the page. `after` / `before` cursors move forward and back; a `next` link is
 * present while more items follow.
 */
export function page<T>(
  items: readonly T[],
  render: (item: T) => Record<string, unknown>,
  params: Params,
  path: string,
  context: GraphContext,
): GraphAnswer {
  const limit = Math.min(Math.max(Number(params.limit) || DEFAULT_LIMIT, 1), MAX_LIMIT);
  const after = decodeCursor(params.after);
  const before = decodeCursor(params.before);
  const offset = after ?? (before === undefined ? 0 : Math.max(0, before - limit));
  const end = before !== undefined && after === undefined ? Math.min(before, offset + limit) : offset + limit;
  const slice = items.slice(offset, end).map(render);
  const body: Record<string, unknown> = { data: slice };
  if (slice.length) {
    const link = (cursor: Record<string, string>) => {
      const query = new URLSearchParams({ ...params, limit: String(limit) });
      query.delete('after');
      query.delete('before');
      for (const [key, value] of Object.entries(cursor)) query.set(key, value);
      if (context.accessToken) query.set('access_token', context.accessToken);
      return `${context.linkBase}/${path}?${query}`;
    };
    const paging: Record<string, unknown> = {
      cursors: { before: encodeCursor(offset), after: encodeCursor(offset + slice.length) },
    };
    if (offset + slice.length < items.length) paging.next = link({ after: encodeCursor(offset + slice.length) });
    if (offset > 0) paging.previous = link({ before: encodeCursor(offset) });
    body.paging = paging;
  }
  return { status: 200, body };
}
