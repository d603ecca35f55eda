/**
 * The simulator's memo of cumulative metrics gives exactly what delivery.ts works out: after the
 * ad's pieces change (a budget write from now on, or one inserted in the past) and after the ad is
 * given a new profile.
 */
import { describe, expect, it } from 'vitest';
import { cumulativeTotals, firstDifference } from '../../../../server/adplatform/simulator/cumulativeMemo';
import {
  effectiveHoursBy,
  totalsAtEffective,
  type DeliveryPiece,
} from '../../../../server/adplatform/simulator/delivery';
import type { DeliveryProfile, SimAd } from '../../../../server/adplatform/simulator/world';

const HOUR = 3_600_000;
const piece = (from: number, to: number, rate = 1, leadFactor = 1): DeliveryPiece => ({
  from: from * HOUR,
  to: to * HOUR,
  rate,
  leadFactor,
});
const profile = (cpl: number): DeliveryProfile => ({
  spendPerHour: 2.5,
  cpm: 20,
  ctrPct: 1.5,
  linkShare: 0.7,
  leads: { kind: 'per_spend', cpl },
  websiteShare: 0.5,
});
const direct = (ad: SimAd, pieces: DeliveryPiece[], at: number) =>
  totalsAtEffective(ad.profile, pieces, effectiveHoursBy(pieces, at));

describe('firstDifference', () => {
  it.each([
    ['the same pieces', [piece(0, 10)], [piece(0, 10)], Infinity],
    ['a change of rate from hour 6', [piece(0, 10)], [piece(0, 6), piece(6, 10, 1.2, 0.9)], 6 * HOUR],
    ['a pause from hour 4', [piece(0, 10)], [piece(0, 4), piece(5, 10)], 4 * HOUR],
    ['a piece more from hour 12', [piece(0, 10)], [piece(0, 10), piece(12, 20)], 12 * HOUR],
    ['another lead factor from the start', [piece(0, 10)], [piece(0, 10, 1, 0.8)], 0],
  ])('%s', (_name, a, b, expected) => {
    expect(firstDifference(a, b)).toBe(expected);
    expect(firstDifference(b, a)).toBe(expected);
  });
});

describe('cumulativeTotals', () => {
  const moments = Array.from({ length: 25 }, (_, h) => h * HOUR);

  it('answers as delivery.ts does when the pieces change later, earlier, and when the profile is swapped', () => {
    const ad = { id: 'memo-ad', profile: profile(12) } as SimAd;
    const schedules = [
      [piece(0, 24)],
      // A budget raise from hour 10, then a lowering from hour 16 (a clock moving forward).
      [piece(0, 10), piece(10, 24, 1.3, 0.8)],
      [piece(0, 10), piece(10, 16, 1.3, 0.8), piece(16, 24, 0.9, 1.04)],
      // A change inserted in the past (a clock set back): the memo must not answer from before it.
      [piece(0, 3), piece(3, 24, 2, 0.7)],
    ];
    for (const pieces of schedules)
      for (const at of moments) expect(cumulativeTotals(ad, pieces, at)).toEqual(direct(ad, pieces, at));
    ad.profile = profile(40);
    const last = schedules.at(-1)!;
    for (const at of moments) expect(cumulativeTotals(ad, last, at)).toEqual(direct(ad, last, at));
  });
});
