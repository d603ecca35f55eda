import { describe, expect, it } from 'vitest';
import { measureLeadLag, type DayReading } from '../../../server/health/checks';

/**
 * One day's readings from its end to 72 hours after: `arrived(age)` gives the instant-form and the
 * website leads reported by that age.
 */
function day(name: string, arrived: (age: number) => { onsite: number; website: number }): DayReading[] {
  return Array.from({ length: 73 }, (_, age) => {
    const { onsite, website } = arrived(age);
    return { day: name, ageHours: age, spend: 100, clicks: 50, leads: onsite + website, websiteLeads: website };
  });
}

/** 10 website leads a day, `atEnd` of them in at the day's end, the rest one every `every` hours. */
const websiteArrivals = (atEnd: number, every: number) => (age: number) =>
  Math.min(10, atEnd + Math.floor(age / every));

describe('measured lead lag', () => {
  it('is measured on the website leads when the account has any: instant-form leads do not hide their lag', () => {
    const arrived = (age: number) => ({ onsite: 90, website: websiteArrivals(2, 6)(age) });
    const lag = measureLeadLag([...day('2026-03-01', arrived), ...day('2026-03-02', arrived)]);
    // 2 of 10 in at the end, 9 in after (9 - 2) × 6 = 42 hours: the allowance suggested is that plus half a day.
    expect(lag).toEqual({ lead_kind: 'website', days: 2, late_share: 0.8, hours_to_90: 42, suggested_lag_hours: 54 });
  });

  it('an account with instant-form leads only is measured on all its leads', () => {
    const lag = measureLeadLag(day('2026-03-01', (age) => ({ onsite: age < 1 ? 45 : 50, website: 0 })));
    expect(lag).toEqual({ lead_kind: 'all', days: 1, late_share: 0, hours_to_90: 0, suggested_lag_hours: 12 });
  });

  it('counts a day only once it was watched until its website leads are final (72 hours)', () => {
    const watched = day('2026-03-01', (age) => ({ onsite: 0, website: websiteArrivals(2, 6)(age) }));
    expect(measureLeadLag(watched.filter((r) => r.ageHours <= 60))).toBeNull();
    expect(measureLeadLag(watched)?.days).toBe(1);
  });
});
