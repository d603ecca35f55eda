/**
 * The money a run's budget changes move (server/judgement/budgets/moneyAtRisk.ts): each change's daily
 * amount, the totals added and removed, and the line a reviewer reads; a change cut to nothing
 * moves nothing.
 */
import { describe, expect, it } from 'vitest';
import { moneyOf } from '../../../../server/judgement/budgets/moneyAtRisk';
import type { BudgetDecision } from '../../../../server/judgement/budgets/types';

const decision = (
  id: string,
  before: number,
  allowed: number,
  level: BudgetDecision['level'] = 'adset',
): BudgetDecision => ({
  objectId: id,
  level,
  before,
  asked: allowed,
  allowed,
  cutBy: null,
  cutText: null,
});

/** n ad sets each raised by `cents` a day. */
const raises = (n: number, cents: number, level: BudgetDecision['level'] = 'adset') =>
  Array.from({ length: n }, (_, i) => decision(`${level}${i}`, 10_000, 10_000 + cents, level));

describe('moneyOf', () => {
  it.each<[string, BudgetDecision[], string, string?]>([
    ['raises of ad sets', [...raises(12, 9_000), ...raises(2, 8_000)], '+$1,240/day across 14 ad sets'],
    ['lowers of campaigns', raises(3, -10_000, 'campaign'), '−$300/day across 3 campaigns'],
    [
      'both',
      [...raises(14, 8_000), ...raises(3, -10_000)],
      '+$1,120/day across 14 ad sets · −$300/day across 3 ad sets',
    ],
    [
      'ad sets and campaigns together',
      [...raises(2, 2_000), ...raises(1, 2_050, 'campaign')],
      '+$60.50/day across 2 ad sets and 1 campaign',
    ],
    ['one ad set', raises(1, 1_500), '+$15/day across 1 ad set'],
    ['in the account currency', raises(2, 5_000), '+€100/day across 2 ad sets', 'EUR'],
    ['changes cut to nothing move nothing', [decision('s1', 10_000, 10_000)], 'no budget change'],
    ['no change', [], 'no budget change'],
  ])('%s', (_, decisions, text, currency = 'USD') => {
    expect(moneyOf(decisions, currency).text).toBe(text);
  });

  it('answers each change and the totals in cents a day', () => {
    const money = moneyOf(
      [decision('s1', 10_000, 12_000), decision('s2', 10_000, 10_000), decision('c1', 30_000, 24_000, 'campaign')],
      'USD',
    );
    expect(money).toEqual({
      changes: [
        { objectId: 's1', level: 'adset', perDay: 2_000 },
        { objectId: 'c1', level: 'campaign', perDay: -6_000 },
      ],
      added: 2_000,
      removed: 6_000,
      text: '+$20/day across 1 ad set · −$60/day across 1 campaign',
    });
  });
});
