/**
 * A backtest hands the evaluator the numbers of a kept reading: as the insight row a live read
 * would have returned (insightRowOf), or — for the ads it only screens — as metrics made directly
 * from the numbers. Both must read the same.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowMetrics } from '../../../server/judgement/objectMetrics';
import { insightRowOf, metricsOfNumbers, type AdNumbers } from '../../../server/history/reading';

const ids = { adId: 'a1', adName: 'Ad', campaignId: 'c1', campaignName: 'EDM' };
const count = (max: number) => fc.option(fc.oneof(fc.constant(0), fc.integer({ min: 1, max })), { freq: 5 });

describe('the metrics of a kept reading', () => {
  it('are what the evaluator reads from the insight row of the same numbers, nulls and zeros included', () => {
    fc.assert(
      fc.property(
        fc.record({
          spendCents: count(50_000_000),
          impressions: count(10_000_000),
          clicks: count(100_000),
          linkClicks: count(100_000),
          leads: count(10_000),
          websiteLeads: count(10_000),
        }),
        (numbers: AdNumbers) => {
          expect(metricsOfNumbers(numbers)).toEqual(rowMetrics(insightRowOf(ids, numbers)));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('count website leads as the leads when no lead total was reported, as the row does', () => {
    const numbers = { spendCents: 12_345, impressions: 900, clicks: 9, linkClicks: 4, leads: 0, websiteLeads: 3 };
    expect(metricsOfNumbers(numbers)).toMatchObject({ spend: 123.45, leads: 3, websiteLeads: 3, cpc: 123.45 / 9 });
  });
});
