/**
 * The usage governor reads one response's headers as one reading: a refusal's "regain access" time
 * holds even when the clock moves on while the headers are read.
 */
import { describe, expect, it } from 'vitest';
import { UsageGovernor } from '../../../server/adplatform/usage';

describe('usage headers of one response', () => {
  it("keep the refusal's regain time though the clock ticks between the headers", () => {
    let clock = 1_000_000;
    // Every reading of the clock is a millisecond later, as on a busy machine.
    const usage = new UsageGovernor({ now: () => clock++ });
    const headers = new Headers({
      'x-business-use-case-usage': JSON.stringify({
        '123': [
          {
            type: 'ads_insights',
            call_count: 100,
            total_cputime: 20,
            total_time: 20,
            estimated_time_to_regain_access: 60,
          },
        ],
      }),
      'x-ad-account-usage': JSON.stringify({ acc_id_util_pct: 40, reset_time_duration: 0 }),
    });
    expect(usage.record(headers, '123')).toBe(true);
    expect(usage.regainMs('123')).toBe(3_600_000);
    expect(usage.delayFor('123')).toBe(3_600_000);
  });
});
