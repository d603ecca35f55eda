/**
 * Usage as Graph meters it: calls per ad account over a rolling five minutes, reported in the
 * X-App-Usage, X-Business-Use-Case-Usage and X-FB-Ads-Insights-Throttle headers, and the ad
 * account refused (80004) once it is over its quota. Insights calls are metered as `ads_insights`,
 * everything else as `ads_management`, as Graph names the two business use cases.
 */
import type { GraphAnswer } from './answers';
import { rateLimitAnswer, type FaultSpec } from './faults';

/** Per ad account since the simulator started: reads (GET, batch items included), writes, and refused calls. */
export interface AccountCallCount {
  reads: number;
  writes: number;
  refused: number;
  /** The reads of insights among them. */
  insights: number;
}

export interface QuotaOptions {
  /** Calls per account in 5 minutes that count as 100 % usage (the real quotas are higher). */
  accountQuota: number;
  /** Calls over all accounts in 5 minutes that count as 100 % app usage (x-app-usage); default 10 × accountQuota. */
  appQuota?: number;
}

/** A reading forced by a fault: a refused call reads 100 %, an injected `usage` fault its own figure. */
export interface UsageOverride {
  pct: number;
  regainMinutes: number;
}

const USAGE_WINDOW_MS = 5 * 60_000;

export const businessUseCase = (path: string) => (path.includes('insights') ? 'ads_insights' : 'ads_management');

export class CallMeter {
  private readonly calls = new Map<string, number[]>();
  /** Calls per ad account (digits) since the start; never trimmed. */
  readonly accountCalls = new Map<string, AccountCallCount>();

  constructor(private readonly options: QuotaOptions) {}

  /** Counts a call against its ad account's usage; at 100 % the platform refuses (80004). */
  counted(method: string, path: string, run: () => GraphAnswer): GraphAnswer {
    const answer = run();
    if (!answer.accountId) return answer;
    const now = Date.now();
    const recent = (this.calls.get(answer.accountId) ?? []).filter((at) => now - at < USAGE_WINDOW_MS);
    recent.push(now);
    this.calls.set(answer.accountId, recent);
    const count = this.accountCalls.get(answer.accountId) ?? { reads: 0, writes: 0, refused: 0, insights: 0 };
    this.accountCalls.set(answer.accountId, count);
    if (method === 'GET') count.reads += 1;
    else count.writes += 1;
    if (method === 'GET' && businessUseCase(path) === 'ads_insights') count.insights += 1;
    if (recent.length > this.options.accountQuota && !path.startsWith('me/')) {
      count.refused += 1;
      return { ...rateLimitAnswer({ kind: 'rate_limit', code: 80004 }), accountId: answer.accountId };
    }
    return answer;
  }

  /** The usage headers of one answer. */
  headers(path: string, accountId: string | undefined, override?: UsageOverride): Record<string, string> {
    const appCalls = [...this.calls.values()].reduce((sum, list) => sum + list.length, 0);
    const appPct =
      override?.pct ??
      Math.min(100, Math.round((appCalls / (this.options.appQuota ?? this.options.accountQuota * 10)) * 100));
    const headers: Record<string, string> = {
      'x-app-usage': JSON.stringify({
        call_count: appPct,
        total_cputime: Math.round(appPct / 2),
        total_time: Math.round(appPct / 2),
      }),
    };
    if (!accountId) return headers;
    const pct =
      override?.pct ??
      Math.min(100, Math.round(((this.calls.get(accountId)?.length ?? 0) / this.options.accountQuota) * 100));
    headers['x-business-use-case-usage'] = JSON.stringify({
      [accountId]: [
        {
          type: businessUseCase(path),
          call_count: pct,
          total_cputime: Math.round(pct / 2),
          total_time: Math.round(pct / 2),
          estimated_time_to_regain_access: override?.regainMinutes ?? 0,
        },
      ],
    });
    if (path.includes('insights')) {
      headers['x-fb-ads-insights-throttle'] = JSON.stringify({
        app_id_util_pct: appPct,
        acc_id_util_pct: pct,
        ads_api_access_tier: 'standard_access',
      });
    }
    return headers;
  }
}

/** The override a rate-limit fault or a `usage` fault puts on the headers, if any. */
export function forcedReading(refusal: FaultSpec | undefined, usage: FaultSpec | undefined): UsageOverride | undefined {
  if (refusal) return { pct: 100, regainMinutes: refusal.regainMinutes ?? 0 };
  if (usage) return { pct: usage.pct ?? 95, regainMinutes: usage.regainMinutes ?? 0 };
  return undefined;
}
