/** An alert digest of a budget rule says what its budget changes moved, before the entries. */
import { describe, expect, it } from 'vitest';
import { digestParts } from '../../../server/alerts/digests';
import type { ActivityRow } from '../../../server/activity/entries';
import type { LoadedEngineRule } from '../../../server/run/rulesSource';

const rule = {
  id: 7,
  name: 'Scale winners',
  timezone: 'UTC',
  folder: { id: 1, name: 'Harbor', isDeleted: false },
  account: { adAccountId: 'act_1', accountName: 'Harbor Wealth', currency: 'USD', timezone: 'UTC' },
} as LoadedEngineRule;

const entry = (id: number, action: string, before: number | null, after: number | null): ActivityRow =>
  ({
    id,
    action,
    adId: `s${id}`,
    objectType: 'adset',
    createdAt: new Date('2026-03-02T15:00:00Z'),
    state: 'done',
    reason: {},
    budgetBefore: before,
    budgetAfter: after,
  }) as ActivityRow;

describe('digestParts', () => {
  it('leads with the money the budget changes moved', () => {
    const parts = digestParts(
      rule,
      [
        entry(1, 'raise_budget', 5000, 6000),
        entry(2, 'raise_budget', 10_000, 12_000),
        entry(3, 'lower_budget', 4000, 3200),
      ],
      'https://example.test',
    );
    expect(parts.paragraphs[1]).toBe('Budget changes: +$30/day across 2 ad sets · −$8/day across 1 ad set.');
  });

  it('says nothing of money for a rule that only turns things off', () => {
    const parts = digestParts(rule, [entry(1, 'turn_off_ad', null, null)], 'https://example.test');
    expect(parts.paragraphs.some((p) => p.startsWith('Budget changes'))).toBe(false);
  });
});
