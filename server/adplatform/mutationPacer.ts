/**
 * Keeps the writes to each ad account within Meta's mutation limit (100 a second per ad account):
 * a batch of writes waits until the last second's writes and its own fit. A write counts from when
 * it is sent until a second after its answer came back, so the platform, whatever the network's
 * delays, never sees more than the limit within one second.
 */
import { MUTATIONS_PER_SECOND } from '../../shared/budgetLimits';

const WINDOW_MS = 1000;

interface Slot {
  /** When its answer came back; Infinity while it is in flight. */
  doneAt: number;
}

export class MutationPacer {
  private readonly slots = new Map<string, Slot[]>();
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly perSecond = MUTATIONS_PER_SECOND,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Waits until `count` more writes to the account (act_… or digits; '' when unknown) fit, takes
   * their places, and answers the function to call once their answer is back.
   */
  async acquire(account: string, count: number): Promise<() => void> {
    if (count > this.perSecond) throw new Error(`At most ${this.perSecond} writes can be sent at once`);
    const key = account.replace(/^act_/, '');
    for (;;) {
      const now = this.now();
      const kept = (this.slots.get(key) ?? []).filter((slot) => slot.doneAt > now - WINDOW_MS);
      this.slots.set(key, kept);
      const excess = kept.length + count - this.perSecond;
      if (excess <= 0) {
        const taken = Array.from({ length: count }, () => ({ doneAt: Infinity }));
        kept.push(...taken);
        return () => this.release(key, taken);
      }
      // The excess-th slot to free decides: a finished one frees a second after its answer, one in flight when it is back.
      const freeing = kept.map((slot) => slot.doneAt).sort((a, b) => a - b)[excess - 1]!;
      if (freeing === Infinity) await this.released(key);
      else await this.sleep(freeing + WINDOW_MS - now + 1);
    }
  }

  private release(key: string, taken: Slot[]): void {
    const done = this.now();
    for (const slot of taken) slot.doneAt = done;
    const waiters = this.waiting.get(key);
    this.waiting.delete(key);
    for (const wake of waiters ?? []) wake();
  }

  private released(key: string): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.waiting.get(key) ?? new Set();
      waiters.add(resolve);
      this.waiting.set(key, waiters);
    });
  }
}
