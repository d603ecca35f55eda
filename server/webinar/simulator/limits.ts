/**
 * Demio's published limits per account: 180 requests in any 60 seconds and 5,000 calls a day,
 * the day resetting at 00:00 UTC (demio-rate-limits: Demio documents neither the answer past a
 * limit nor any header, so the simulator answers 429 `{messages: ["Too Many Requests"]}`). Counted
 * in real time, as the calls are made.
 */
export interface DemioLimits {
  perMinute: number;
  perDay: number;
}

export const DEMIO_LIMITS: DemioLimits = { perMinute: 180, perDay: 5000 };

const MINUTE = 60_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class LimitMeter {
  private readonly recent = new Map<string, number[]>();
  private readonly daily = new Map<string, { day: string; count: number }>();

  constructor(
    public limits: DemioLimits = DEMIO_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a call of the account; false when it is over a limit (the call is refused, and counted). */
  allow(account: string): boolean {
    const now = this.now();
    const minute = (this.recent.get(account) ?? []).filter((at) => now - at < MINUTE);
    minute.push(now);
    this.recent.set(account, minute);
    const today = utcDay(now);
    const day = this.daily.get(account);
    const count = day?.day === today ? day.count + 1 : 1;
    this.daily.set(account, { day: today, count });
    return minute.length <= this.limits.perMinute && count <= this.limits.perDay;
  }

  /** Calls today (UTC) per account. */
  today(): Record<string, number> {
    const today = utcDay(this.now());
    return Object.fromEntries([...this.daily].filter(([, d]) => d.day === today).map(([id, d]) => [id, d.count]));
  }
}
