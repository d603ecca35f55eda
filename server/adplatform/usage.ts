/**
 * Honours the Graph API's usage headers: X-Business-Use-Case-Usage (per ad account / business),
 * X-App-Usage, X-Ad-Account-Usage and X-FB-Ads-Insights-Throttle. The platform says how close a
 * caller is to its limits (percentages) and, once over, how long until access returns
 * (estimated_time_to_regain_access, minutes). The governor turns that into a wait before the next
 * call for the same scope, so the client slows down before it is blocked, and stops calling while
 * it is blocked instead of spending attempts on certain refusals.
 */

export interface UsageOptions {
  /** Start slowing down at this usage percentage. */
  highWaterPct?: number;
  /** Wait before a call at 100 % usage (scaled linearly from highWaterPct). */
  maxSlowdownMs?: number;
  now?: () => number;
}

interface ScopeUsage {
  pct: number;
  blockedUntil: number;
  seenAt: number;
}

/** The platform's counters decay over a rolling window; an old reading says nothing now. */
const STALE_AFTER_MS = 5 * 60_000;
export const APP_SCOPE = 'app';

function parseJson(value: string | null): unknown {
  if (!value) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : Number(value) || 0);

export class UsageGovernor {
  private readonly scopes = new Map<string, ScopeUsage>();
  private readonly highWaterPct: number;
  private readonly maxSlowdownMs: number;
  private readonly now: () => number;

  constructor(options: UsageOptions = {}) {
    this.highWaterPct = options.highWaterPct ?? 90;
    this.maxSlowdownMs = options.maxSlowdownMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Reads the usage headers of one response. `accountScope` is the ad account the call addressed,
   * if any. Whether the response carried any usage header at all.
   */
  record(headers: Headers, accountScope?: string): boolean {
    const names = ['x-business-use-case-usage', 'x-app-usage', 'x-ad-account-usage', 'x-fb-ads-insights-throttle'];
    const reported = names.some((name) => headers.has(name));
    // One instant for the whole response: its headers are merged as one reading (update's sameResponse).
    const seenAt = this.now();
    const buc = parseJson(headers.get('x-business-use-case-usage'));
    if (buc && typeof buc === 'object') {
      for (const [id, entries] of Object.entries(buc as Record<string, unknown>)) {
        for (const entry of Array.isArray(entries) ? entries : []) {
          const e = entry as Record<string, unknown>;
          this.update(
            id,
            Math.max(num(e.call_count), num(e.total_cputime), num(e.total_time)),
            num(e.estimated_time_to_regain_access) * 60_000,
            seenAt,
          );
        }
      }
    }
    const app = parseJson(headers.get('x-app-usage')) as Record<string, unknown> | undefined;
    if (app && typeof app === 'object')
      this.update(APP_SCOPE, Math.max(num(app.call_count), num(app.total_cputime), num(app.total_time)), 0, seenAt);

    const account = parseJson(headers.get('x-ad-account-usage')) as Record<string, unknown> | undefined;
    if (account && typeof account === 'object' && accountScope) {
      const pct = num(account.acc_id_util_pct);
      this.update(accountScope, pct, pct >= 100 ? num(account.reset_time_duration) * 1000 : 0, seenAt);
    }
    const insights = parseJson(headers.get('x-fb-ads-insights-throttle')) as Record<string, unknown> | undefined;
    if (insights && typeof insights === 'object') {
      this.update(APP_SCOPE, num(insights.app_id_util_pct), 0, seenAt);
      if (accountScope) this.update(accountScope, num(insights.acc_id_util_pct), 0, seenAt);
    }
    return reported;
  }

  /** A block the platform did not put a time on: calls to the scope wait this long (the app's, without a scope). */
  block(accountScope: string | undefined, ms: number): void {
    const key = accountScope ?? APP_SCOPE;
    const now = this.now();
    const previous = this.scopes.get(key);
    this.scopes.set(key, {
      pct: Math.max(previous?.pct ?? 0, 100),
      blockedUntil: Math.max(previous?.blockedUntil ?? 0, now + ms),
      seenAt: now,
    });
  }

  /**
   * The longest time the platform said a scope stays blocked (0 when none), rounded up to whole
   * seconds: the platform speaks in minutes, and a wait must never come out a millisecond short.
   */
  regainMs(accountScope?: string): number {
    const now = this.now();
    const remaining = Math.max(0, ...this.fresh(accountScope).map((s) => s.blockedUntil - now));
    return Math.ceil(remaining / 1000) * 1000;
  }

  /** How long to wait before the next call to this scope. */
  delayFor(accountScope?: string): number {
    const blocked = this.regainMs(accountScope);
    if (blocked > 0) return blocked;
    const pct = Math.max(0, ...this.fresh(accountScope).map((s) => s.pct));
    if (pct < this.highWaterPct) return 0;
    const share = Math.min(1, (pct - this.highWaterPct) / Math.max(1, 100 - this.highWaterPct));
    return Math.round(this.maxSlowdownMs * share);
  }

  snapshot(): Record<string, { pct: number; blockedForMs: number }> {
    const now = this.now();
    return Object.fromEntries(
      [...this.scopes].map(([key, s]) => [key, { pct: s.pct, blockedForMs: Math.max(0, s.blockedUntil - now) }]),
    );
  }

  private fresh(accountScope?: string): ScopeUsage[] {
    const now = this.now();
    return [APP_SCOPE, accountScope]
      .filter((key): key is string => Boolean(key))
      .map((key) => this.scopes.get(key))
      .filter((s): s is ScopeUsage => Boolean(s) && now - s!.seenAt < STALE_AFTER_MS);
  }

  private update(scope: string, pct: number, regainMs: number, now: number): void {
    const previous = this.scopes.get(scope);
    // Several headers can describe one scope in one response: keep the most severe reading.
    const sameResponse = previous && previous.seenAt === now;
    this.scopes.set(scope, {
      pct: sameResponse ? Math.max(previous.pct, pct) : pct,
      blockedUntil: Math.max(regainMs > 0 ? now + regainMs : 0, sameResponse ? previous.blockedUntil : 0),
      seenAt: now,
    });
  }
}

/** 'act_123' / '123' → '123': the id the usage headers use for an ad account. */
export function accountScopeOf(path: string): string | undefined {
  return /(?:^|\/)act_(\d+)/.exec(path)?.[1];
}
