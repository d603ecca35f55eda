/**
 * Fault injection: switches that make the next matching requests fail the way the real platform
 * fails — rate-limit refusals (codes 4, 17, 32, 613, 80004 with their usage headers), 5xx answers,
 * slow answers, answers that never come (timeouts), and high usage readings in the headers.
 * A fault with `applyFirst` lets a write take effect before the failure, as when a response is lost.
 */
import { errorAnswer, type GraphAnswer } from './answers';

export type FaultKind = 'rate_limit' | 'server_error' | 'slow' | 'timeout' | 'usage';

export interface FaultSpec {
  kind: FaultKind;
  /** How many matching requests it hits (default 1; 0 or Infinity = until cleared). */
  count?: number;
  match?: {
    method?: 'GET' | 'POST';
    /** Substring of the path (without the version), e.g. 'insights' or 'act_123/ads'. */
    path?: string;
    /** Only batch requests, or only the items inside batches. */
    target?: 'request' | 'batch_item';
  };
  /** rate_limit: the Graph error code (default 17) and subcode. */
  code?: number;
  subcode?: number;
  /** rate_limit: false sends the refusal without any usage header (Graph does, e.g. for code 17). */
  usageHeaders?: boolean;
  /** rate_limit / usage: minutes until access returns, sent as estimated_time_to_regain_access. */
  regainMinutes?: number;
  /** server_error: HTTP status (default 500). */
  status?: number;
  /** slow: delay in ms (default 2000); timeout: how long to hold the answer (default 10 minutes). */
  ms?: number;
  /** server_error / timeout: run the request (a write takes effect) before failing. */
  applyFirst?: boolean;
  /** usage: the percentage to report. */
  pct?: number;
}

interface ActiveFault extends FaultSpec {
  remaining: number;
  hits: number;
}

export interface RequestDescription {
  method: string;
  path: string;
  target: 'request' | 'batch_item';
}

const RATE_LIMIT_DOC =
  'For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.';

/**
 * Graph's refusals as public reports show them (code 17: facebook-python-business-sdk#416; 80000:
 * airbytehq/airbyte#10655; 80004: airbytehq/airbyte#8773): the HTTP status, message and subcode.
 */
export const RATE_LIMIT_ANSWERS: Record<
  number,
  { status: number; message: string; subcode?: number; transient?: true }
> = {
  4: { status: 403, message: '(#4) Application request limit reached', subcode: 1504022, transient: true },
  17: { status: 400, message: '(#17) User request limit reached', subcode: 2446079, transient: true },
  32: { status: 400, message: '(#32) Page request limit reached', transient: true },
  613: { status: 400, message: '(#613) Calls to this api have exceeded the rate limit.', subcode: 1487742 },
  80000: {
    status: 400,
    message: `(#80000) There have been too many calls from this ad-account. Wait a bit and try again. ${RATE_LIMIT_DOC}`,
    subcode: 2446079,
  },
  80004: {
    status: 400,
    message: `(#80004) There have been too many calls to this ad-account. Wait a bit and try again. ${RATE_LIMIT_DOC}`,
    subcode: 2446079,
  },
};

/** A rate-limit refusal in Graph's shape (code 17 unless the fault names another). */
export function rateLimitAnswer(fault: FaultSpec): GraphAnswer {
  const code = fault.code ?? 17;
  const known = RATE_LIMIT_ANSWERS[code] ?? { status: 400, message: `(#${code}) Rate limit reached` };
  return errorAnswer(known.status, code, known.message, {
    error_subcode: fault.subcode ?? known.subcode,
    ...(known.transient ? { is_transient: true } : {}),
  });
}

/** An injected 5xx: Graph's "unknown error" (1) or, for 503, "temporarily unavailable" (2). */
export function serverErrorAnswer(fault: FaultSpec): GraphAnswer {
  return errorAnswer(
    fault.status ?? 500,
    fault.status === 503 ? 2 : 1,
    fault.status === 503 ? 'Service temporarily unavailable' : 'An unknown error occurred',
    { is_transient: true },
  );
}

export class FaultBoard {
  private faults: ActiveFault[] = [];

  add(spec: FaultSpec): void {
    const count = spec.count === undefined ? 1 : spec.count === 0 ? Infinity : spec.count;
    this.faults.push({ ...spec, remaining: count, hits: 0 });
  }

  clear(): void {
    this.faults = [];
  }

  list(): (FaultSpec & { remaining: number; hits: number })[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** The first armed fault matching this request (its count is used up). */
  take(request: RequestDescription, kinds: readonly FaultKind[]): FaultSpec | undefined {
    const fault = this.faults.find((f) => f.remaining > 0 && kinds.includes(f.kind) && matches(f, request));
    if (!fault) return undefined;
    fault.remaining -= 1;
    fault.hits += 1;
    return fault;
  }
}

function matches(fault: FaultSpec, request: RequestDescription): boolean {
  const match = fault.match ?? {};
  if ((match.target ?? 'request') !== request.target) return false;
  if (match.method && match.method !== request.method) return false;
  if (match.path && !request.path.includes(match.path)) return false;
  return true;
}
