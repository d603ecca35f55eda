/**
 * The simulator's clock. Simulated time runs at `speed` × real time from where it was last set
 * (speed 0 freezes it, for tests), and can be moved forward or set at any moment; whoever watches
 * it (crossings.ts) is told each time it is set.
 */
export interface SimClockState {
  now: string;
  speed: number;
}

export class SimClock {
  private anchorSim: number;
  private anchorReal: number;
  private readonly listeners = new Set<() => void>();

  constructor(
    start: number = Date.now(),
    private speedFactor = 1,
    private readonly realNow: () => number = Date.now,
  ) {
    this.anchorSim = start;
    this.anchorReal = realNow();
  }

  now(): number {
    return this.anchorSim + (this.realNow() - this.anchorReal) * this.speedFactor;
  }

  get speed(): number {
    return this.speedFactor;
  }

  set(at: number): void {
    this.anchorSim = at;
    this.anchorReal = this.realNow();
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` after every set, advance or change of speed; answers how to stop. */
  onMove(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error('The simulated clock only moves forward');
    this.set(this.now() + ms);
  }

  setSpeed(speed: number): void {
    if (!(speed >= 0)) throw new Error('Speed must be 0 or more');
    this.set(this.now());
    this.speedFactor = speed;
  }

  state(): SimClockState {
    return { now: new Date(this.now()).toISOString(), speed: this.speedFactor };
  }
}
