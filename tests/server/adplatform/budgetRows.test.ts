/** Budget rows as Graph sends them, read as the engine's BudgetObject (cents as integers, null where there is none). */
import { describe, expect, it } from 'vitest';
import { budgetObject, type BudgetNode } from '../../../server/adplatform/budgetRows';

const node = (fields: Partial<BudgetNode>): BudgetNode => ({
  id: '1',
  name: 'Ad set',
  campaign_id: '9',
  status: 'ACTIVE',
  effective_status: 'ACTIVE',
  ...fields,
});

describe('reading a budget row', () => {
  const cases: [string, Partial<BudgetNode>, Record<string, unknown>][] = [
    [
      'a daily budget',
      { daily_budget: '2500', budget_remaining: '1230', learning_stage_info: { status: 'LEARNING' } },
      { dailyBudget: 2500, lifetimeBudget: null, budgetRemaining: 1230, learningStage: 'LEARNING' },
    ],
    [
      'a lifetime budget',
      { lifetime_budget: '90000', budget_remaining: '45000' },
      { dailyBudget: null, lifetimeBudget: 90_000, budgetRemaining: 45_000, learningStage: null },
    ],
    [
      'no budget of its own (under a campaign budget)',
      { budget_remaining: '0', learning_stage_info: { status: 'FAIL' } },
      { dailyBudget: null, lifetimeBudget: null, budgetRemaining: null, learningStage: 'FAIL' },
    ],
    [
      'Graph’s "0" for no budget',
      { daily_budget: '0', budget_remaining: '0' },
      { dailyBudget: null, budgetRemaining: null },
    ],
    ['an unreadable amount', { daily_budget: 'lots' }, { dailyBudget: null }],
  ];
  for (const [name, fields, expected] of cases)
    it(name, () => expect(budgetObject(node(fields), 'adset')).toMatchObject(expected));

  it('names a campaign its own campaign', () => {
    const campaign = budgetObject(node({ id: '9', campaign_id: undefined, daily_budget: '100' }), 'campaign');
    expect(campaign).toMatchObject({ level: 'campaign', campaignId: '9', dailyBudget: 100 });
  });
});
