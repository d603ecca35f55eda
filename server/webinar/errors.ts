/**
 * Typed errors of the Demio client. Demio answers `{messages: [...]}` with 401 for a key and
 * secret it refuses and 403 for an account that is not active; past its limits it answers an
 * error whose status it does not document (429 assumed, as the simulator sends).
 */
export class DemioError extends Error {
  /** Worth retrying: the same call may succeed later. */
  readonly transient: boolean = false;
  constructor(
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 401: the folder's key or secret is wrong. */
export class DemioAuthError extends DemioError {
  constructor() {
    super('Demio refused the key: check the folder’s webinar API key and secret', 401);
  }
}

/** 403: the key is right but the Demio account is not active. */
export class DemioAccountInactiveError extends DemioError {
  constructor() {
    super('Demio says the account is not active', 403);
  }
}

export class DemioNotFoundError extends DemioError {}

/** 400 and other refusals of the request itself. */
export class DemioRequestError extends DemioError {}

export class DemioRateLimitError extends DemioError {
  override readonly transient = true;
}

export class DemioServerError extends DemioError {
  override readonly transient = true;
}

export class DemioNetworkError extends DemioError {
  override readonly transient = true;
}

export class DemioTimeoutError extends DemioError {
  override readonly transient = true;
  constructor(timeoutMs: number) {
    super(`Demio did not answer within ${timeoutMs} ms`);
  }
}

/** The account's calls for the day (UTC) are spent: calling again before midnight UTC would be refused. */
export class DemioDailyQuotaError extends DemioError {
  constructor(readonly resetsAt: Date) {
    super(`The Demio account's calls for today are spent; they return at ${resetsAt.toISOString()}`);
  }
}

/** An answer that is not what Demio's API describes (not JSON, not the expected shape). */
export class DemioProtocolError extends DemioError {}

/** The error an HTTP answer of Demio's stands for. */
export function demioError(status: number, messages: readonly string[]): DemioError {
  const text = messages.length ? messages.join('; ') : `HTTP ${status}`;
  if (status === 401) return new DemioAuthError();
  if (status === 403) return new DemioAccountInactiveError();
  if (status === 404) return new DemioNotFoundError(`Demio: ${text}`, status);
  if (status === 429) return new DemioRateLimitError(`Demio is refusing calls for now: ${text}`, status);
  if (status >= 500) return new DemioServerError(`Demio failed (HTTP ${status}): ${text}`, status);
  return new DemioRequestError(`Demio refused the request (HTTP ${status}): ${text}`, status);
}
