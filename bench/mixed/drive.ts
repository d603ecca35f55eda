/**
 * The mixed traffic against a running server: autocannon with one connection per browsing user,
 * each request the next of the generated sequence with that user's token, while the writers each
 * make one change a second and one user a second renews their session (POST /api/token/refresh/,
 * which must not empty the page cache). Latencies are kept per family, from autocannon's own
 * response times.
 */
import autocannon from 'autocannon';
import type { Family, ListRequest } from './traffic';

export interface Latencies {
  times: number[];
  errors: number;
  statuses: Record<string, number>;
}

export interface FamilyStats {
  requests: number;
  rps: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  errors: number;
}

const emptyLatencies = (): Latencies => ({ times: [], errors: 0, statuses: {} });

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function familyStats(latencies: Latencies, seconds: number): FamilyStats {
  const sorted = [...latencies.times].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    requests: sorted.length,
    rps: round(sorted.length / seconds),
    p50_ms: round(percentile(sorted, 50)),
    p95_ms: round(percentile(sorted, 95)),
    p99_ms: round(percentile(sorted, 99)),
    errors: latencies.errors,
  };
}

export interface Writer {
  name: string;
  /** The writer's next change; resolves with the HTTP status. */
  change(): Promise<number>;
}

/** Runs `writer` once a second until `stopAt`, timing each change. */
async function writeEverySecond(writer: Writer, stopAt: number, into: Latencies): Promise<void> {
  while (Date.now() < stopAt) {
    const started = performance.now();
    const status = await writer.change().catch(() => 0);
    const took = performance.now() - started;
    into.times.push(took);
    into.statuses[status] = (into.statuses[status] ?? 0) + 1;
    if (status < 200 || status > 299) into.errors += 1;
    const wait = 1000 - took;
    if (wait > 0 && Date.now() + wait < stopAt) await new Promise((r) => setTimeout(r, wait));
  }
}

export interface MixedLoadResult {
  seconds: number;
  totalRequests: number;
  families: Map<Family, Latencies>;
  writes: Latencies;
  refreshes: Latencies;
  timeouts: number;
  /** Where in the sequence the next drive should start (the warm-up's requests are not asked again). */
  nextRequest: number;
}

export async function driveMixed(options: {
  base: string;
  tokens: string[];
  sequence: ListRequest[];
  writers: Writer[];
  refresh: () => Promise<number>;
  seconds: number;
  timeoutSeconds: number;
  /** The first request of the sequence to send. */
  fromRequest: number;
}): Promise<MixedLoadResult> {
  const { base, tokens, sequence, writers, seconds } = options;
  const families = new Map<Family, Latencies>();
  let cursor = options.fromRequest;
  let user = options.fromRequest;
  // autocannon calls onResponse for a request just before it emits 'response' for it (synchronously).
  let answered: { family: Family; status: number } | undefined;

  const writes = emptyLatencies();
  const refreshes = emptyLatencies();
  const stopAt = Date.now() + seconds * 1000;
  const writing = [
    ...writers.map((w) => writeEverySecond(w, stopAt, writes)),
    writeEverySecond({ name: 'refresh', change: options.refresh }, stopAt, refreshes),
  ];

  const started = performance.now();
  let finished!: (result: autocannon.Result) => void;
  let failed!: (error: Error) => void;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finished = resolve;
    failed = reject;
  });
  const instance = autocannon(
    {
      url: base,
      connections: tokens.length,
      duration: seconds,
      timeout: options.timeoutSeconds,
      requests: [
        {
          setupRequest(request, context) {
            const next = sequence[cursor % sequence.length]!;
            cursor += 1;
            const token = tokens[user % tokens.length]!;
            user += 1;
            (context as { family?: Family }).family = next.family;
            return { ...request, method: 'GET', path: next.path, headers: { authorization: `Bearer ${token}` } };
          },
          onResponse(status, _body, context) {
            answered = { family: (context as { family: Family }).family, status };
          },
        },
      ],
    },
    (error, result) => (error ? failed(error) : finished(result)),
  );
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (!answered) return;
    const into = families.get(answered.family) ?? emptyLatencies();
    families.set(answered.family, into);
    into.times.push(responseTime);
    into.statuses[statusCode] = (into.statuses[statusCode] ?? 0) + 1;
    if (statusCode < 200 || statusCode > 299) into.errors += 1;
    answered = undefined;
  });
  const result = await done;
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(writing);
  return {
    seconds: Math.min(elapsed, seconds),
    totalRequests: result.requests.total,
    families,
    writes,
    refreshes,
    timeouts: result.timeouts + result.errors,
    nextRequest: cursor,
  };
}
