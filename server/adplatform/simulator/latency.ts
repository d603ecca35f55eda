/**
 * Graph's pace, on demand (`SIMULATOR_LATENCY=meta`): each answer is held for a draw from a
 * log-normal distribution per kind of call (docs/simulator.md, "Latency profile"). Off (`0`), the
 * default, answers at once.
 *
 * | call                        | p50                        | p95                      |
 * | --------------------------- | -------------------------- | ------------------------ |
 * | read                        | 300 ms                     | 1.2 s                    |
 * | ad-level insights           | 800 ms × (1 + rows / 500)  | 3 s × (1 + rows / 500)   |
 * | write                       | 400 ms                     | 1.6 s                    |
 * | batch                       | its slowest item           |                          |
 */
import { seededRandom } from './random';

export type LatencyProfileName = 'off' | 'meta';
export const LATENCY_PROFILES: readonly LatencyProfileName[] = ['off', 'meta'];

export type CallKind = 'read' | 'insights' | 'write';

export interface CallShape {
  kind: CallKind;
  /** Rows in the answer (ad-level insights grow slower with more of them). */
  rows?: number;
}

interface LogNormal {
  p50: number;
  p95: number;
}

const Z95 = 1.6448536269514722;
const LONGEST_MS = 20_000;

export const META_LATENCY: Readonly<Record<CallKind, LogNormal>> = {
  read: { p50: 300, p95: 1200 },
  insights: { p50: 800, p95: 3000 },
  write: { p50: 400, p95: 1600 },
};

/** Rows at which ad-level insights take twice as long as a small answer. */
export const ROWS_DOUBLING = 500;

/** A standard normal draw from two uniforms in [0, 1) (Box–Muller). */
function standardNormal(random: () => number): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Milliseconds to hold one call's answer under a profile. */
export function drawLatency(profile: LatencyProfileName, call: CallShape, random: () => number): number {
  if (profile === 'off') return 0;
  const { p50, p95 } = META_LATENCY[call.kind];
  const growth = call.kind === 'insights' ? 1 + (call.rows ?? 0) / ROWS_DOUBLING : 1;
  const sigma = Math.log(p95 / p50) / Z95;
  return Math.min(LONGEST_MS, Math.round(p50 * growth * Math.exp(sigma * standardNormal(random))));
}

/** A batch answers when its slowest item is done. */
export function drawBatchLatency(profile: LatencyProfileName, items: readonly CallShape[], random: () => number) {
  return items.reduce((slowest, item) => Math.max(slowest, drawLatency(profile, item, random)), 0);
}

export function parseLatencyProfile(value: string | undefined): LatencyProfileName {
  const v = value?.trim() ?? '';
  if (v === '' || v === '0' || v === 'off') return 'off';
  if (v === 'meta') return 'meta';
  throw new Error(`SIMULATOR_LATENCY must be 0 or meta, not ${value}`);
}

/** The simulator's current profile and its own seeded stream of draws. */
export class LatencySwitch {
  private readonly random: () => number;

  constructor(
    public profile: LatencyProfileName = 'off',
    seed = 1,
  ) {
    this.random = seededRandom(seed ^ 0x5eed1a7).next;
  }

  draw(call: CallShape): number {
    return drawLatency(this.profile, call, this.random);
  }

  drawBatch(items: readonly CallShape[]): number {
    return drawBatchLatency(this.profile, items, this.random);
  }
}
