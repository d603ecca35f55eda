/**
 * The budget bench's counts on small hand-made histories: what a reader of its report takes each
 * number to mean (docs/bench.md).
 */
import { describe, expect, it } from 'vitest';
import {
  budgetCounts,
  leadsAtTarget,
  maxGrowth24h,
  spendOverTarget,
  type AdSetOutcome,
  type BudgetChangeEntry,
} from '../../../../../bench/decisions/budget/tally';
import { budgetGoals } from '../../../../../bench/decisions/budget/report';

const H = 3_600_000;
const change = (
  objectId: string,
  hour: number,
  before: number,
  after: number,
  action: BudgetChangeEntry['action'] = after > before ? 'raise_budget' : 'lower_budget',
): BudgetChangeEntry => ({ action, objectId, at: hour * H, before, after });

describe('maxGrowth24h', () => {
  it.each([
    { name: 'no changes', changes: [], growth: 0 },
    { name: 'one raise of 20 %', changes: [change('a', 1, 5000, 6000)], growth: 0.2 },
    {
      name: 'hourly raises compound within the day',
      changes: [change('a', 1, 5000, 6000), change('a', 2, 6000, 7200), change('a', 3, 7200, 8640)],
      growth: 0.728,
    },
    {
      name: 'raises a day apart or more never add up',
      changes: [change('a', 0, 5000, 6000), change('a', 24, 6000, 7200), change('a', 49, 7200, 8640)],
      growth: 0.2,
    },
    {
      name: 'a raise measured from the lowest budget of the 24 hours before it',
      changes: [change('a', 0, 5000, 4000), change('a', 10, 4000, 4800), change('a', 20, 4800, 5760)],
      growth: 0.44,
    },
    {
      name: 'a lowering alone is no growth',
      changes: [change('a', 0, 5000, 4000), change('a', 1, 4000, 3200)],
      growth: 0,
    },
    {
      name: 'the largest object wins; objects never mix',
      changes: [change('a', 1, 5000, 6000), change('b', 2, 3000, 4500), change('a', 3, 6000, 6600)],
      growth: 0.5,
    },
  ])('$name: $growth', ({ changes, growth }) => {
    expect(maxGrowth24h(changes)).toBeCloseTo(growth, 4);
  });
});

const adset = (id: string, days: [number, number][], baselineSpend: number): AdSetOutcome => ({
  id,
  days: days.map(([spend, leads]) => ({ spend, leads })),
  baselineSpend,
});

describe('leads_at_target and spend_over_target', () => {
  const history = [
    // $25 and $40 a lead: the first day's 4 leads count, the second's do not; $31.43 overall, over $30.
    adset(
      'mixed',
      [
        [100, 4],
        [120, 3],
      ],
      200,
    ),
    // A winner raised: every day under target, its extra spend is not over target.
    adset(
      'winner',
      [
        [60, 3],
        [90, 4],
      ],
      120,
    ),
    // A loser raised: $300 for 5 leads, $100 more than its starting budget bought.
    adset(
      'loser',
      [
        [140, 3],
        [160, 2],
      ],
      200,
    ),
    // A loser lowered: it spent less than at its starting budget, which adds nothing.
    adset(
      'lowered',
      [
        [50, 1],
        [40, 1],
      ],
      100,
    ),
    // Spend and no lead at all: over any target, but it spent what its starting budget did.
    adset(
      'dud',
      [
        [70, 0],
        [70, 0],
      ],
      140,
    ),
  ];

  it('counts the leads of ad-set-days at or under the target', () => {
    expect(leadsAtTarget(history, 30)).toBe(4 + 3 + 4);
    expect(leadsAtTarget([adset('exactly', [[90, 3]], 90)], 30)).toBe(3);
  });

  it('adds the spend above the starting budget’s on ad sets over target over the period', () => {
    // mixed: $220 / 7 = $31.43 > $30 → $20 added; loser $100; lowered and dud: nothing added.
    expect(spendOverTarget(history, 30)).toBe(120);
  });

  it('puts the counts together', () => {
    const changes = [
      change('winner', 1, 5000, 6000),
      change('loser', 2, 5000, 6000),
      change('loser', 30, 6000, 5000, 'restore_budget'),
    ];
    expect(budgetCounts({ changes, adsets: history, limitErrors: 2, target: 30 })).toEqual({
      changes: 3,
      limit_errors: 2,
      max_growth_24h: 0.2,
      rolled_back: 1,
      leads_at_target: 11,
      spend_over_target: 120,
    });
  });
});

describe('budgetGoals', () => {
  const counts = { changes: 10, limit_errors: 0, max_growth_24h: 0.5, rolled_back: 1, leads_at_target: 900 };
  it('passes a safe run within every goal, as ratios to the naive run', () => {
    const goals = budgetGoals({
      naive: { ...counts, limit_errors: 40, max_growth_24h: 20, leads_at_target: 1000, spend_over_target: 1000 },
      safe: { ...counts, spend_over_target: 300 },
    });
    expect(Object.fromEntries(Object.entries(goals).map(([k, g]) => [k, [g.value, g.met]]))).toEqual({
      limit_errors: [0, true],
      max_growth_24h: [0.5, true],
      spend_over_target: [0.3, true],
      leads_at_target: [0.9, true],
    });
  });

  it('fails each goal missed', () => {
    const goals = budgetGoals({
      naive: { ...counts, leads_at_target: 1000, spend_over_target: 1000 },
      safe: { ...counts, limit_errors: 1, max_growth_24h: 0.51, leads_at_target: 899, spend_over_target: 301 },
    });
    expect(Object.values(goals).map((g) => g.met)).toEqual([false, false, false, false]);
  });
});
