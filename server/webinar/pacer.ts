/**
 * Keeps one Demio account's calls within its published limits — 180 in any 60 seconds and 5,000 a
 * day, the day turning at 00:00 UTC — before Demio has to refuse them (it sends no usage headers to
 * slow down by). Every client of the same account must share one pacer: `pacerFor(apiKey)`.
 *
 * A call's slot is reserved when it is asked for, so calls made at once queue up in order rather
 * than all waiting for the same free moment.
 */
import { DemioDailyQuotaError } from './errors';

export interface PacerLimits {
  perMinute: number;
  perDay: number;
}

export const DEMIO_ACCOUNT_LIMITS: PacerLimits = { perMinute: 180, perDay: 5000 };

/** Demio's minute, and a second more: a call reserved a minute after another may reach Demio a little early. */
const WINDOW_MS = 61_000;
const utcDay = (ms: number) => Math.floor(ms / 86_400_000);

export class DemioPacer {
  /** Reserved call moments in the last minute and ahead, in order. */
  private slots: number[] = [];
  private day = -1;
  private dayCount = 0;

  constructor(
    readonly limits: PacerLimits = DEMIO_ACCOUNT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reserves the next call's moment: how long to wait before making it (ms). Throws when today's calls are spent. */
  reserve(): number {
    const now = this.now();
    this.slots = this.slots.filter((at) => at > now - WINDOW_MS);
    let at = Math.max(now, this.slots.at(-1) ?? now);
    const crowded = this.slots.length >= this.limits.perMinute;
    if (crowded) at = Math.max(at, this.slots[this.slots.length - this.limits.perMinute]! + WINDOW_MS);
    if (utcDay(at) !== this.day) {
      this.day = utcDay(at);
      this.dayCount = 0;
    }
    if (this.dayCount >= this.limits.perDay) throw new DemioDailyQuotaError(new Date((this.day + 1) * 86_400_000));
    this.dayCount += 1;
    this.slots.push(at);
    return at - now;
  }

  /** Calls reserved today (UTC). */
  get usedToday(): number {
    return utcDay(this.now()) === this.day ? this.dayCount : 0;
  }
}

/** One pacer per Demio account (its API key), shared by every client of that account in this process. */
export class PacerRegistry {
  private readonly pacers = new Map<string, DemioPacer>();

  constructor(
    private readonly limits: PacerLimits = DEMIO_ACCOUNT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  pacerFor(apiKey: string): DemioPacer {
    let pacer = this.pacers.get(apiKey);
    if (!pacer) {
      pacer = new DemioPacer(this.limits, this.now);
      this.pacers.set(apiKey, pacer);
    }
    return pacer;
  }
}
