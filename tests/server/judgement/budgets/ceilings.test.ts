/**
 * The folder's ceilings on one budget change (server/judgement/budgets/ceilings.ts): growth over 24 h
 * and 7 days counted from the budget in force then (several rules' raises adding up), a significant
 * raise held under significant while learning or settling, Meta's four changes an hour for raises
 * and lowers alike, and lowers never held back by a growth ceiling. The text says what was asked,
 * what is allowed and why.
 */
import { describe, expect, it } from 'vitest';
import { applyCeilings, budgetAt, type CeilingsInput } from '../../../../server/judgement/budgets/ceilings';
import type { BudgetChangeRecord, BudgetObject } from '../../../../server/judgement/budgets/types';
import { DEFAULT_BUDGET_LIMITS } from '../../../../shared/budgetLimits';

const NOW = new Date('2026-05-04T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

const OBJECT: BudgetObject = {
  id: 's1',
  level: 'adset',
  name: 'Ad set one',
  campaignId: 'c1',
  status: 'ACTIVE',
  effectiveStatus: 'ACTIVE',
  dailyBudget: 10_000,
  lifetimeBudget: null,
  budgetRemaining: null,
  learningStage: 'SUCCESS',
};

/** A change `h` hours ago from `before` to `after` (cents), made or claimed by some rule. */
const change = (h: number, before: number, after: number, state: 'done' | 'pending' = 'done'): BudgetChangeRecord => ({
  objectId: 's1',
  at: hoursAgo(h),
  before,
  after,
  state,
});

const decide = (input: Partial<CeilingsInput> & Pick<CeilingsInput, 'before' | 'asked'>) =>
  applyCeilings({ object: OBJECT, history: [], limits: DEFAULT_BUDGET_LIMITS, now: NOW, ...input });

describe('applyCeilings', () => {
  // Defaults: +50 % in 24 h, +100 % in 7 days, significant at 20 %, 72 h to settle, 4 changes an hour.
  it.each<
    [string, Partial<CeilingsInput> & Pick<CeilingsInput, 'before' | 'asked'>, [number, string | null, string | null]]
  >([
    ['a raise within every ceiling', { before: 10_000, asked: 11_500 }, [11_500, null, null]],
    ['a lower', { before: 10_000, asked: 8_000 }, [8_000, null, null]],
    [
      '+50% in 24 h across two rules: the second raise is held at the 24 h ceiling',
      {
        before: 13_000,
        asked: 16_900,
        // Rule A raised $100 → $115 20 h ago, rule B $115 → $130 10 h ago; rule B asks +30 % now.
        history: [change(20, 10_000, 11_500), change(10, 11_500, 13_000)],
      },
      [15_000, 'growth_24h', '+30% asked, +15% allowed: 24 h ceiling'],
    ],
    [
      'a change older than 24 h is the base of the 24 h ceiling, not part of it',
      { before: 13_000, asked: 15_500, history: [change(30, 10_000, 13_000)] },
      [15_500, null, null],
    ],
    [
      'a pending change counts as much as a done one',
      { before: 14_000, asked: 16_000, history: [change(2, 10_000, 14_000, 'pending')] },
      [15_000, 'growth_24h', '+14% asked, +7% allowed: 24 h ceiling'],
    ],
    [
      '+100% in 7 days: raises of earlier days add up to the 7-day ceiling',
      {
        before: 19_000,
        asked: 22_800,
        history: [change(150, 10_000, 13_000), change(100, 13_000, 16_000), change(50, 16_000, 19_000)],
      },
      [20_000, 'growth_7d', '+20% asked, +5% allowed: 7-day ceiling'],
    ],
    [
      'a 24 h ceiling already passed allows nothing',
      { before: 16_000, asked: 17_000, history: [change(5, 10_000, 16_000)] },
      [16_000, 'growth_24h', '+6% asked, none allowed: 24 h ceiling'],
    ],
    [
      'learning: a significant raise held just under significant',
      { before: 10_000, asked: 13_000, object: { ...OBJECT, learningStage: 'LEARNING' } },
      [11_999, 'learning', '+30% asked, +19% allowed: learning'],
    ],
    [
      'learning: a raise under significant goes through',
      { before: 10_000, asked: 11_500, object: { ...OBJECT, learningStage: 'LEARNING' } },
      [11_500, null, null],
    ],
    [
      'learning, when the rule lets significant raises through',
      {
        before: 10_000,
        asked: 13_000,
        object: { ...OBJECT, learningStage: 'LEARNING' },
        significantRaiseInLearning: true,
      },
      [13_000, null, null],
    ],
    [
      'settling: 30 h after a significant raise',
      { before: 12_500, asked: 15_000, history: [change(30, 10_000, 12_500)] },
      [14_999, 'settling', '+20% asked, +19% allowed: settling (a significant change 30 h ago)'],
    ],
    [
      'settling: 71 h after a significant lower',
      { before: 7_000, asked: 8_400, history: [change(71, 10_000, 7_000)] },
      [8_399, 'settling', '+20% asked, +19% allowed: settling (a significant change 71 h ago)'],
    ],
    [
      'settled: 72 h after a significant raise',
      { before: 12_500, asked: 15_000, history: [change(72, 10_000, 12_500)] },
      [15_000, null, null],
    ],
    [
      'settling: small changes since neither restart the 72 h nor add up past significant',
      { before: 13_000, asked: 15_600, history: [change(60, 10_000, 12_500), change(30, 12_500, 13_000)] },
      // Under +20 % of the $125 the significant change left: at most $149.99.
      [14_999, 'settling', '+20% asked, +15% allowed: settling (a significant change 60 h ago)'],
    ],
    [
      'the fifth change within an hour: none allowed',
      {
        before: 10_800,
        asked: 11_500,
        history: [
          change(0.9, 10_000, 10_200),
          change(0.6, 10_200, 10_400),
          change(0.4, 10_400, 10_600),
          change(0.1, 10_600, 10_800),
        ],
      },
      [10_800, 'changes_per_hour', "+6% asked, none allowed: 4 budget changes in the last hour (Meta's limit)"],
    ],
    [
      'the fifth change within an hour: lowers too',
      {
        before: 10_000,
        asked: 8_000,
        history: [
          change(0.9, 10_000, 9_000),
          change(0.6, 9_000, 10_000),
          change(0.4, 10_000, 9_000),
          change(0.1, 9_000, 10_000),
        ],
      },
      [10_000, 'changes_per_hour', "−20% asked, none allowed: 4 budget changes in the last hour (Meta's limit)"],
    ],
    [
      'a change of more than an hour ago leaves room for a fourth',
      {
        before: 10_800,
        asked: 11_000,
        history: [
          change(1.2, 10_000, 10_200),
          change(0.6, 10_200, 10_400),
          change(0.4, 10_400, 10_600),
          change(0.1, 10_600, 10_800),
        ],
      },
      [11_000, null, null],
    ],
    [
      'lowers are not held back by growth, learning or settling',
      {
        before: 20_000,
        asked: 12_000,
        object: { ...OBJECT, learningStage: 'LEARNING' },
        history: [change(50, 10_000, 15_000), change(10, 15_000, 20_000)],
      },
      [12_000, null, null],
    ],
    [
      'the tightest ceiling is the one named',
      {
        before: 11_000,
        asked: 16_500,
        object: { ...OBJECT, learningStage: 'LEARNING' },
        history: [change(10, 10_000, 11_000)],
      },
      // Learning: under +20 % of the lowest budget of the settling hours ($100), not of today's $110.
      [11_999, 'learning', '+50% asked, +9% allowed: learning'],
    ],
    ['nothing asked', { before: 10_000, asked: 10_000 }, [10_000, null, null]],
  ])('%s', (_, input, [allowed, cutBy, cutText]) => {
    expect(decide(input)).toEqual({
      objectId: 's1',
      level: 'adset',
      before: input.before,
      asked: input.asked,
      allowed,
      cutBy,
      cutText,
    });
  });

  it('counts growth from the lowest budget of the window: lowered then raised grows no more than +50 % in 24 h', () => {
    // $100 a day, lowered to $50 ten hours ago (another rule), asked back to $100: at most $75.
    const history = [change(10, 10_000, 5_000)];
    expect(
      decide({ before: 5_000, asked: 10_000, history, limits: { ...DEFAULT_BUDGET_LIMITS, significant_pct: 100 } }),
    ).toMatchObject({
      allowed: 7_500,
      cutBy: 'growth_24h',
      cutText: '+100% asked, +50% allowed: 24 h ceiling',
    });
  });

  it('follows the folder’s limits', () => {
    const limits = { ...DEFAULT_BUDGET_LIMITS, growth_24h_pct: 10, significant_pct: 50 };
    expect(decide({ before: 10_000, asked: 13_000, limits })).toMatchObject({ allowed: 11_000, cutBy: 'growth_24h' });
  });
});

describe('budgetAt', () => {
  const history = [change(30, 10_000, 12_000), change(10, 12_000, 15_000)];
  it.each([
    ['before any change', 40, 10_000],
    ['between the changes', 20, 12_000],
    ['after the last change: the budget now', 5, 15_000],
  ])('%s', (_, h, expected) => {
    expect(budgetAt(hoursAgo(h).getTime(), history, 15_000)).toBe(expected);
  });
});
