/** Which subscriptions a rule needs (server/push/desired.ts): each task's watches, and what cannot be pushed. */
import { describe, expect, it } from 'vitest';
import { accountSubscriptions, OBJECT_WATCHES, subscriptionsOf } from '../../../server/push/desired';
import type { EngineRule, RuleItem } from '../../../server/judgement/ruleShape';
import { CARRIED_OVER_JUDGING, NEW_RULE_JUDGING } from '../../../shared/judging';

const task = (name: string, values: unknown): RuleItem => ({ name, values, is_active: true });
const rule = (tasks: RuleItem[], judging = NEW_RULE_JUDGING): EngineRule => ({
  id: 1,
  name: 'Rule',
  rule_filter: [{ name: 'campaign_name_contains', values: ['EDM'], is_active: true }],
  rule_task: tasks,
  judging,
});
const specs = (r: EngineRule, currency = 'USD') =>
  subscriptionsOf(r, currency)?.map((w) => ({ ...w.spec, line: w.line })) ?? null;

describe('the subscriptions a rule needs', () => {
  it.each([
    [
      'a CPL over its line, in cents',
      [task('trigger_cpl', { cpl: '60' })],
      [
        {
          event_type: 'INSIGHTS_UPDATED',
          object_type: 'AD',
          filters: [{ field: 'cost_per_lead_fb', operator: 'GREATER_THAN', value: 6000 }],
          line: 60,
        },
      ],
    ],
    [
      'spend past its line: a milestone a cent past it',
      [task('spend_cpl_no_leads', { spend: '40' })],
      [
        {
          event_type: 'INSIGHTS_MILESTONE_REACHED',
          object_type: 'AD',
          milestone: { field: 'spend', step: 4001 },
          line: 40,
        },
      ],
    ],
    [
      'spend and a CTR under its line, each watched',
      [task('spend_ctr_no_leads', { spend: '40', ctr: '0.5' })],
      [
        {
          event_type: 'INSIGHTS_MILESTONE_REACHED',
          object_type: 'AD',
          milestone: { field: 'spend', step: 4001 },
          line: 40,
        },
        {
          event_type: 'INSIGHTS_UPDATED',
          object_type: 'AD',
          filters: [{ field: 'ctr', operator: 'LESS_THAN', value: 0.5 }],
          line: 0.5,
        },
      ],
    ],
    [
      'a campaign’s seat limit: its leads reaching the number',
      [task('campaign_leads', { leads: '30' })],
      [
        {
          event_type: 'INSIGHTS_UPDATED',
          object_type: 'CAMPAIGN',
          filters: [{ field: 'leadgen', operator: 'GREATER_THAN', value: 29 }],
          line: 30,
        },
      ],
    ],
  ])('%s', (_name, tasks, expected) => {
    expect(specs(rule(tasks))).toEqual(expected);
  });

  it('counts a currency without minor units as Meta does', () => {
    expect(specs(rule([task('trigger_cpl', { cpl: '6000' })]), 'JPY')![0]!.filters![0]!.value).toBe(6000);
  });

  it('leaves to the schedule what Meta cannot push: outcome tasks, spend under $10, revive, conditions', () => {
    expect(specs(rule([task('show_up_rate', { rate: '30', min_registrations: '20' })]))).toBeNull();
    expect(
      specs({
        ...rule([]),
        conditions: { match: 'all', conditions: [{ metric: 'cpl', window: 'last_3_days', op: '<', value: 30 }] },
        action: { kind: 'raise_budget', level: 'adset', change: { percent: 20 } },
      }),
    ).toBeNull();
    expect(specs(rule([task('spend_no_links_clicks', { spend: '5' })]))).toBeNull();
    expect(specs(rule([task('trigger_cpl', { cpl: '60' })], { ...CARRIED_OVER_JUDGING, revive_hours: 72 }))).toBeNull();
  });

  it('makes each subscription of an account once, with its object watches, and nothing for a rule it cannot cover', () => {
    const cpl = rule([task('trigger_cpl', { cpl: '60' })]);
    const both = accountSubscriptions([cpl, { ...cpl, id: 2 }], 'USD');
    expect(both.map((w) => w.key).sort()).toEqual(
      [...subscriptionsOf(cpl, 'USD')!, ...OBJECT_WATCHES].map((w) => w.key).sort(),
    );
    expect(
      accountSubscriptions([rule([task('show_up_rate', { rate: '30', min_registrations: '20' })])], 'USD'),
    ).toEqual([]);
  });
});
