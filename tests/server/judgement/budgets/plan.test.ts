/**
 * What a budget action asks (server/judgement/budgets/plan.ts): a percentage in whole cents, an amount,
 * the rule's floor and ceiling and Meta's minimum cutting it (and saying which), and the budgets it
 * refuses with the reason a user reads: a lifetime budget, a budget held one level up or down, an
 * amount already reached.
 */
import { describe, expect, it } from 'vitest';
import { askedBudget, REFUSALS } from '../../../../server/judgement/budgets/plan';
import type { BudgetObject } from '../../../../server/judgement/budgets/types';
import type { RuleAction } from '../../../../shared/ruleActions';

const adset = (overrides: Partial<BudgetObject> = {}): BudgetObject => ({
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
  ...overrides,
});

const raise = (change: RuleAction['change'], bounds: Partial<RuleAction> = {}): RuleAction => ({
  kind: 'raise_budget',
  level: 'adset',
  change,
  ...bounds,
});
const lower = (change: RuleAction['change'], bounds: Partial<RuleAction> = {}): RuleAction => ({
  kind: 'lower_budget',
  level: 'adset',
  change,
  ...bounds,
});

describe('askedBudget', () => {
  it.each<[string, RuleAction, BudgetObject, ReturnType<typeof askedBudget>]>([
    ['raise by 20%', raise({ percent: 20 }), adset(), { asked: 12_000, wanted: 12_000, cutBy: null, boundText: null }],
    ['lower by 25%', lower({ percent: 25 }), adset(), { asked: 7_500, wanted: 7_500, cutBy: null, boundText: null }],
    [
      'a percentage rounded to whole cents',
      raise({ percent: 15 }),
      adset({ dailyBudget: 3_333 }),
      { asked: 3_833, wanted: 3_833, cutBy: null, boundText: null },
    ],
    [
      'raise to an amount (dollars to cents)',
      raise({ to_amount: 150.5 }),
      adset(),
      { asked: 15_050, wanted: 15_050, cutBy: null, boundText: null },
    ],
    [
      'lower to an amount',
      lower({ to_amount: 60 }),
      adset(),
      { asked: 6_000, wanted: 6_000, cutBy: null, boundText: null },
    ],
    [
      "a raise held at the rule's ceiling",
      raise({ percent: 50 }, { ceiling: 120 }),
      adset(),
      {
        asked: 12_000,
        wanted: 15_000,
        cutBy: 'rule_ceiling',
        boundText: "$150.00/day asked, $120.00/day: the rule's ceiling",
      },
    ],
    [
      "a lower held at the rule's floor",
      lower({ percent: 50 }, { floor: 80 }),
      adset(),
      { asked: 8_000, wanted: 5_000, cutBy: 'rule_floor', boundText: "$50.00/day asked, $80.00/day: the rule's floor" },
    ],
    [
      "a lower held at Meta's minimum of $1.00",
      lower({ percent: 90 }),
      adset({ dailyBudget: 500 }),
      {
        asked: 100,
        wanted: 50,
        cutBy: 'minimum',
        boundText: "$0.50/day asked, $1.00/day: Meta's minimum daily budget",
      },
    ],
    [
      'a floor does not hold back a raise, nor a ceiling a lower',
      lower({ percent: 10 }, { ceiling: 50 }),
      adset(),
      { asked: 9_000, wanted: 9_000, cutBy: null, boundText: null },
    ],
    [
      'a campaign with a campaign budget',
      raise({ percent: 10 }),
      adset({ level: 'campaign', id: 'c1' }),
      { asked: 11_000, wanted: 11_000, cutBy: null, boundText: null },
    ],
  ])('%s', (_, action, object, expected) => {
    expect(askedBudget(action, object)).toEqual(expected);
  });

  it.each<[string, RuleAction, BudgetObject, string]>([
    [
      'a lifetime budget',
      raise({ percent: 20 }),
      adset({ dailyBudget: null, lifetimeBudget: 500_000 }),
      REFUSALS.lifetime,
    ],
    [
      'an ad set under a campaign budget',
      raise({ percent: 20 }),
      adset({ dailyBudget: null }),
      'The campaign holds the budget (campaign budget): act on the campaign',
    ],
    [
      'a campaign whose ad sets hold the budgets',
      lower({ percent: 20 }),
      adset({ level: 'campaign', dailyBudget: null }),
      'Its ad sets hold the budgets: act on the ad sets',
    ],
    ['a raise to an amount below the budget', raise({ to_amount: 80 }), adset(), 'Already at or above $80.00/day'],
    ['a raise to the budget itself', raise({ to_amount: 100 }), adset(), 'Already at or above $100.00/day'],
    ['a lower to an amount above the budget', lower({ to_amount: 120 }), adset(), 'Already at or below $120.00/day'],
    [
      "a raise of a budget at the rule's ceiling",
      raise({ percent: 20 }, { ceiling: 100 }),
      adset(),
      "Already at or above the rule's ceiling ($100.00/day)",
    ],
    [
      "a lower of a budget under the rule's floor",
      lower({ percent: 20 }, { floor: 150 }),
      adset(),
      "Already at or below the rule's floor ($150.00/day)",
    ],
    [
      "a lower of a budget at Meta's minimum",
      lower({ percent: 50 }),
      adset({ dailyBudget: 100 }),
      "Already at or below Meta's minimum daily budget ($1.00/day)",
    ],
    ['a percentage too small to move a cent', raise({ percent: 0.1 }), adset({ dailyBudget: 200 }), REFUSALS.nothing],
    ['not a budget action', { kind: 'turn_off', level: 'ad' }, adset(), REFUSALS.notBudget],
  ])('refuses %s', (_, action, object, refused) => {
    expect(askedBudget(action, object)).toEqual({ refused });
  });

  it('names amounts in the account currency', () => {
    expect(askedBudget(raise({ to_amount: 50 }), adset(), 'EUR')).toEqual({
      refused: 'Already at or above €50.00/day',
    });
  });
});
