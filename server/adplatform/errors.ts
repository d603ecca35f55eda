/**
 * Typed errors of the ad platform. A Graph API error body
 * `{"error": {message, type, code, error_subcode, error_user_title, error_user_msg, fbtrace_id}}`
 * becomes one of these; transport failures (timeouts, refused connections) too.
 */

/** Graph error codes that mean "slow down": app (4), user (17), API-version (32), ad account (613), account BUC (80000–80014). */
export const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([
  4, 17, 32, 613, 80000, 80001, 80002, 80003, 80004, 80005, 80006, 80008, 80009, 80014,
]);
/** "An unknown error occurred" (1) and "Service temporarily unavailable" (2) are transient. */
const TRANSIENT_CODES: ReadonlySet<number> = new Set([1, 2]);
const AUTH_CODES: ReadonlySet<number> = new Set([102, 190]);

export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_title?: string;
  error_user_msg?: string;
  fbtrace_id?: string;
  is_transient?: boolean;
}

export class AdPlatformError extends Error {
  /** Worth retrying: the same call may succeed later. */
  readonly transient: boolean = false;
}

export class GraphApiError extends AdPlatformError {
  readonly code: number | undefined;
  readonly subcode: number | undefined;
  readonly type: string | undefined;
  readonly fbtraceId: string | undefined;
  readonly userTitle: string | undefined;
  readonly userMessage: string | undefined;
  override readonly transient: boolean;

  constructor(
    readonly httpStatus: number,
    readonly body: GraphErrorBody,
  ) {
    super(body.message ?? `Graph API error (HTTP ${httpStatus})`);
    this.name = 'GraphApiError';
    this.code = body.code;
    this.subcode = body.error_subcode;
    this.type = body.type;
    this.fbtraceId = body.fbtrace_id;
    this.userTitle = body.error_user_title;
    this.userMessage = body.error_user_msg;
    this.transient =
      Boolean(body.is_transient) || httpStatus >= 500 || (body.code !== undefined && TRANSIENT_CODES.has(body.code));
  }
}

export class GraphRateLimitError extends GraphApiError {
  override readonly transient = true;
  constructor(
    httpStatus: number,
    body: GraphErrorBody,
    /** From the usage headers (estimated_time_to_regain_access), when the platform said. */
    readonly retryAfterMs: number | undefined,
    /** The refusal came with usage headers; without them nothing says how long the block lasts. */
    readonly usageReported = true,
  ) {
    super(httpStatus, body);
    this.name = 'GraphRateLimitError';
  }
}

/**
 * "Please reduce the amount of data you're asking for": the call asked for more than Graph will
 * compute at once. Graph sends it as code 100 / subcode 1487534 (Meta's insights best-practices
 * page), as code 1 with HTTP 500 (singer-io/tap-facebook#65, facebook-python-business-sdk#470), or
 * with the phrase only in error_user_msg. Sending the same call again fails the same way, so it is
 * not transient: the caller asks for less (smaller pages, fewer days) or moves it to an async report.
 */
export class GraphTooMuchDataError extends GraphApiError {
  override readonly transient = false;
  constructor(httpStatus: number, body: GraphErrorBody) {
    super(httpStatus, body);
    this.name = 'GraphTooMuchDataError';
  }
}

const TOO_MUCH_DATA = /reduce the amount of data/i;

function asksForLess(body: GraphErrorBody): boolean {
  if (body.error_subcode === 1487534) return true;
  return TOO_MUCH_DATA.test(body.message ?? '') || TOO_MUCH_DATA.test(body.error_user_msg ?? '');
}

/** Meta's "too many budget changes" (code 613, subcode 1487632): the object takes no budget change for an hour. */
export const BUDGET_CHANGES_BLOCKED_SUBCODE = 1487632;

/**
 * A 5th budget change of one object within an hour: not a call to slow down but an object blocked
 * for an hour, so it is not retried.
 */
export class GraphBudgetBlockedError extends GraphApiError {
  override readonly transient = false;
  constructor(httpStatus: number, body: GraphErrorBody) {
    super(httpStatus, body);
    this.name = 'GraphBudgetBlockedError';
  }
}

export class GraphAuthError extends GraphApiError {
  override readonly transient = false;
  constructor(httpStatus: number, body: GraphErrorBody) {
    super(httpStatus, body);
    this.name = 'GraphAuthError';
  }
}

/** The object does not exist, was deleted, or this token may not see it (code 100, subcode 33; or HTTP 404). */
export class GraphNotFoundError extends GraphApiError {
  override readonly transient = false;
  constructor(httpStatus: number, body: GraphErrorBody) {
    super(httpStatus, body);
    this.name = 'GraphNotFoundError';
  }
}

export class GraphTimeoutError extends AdPlatformError {
  override readonly transient = true;
  constructor(readonly timeoutMs: number) {
    super(`The ad platform did not answer within ${timeoutMs} ms`);
    this.name = 'GraphTimeoutError';
  }
}

export class GraphNetworkError extends AdPlatformError {
  override readonly transient = true;
  constructor(cause: unknown) {
    super(
      `Could not reach the ad platform: ${cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause)}`,
    );
    this.name = 'GraphNetworkError';
  }
}

/** The platform answered something that is not the Graph API's JSON. */
export class GraphProtocolError extends AdPlatformError {
  override readonly transient: boolean;
  constructor(
    readonly httpStatus: number,
    message: string,
  ) {
    super(message);
    this.name = 'GraphProtocolError';
    this.transient = httpStatus >= 500;
  }
}

export function graphError(
  httpStatus: number,
  body: GraphErrorBody,
  retryAfterMs?: number,
  usageReported = true,
): GraphApiError {
  const code = body.code;
  if (code === 613 && body.error_subcode === BUDGET_CHANGES_BLOCKED_SUBCODE)
    return new GraphBudgetBlockedError(httpStatus, body);
  if (code !== undefined && RATE_LIMIT_CODES.has(code))
    return new GraphRateLimitError(httpStatus, body, retryAfterMs, usageReported);
  if (asksForLess(body)) return new GraphTooMuchDataError(httpStatus, body);
  if (code !== undefined && AUTH_CODES.has(code)) return new GraphAuthError(httpStatus, body);
  if (httpStatus === 404 || (code === 100 && body.error_subcode === 33))
    return new GraphNotFoundError(httpStatus, body);
  return new GraphApiError(httpStatus, body);
}

/** A refusal as a person reads it: Graph's message, its user title and text, and its subcode (`(#613) … [1487632]`). */
export function refusalText(error: unknown): string {
  if (!(error instanceof GraphApiError)) return error instanceof Error ? error.message : String(error);
  const detail = [error.userTitle, error.userMessage].filter(Boolean).join(': ');
  const more = detail && !error.message.includes(detail) ? ` — ${detail}` : '';
  return `${error.message}${more}${error.subcode === undefined ? '' : ` [${error.subcode}]`}`;
}

/** A write whose outcome is unknown: the request may or may not have reached the platform. */
export function isAmbiguous(error: unknown): boolean {
  if (error instanceof GraphTimeoutError || error instanceof GraphNetworkError) return true;
  if (error instanceof GraphRateLimitError) return false; // refused before doing anything
  if (error instanceof GraphApiError) return error.transient;
  if (error instanceof GraphProtocolError) return error.httpStatus >= 500;
  return false;
}
