/**
 * Fault injection: switches that make the next matching requests fail the way the real platform
 * fails — rate-limit refusals (codes 4, 17, 32, 613, 80004 with their usage headers), 5xx answers,
 * slow answers, answers that never come (timeouts), and high usage readings in the headers.
 * A fault with `applyFirst` lets a write take effect before the failure, as when a response is lost.
 */
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

export const RATE_LIMIT_MESSAGES: Record<number, { message: string; subcode?: number }> = {
  4: { message: '(#4) Application request limit reached', subcode: 1504022 },
  17: { message: '(#17) User request limit reached', subcode: 2446079 },
  32: { message: '(#32) Page request limit reached' },
  613: { message: '(#613) Calls to this api have exceeded the rate limit.', subcode: 1487742 },
  80004: { message: 'There have been too many calls to this ad-account. Wait a bit and try again.', subcode: 2446079 },
};

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
