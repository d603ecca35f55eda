/** The estimate shown under a big list: two significant digits, never below the rows on screen. */
import { describe, expect, it } from 'vitest';
import { roughly } from '../../../../src/layout/list/CappedPagination';

describe('an estimated total', () => {
  it('reads as a round number', () => {
    expect(roughly(51_873, 10)).toBe(52_000);
    expect(roughly(1_000_121, 10)).toBe(1_000_000);
    expect(roughly(87, 10)).toBe(87);
  });

  it('is never below the last row on screen', () => {
    expect(roughly(1_040, 1_049)).toBe(1_049);
    expect(roughly(20, 61)).toBe(61);
  });
});
