/**
 * Route-schema pieces every area shares: path ids, paging and search parameters, the page
 * envelope, and the contract's error answers per status (docs/contract.md#conventions).
 */
import { z } from 'zod';
import { MAX_ID } from './params';

export const NOT_FOUND = 'Not found.';

/** Messages of path parameters that name no row: the error handler answers them 404 `{detail}`, not 400. */
export const NOT_FOUND_MESSAGES = new Set<string>([NOT_FOUND]);

/** A path id: digits that fit an id column; anything else is answered 404 `{detail: message}` like a missing row. */
export function idParamOf(message = NOT_FOUND) {
  NOT_FOUND_MESSAGES.add(message);
  return z
    .string()
    .regex(/^\d{1,10}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(1, message).max(MAX_ID, message));
}

export const idParam = idParamOf();

export const idParams = z.object({ id: idParam });

/** A query parameter as sent; lists read it leniently (an unusable value is no filter). */
const queryText = (description: string) => z.string().optional().describe(description);

/** limit/offset paging; a missing or unusable value falls back to the list's default. */
export const pageQuery = z.object({
  limit: queryText('Page size (each list has its default and maximum).'),
  offset: queryText('Rows to skip.'),
});

export const orderingQuery = z.object({
  ordering: queryText('Comma-separated sort keys, `-` for descending: `-created_at,name`. Unknown keys are ignored.'),
});

export const searchQuery = z.object({ search: queryText('Case-insensitive text contained in the listed columns.') });

/** Comma-separated ids: `1,2,3` (values that are not ids match nothing). */
export const idListQuery = (description: string) => queryText(description);

/** The list envelope: `{count, next, previous, results}`. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    count: z.number().int(),
    count_is_estimate: z
      .boolean()
      .optional()
      .describe(
        "On big lists (log, rule log, campaigns): true when `count` is not exact — the planner's estimate, or a lower bound",
      ),
    count_is_lower_bound: z
      .boolean()
      .optional()
      .describe(
        'With count_is_estimate: true when `count` is a lower bound ("1,000+"), false for an estimate ("about")',
      ),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });

export const detailSchema = z
  .object({ detail: z.string(), code: z.string().optional() })
  .describe('An error or a confirmation in words');

/** `{field: ["message"]}`; rule items nest one level deeper (`{rule_task: {name: {field: […]}}}`). */
export const fieldErrorsSchema = z
  .record(z.string(), z.unknown())
  .describe('Field errors: `{field: ["message"]}`, or `{detail}` for an error of the whole request');

const ERROR_SCHEMAS = {
  400: fieldErrorsSchema,
  401: detailSchema.describe('Not signed in, or the token is not valid'),
  403: detailSchema.describe('The signed-in user lacks the permission'),
  404: detailSchema.describe('No such object'),
  409: detailSchema.describe('The object is no longer in the state the call needs (e.g. already decided)'),
  429: detailSchema.describe('Too many attempts; try again later'),
  502: detailSchema.describe('The ad platform failed'),
  503: detailSchema.describe('The service is not available on this server'),
} as const;

type ErrorStatus = keyof typeof ERROR_SCHEMAS;

/** The error answers a route can give: `response: { 200: …, ...errors(400, 404) }`. */
export function errors<S extends ErrorStatus>(...statuses: S[]): Pick<typeof ERROR_SCHEMAS, S> {
  return Object.fromEntries(statuses.map((s) => [s, ERROR_SCHEMAS[s]])) as Pick<typeof ERROR_SCHEMAS, S>;
}

/** 204 No Content. */
export const noContent = z.null().describe('No content');

/**
 * The body of a call that acts on the object its path names and needs nothing else: none, or an
 * empty JSON object (anything in it is ignored). Declared, so the OpenAPI document says so.
 */
export const noBody = z.object({}).optional().describe('No body: the path names what the call acts on');
