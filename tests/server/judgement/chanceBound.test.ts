import { describe, expect, it } from 'vitest';
import { rateUpperBound } from '../../../server/judgement/chanceBound';

describe('rateUpperBound: the highest rate chance allows', () => {
  it('is 43 % for 12 of 40, and narrows toward the rate seen as people are added', () => {
    expect(rateUpperBound(12, 40)).toBeCloseTo(0.429, 3);
    expect(rateUpperBound(120, 400)).toBeCloseTo(0.339, 3);
    expect(rateUpperBound(1200, 4000)).toBeGreaterThan(0.3);
    expect(rateUpperBound(1200, 4000)).toBeLessThan(0.32);
  });

  it('stays inside 0–1: none of 10 still allows 21 %, all of them allows all', () => {
    expect(rateUpperBound(0, 10)).toBeCloseTo(0.213, 3);
    expect(rateUpperBound(10, 10)).toBe(1);
    expect(rateUpperBound(0, 0)).toBe(1);
  });
});
