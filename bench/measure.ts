/**
 * Times each call at both scales, alternating small and large round by round (and which goes first),
 * so that whatever else the machine is doing lands on both sides of the ratio alike.
 */
import type { BenchApp } from './app';
import type { ApiCall } from './calls';

export interface CallTiming {
  endpoint: string;
  name: string;
  small: { medianMs: number; results: number | null; total: number | null };
  large: { medianMs: number; results: number | null; total: number | null };
  /** large median / small median. */
  ratio: number;
  /** Timed rounds per scale (fewer than asked when the call hit its time budget). */
  rounds: number;
}

/** A median needs a few samples even from a slow call. */
export const MIN_ROUNDS = 5;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function timed(app: BenchApp, url: string): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const body = await app.get(url);
  return { ms: performance.now() - started, body };
}

/** `{count, results: [...]}` → its sizes; other answers → nulls. */
function pageSizes(body: unknown): { results: number | null; total: number | null } {
  const page = body as { count?: unknown; results?: unknown };
  return {
    results: Array.isArray(page?.results) ? page.results.length : null,
    total: typeof page?.count === 'number' ? page.count : null,
  };
}

export async function measureCalls(
  apps: { small: BenchApp; large: BenchApp },
  calls: { small: ApiCall[]; large: ApiCall[] },
  { rounds, warmup, callSeconds }: { rounds: number; warmup: number; callSeconds: number },
  progress: (line: string) => void,
): Promise<CallTiming[]> {
  // One pass over every call first: opens pool connections and warms caches before anything is timed.
  for (const [index, call] of calls.large.entries()) {
    await apps.small.get(calls.small[index]!.url);
    await apps.large.get(call.url);
  }
  const timings: CallTiming[] = [];
  for (const [index, call] of calls.large.entries()) {
    const smallUrl = calls.small[index]!.url;
    const largeUrl = call.url;
    let smallBody: unknown;
    let largeBody: unknown;
    for (let i = 0; i < warmup; i += 1) {
      smallBody = await apps.small.get(smallUrl);
      largeBody = await apps.large.get(largeUrl);
    }
    const smallMs: number[] = [];
    const largeMs: number[] = [];
    const started = performance.now();
    for (let round = 0; round < rounds; round += 1) {
      if (round >= MIN_ROUNDS && performance.now() - started > callSeconds * 1000) break;
      const order = round % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const);
      for (const which of order) {
        const result = await timed(apps[which], which === 'small' ? smallUrl : largeUrl);
        (which === 'small' ? smallMs : largeMs).push(result.ms);
        if (which === 'small') smallBody = result.body;
        else largeBody = result.body;
      }
    }
    const timing: CallTiming = {
      endpoint: call.endpoint,
      name: call.name,
      small: { medianMs: median(smallMs), ...pageSizes(smallBody) },
      large: { medianMs: median(largeMs), ...pageSizes(largeBody) },
      ratio: median(largeMs) / median(smallMs),
      rounds: largeMs.length,
    };
    timings.push(timing);
    progress(
      `  ${call.endpoint} ${call.name}: ${timing.small.medianMs.toFixed(1)} ms → ${timing.large.medianMs.toFixed(1)} ms (×${timing.ratio.toFixed(2)})`,
    );
  }
  return timings;
}
