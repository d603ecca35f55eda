/**
 * Load on one call: autocannon with N connections for a fixed time (requests/s, p50, p99, errors),
 * and one request at a time on an idle server (the latency the raw-SQL floor is compared with).
 */
import http from 'node:http';
import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  /** Non-2xx answers plus connection errors (timeouts included). */
  errors: number;
  timeouts: number;
  requests: number;
}

export async function loadCall(
  url: string,
  token: string,
  { connections, duration, timeout }: { connections: number; duration: number; timeout: number },
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections,
    duration,
    timeout,
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  return {
    rps: result.requests.average,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.non2xx + result.errors,
    timeouts: result.timeouts,
    requests: result.requests.total,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The median of `rounds` runs of `work` after `warmup` untimed ones (enough for the code on both
 * sides to be compiled: the first few requests of a fresh server take several times longer);
 * stops early (keeping at least 3) once `budgetMs` has passed, so one slow call cannot stretch the run.
 */
export async function medianMs(
  work: () => Promise<unknown>,
  { warmup = 30, rounds = 30, budgetMs = 3000 } = {},
): Promise<number> {
  const warmedBy = performance.now() + budgetMs;
  for (let i = 0; i < warmup && (i < 2 || performance.now() < warmedBy); i += 1) await work();
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < rounds; i += 1) {
    if (i >= 3 && performance.now() - started > budgetMs) break;
    const t = performance.now();
    await work();
    times.push(performance.now() - t);
  }
  return median(times);
}

/**
 * One connection kept open for the one-request-at-a-time measurements, as `pg` keeps one for the
 * raw SQL they are compared with: the client's own cost stays out of both.
 */
const oneConnection = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET with the token; throws unless 2xx (the body is read in full). */
export function getOnce(
  url: string,
  token: string,
  timeoutMs = 60_000,
  headers: Record<string, string> = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      { agent: oneConnection, headers: { authorization: `Bearer ${token}`, ...headers }, timeout: timeoutMs },
      (response) => {
        response.on('data', () => undefined);
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status < 200 || status > 299) reject(new Error(`GET ${url} answered ${status}`));
          else resolve(status);
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`GET ${url} timed out after ${timeoutMs} ms`)));
    request.on('error', reject);
  });
}
