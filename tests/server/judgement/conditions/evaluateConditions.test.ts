/**
 * A rule's conditions on one object (server/judgement/conditions/evaluateConditions.ts): each window
 * read as given, metric against number or against another scope's metric times a factor, groups
 * nested three deep under three-valued logic (no data decides nothing unless it must), and the line
 * a user reads for each condition. Also the reads a group needs and the cost line a raise holds to.
 */
import { describe, expect, it } from 'vitest';
import {
  costLine,
  evaluateConditions,
  readsOutcomes,
  windowsNeeded,
  type JudgedObject,
  type ValueOf,
} from '../../../../server/judgement/conditions/evaluateConditions';
import type {
  CompareScope,
  ConditionGroup,
  ConditionNode,
  ConditionWindow,
  MetricCondition,
  MetricKey,
} from '../../../../shared/ruleConditions';

type Values = Partial<
  Record<CompareScope, Partial<Record<ConditionWindow, Partial<Record<MetricKey, number | null>>>>>
>;

/** A lookup from a table: what is not in it has no data. */
const lookup =
  (values: Values): ValueOf =>
  (scope, metric, window) =>
    values[scope]?.[window]?.[metric] ?? null;

const AD: JudgedObject = { level: 'ad', id: 'a1', campaignId: 'c1', adsetId: 's1' };
const ADSET: JudgedObject = { level: 'adset', id: 's1', campaignId: 'c1' };
const CAMPAIGN: JudgedObject = { level: 'campaign', id: 'c1', campaignId: 'c1' };

const all = (...conditions: ConditionNode[]): ConditionGroup => ({ match: 'all', conditions });
const any = (...conditions: ConditionNode[]): ConditionGroup => ({ match: 'any', conditions });
const cond = (
  metric: MetricKey,
  window: ConditionWindow,
  op: MetricCondition['op'],
  value: number,
): MetricCondition => ({
  metric,
  window,
  op,
  value,
});

const judge = (group: ConditionGroup, values: Values, object: JudgedObject = AD, currency = 'USD') =>
  evaluateConditions(group, object, lookup(values), currency);

describe('windows', () => {
  it.each<[ConditionWindow, string]>([
    ['today', 'Spend (today) $45.00 > $40.00 ✓'],
    ['yesterday', 'Spend (yesterday) $45.00 > $40.00 ✓'],
    ['last_3_days', 'Spend (last 3 days) $45.00 > $40.00 ✓'],
    ['last_7_days', 'Spend (last 7 days) $45.00 > $40.00 ✓'],
    ['last_14_days', 'Spend (last 14 days) $45.00 > $40.00 ✓'],
    ['last_30_days', 'Spend (last 30 days) $45.00 > $40.00 ✓'],
    ['lifetime', 'Spend (lifetime) $45.00 > $40.00 ✓'],
  ])('%s reads its own values', (window, shown) => {
    // $45 in the window asked, $10 in every other: only the window asked decides.
    const others = ['today', 'yesterday', 'last_3_days', 'last_7_days', 'last_14_days', 'last_30_days', 'lifetime'];
    const self = Object.fromEntries(others.map((w) => [w, { spend: w === window ? 45 : 10 }]));
    const outcome = judge(all(cond('spend', window, '>', 40)), { self });
    expect(outcome.result).toBe(true);
    expect(outcome.conditions[0]!.shown).toBe(shown);
  });
});

describe('comparisons', () => {
  it.each<[MetricCondition['op'], number, boolean]>([
    ['>', 40, false],
    ['>=', 40, true],
    ['<', 40, false],
    ['<=', 40, true],
    ['>', 39.99, true],
    ['<', 40.01, true],
  ])('CPL $40.00 %s %s is %s', (op, value, expected) => {
    expect(judge(all(cond('cpl', 'today', op, value)), { self: { today: { cpl: 40 } } }).result).toBe(expected);
  });

  it('does not let float noise cross a line: $150.30 over 3 leads is not above $50.10', () => {
    expect(judge(all(cond('cpl', 'today', '>', 50.1)), { self: { today: { cpl: 150.3 / 3 } } }).result).toBe(false);
  });
});

describe('metric against metric', () => {
  const vsCampaign: MetricCondition = {
    metric: 'cpl',
    window: 'last_7_days',
    op: '>',
    compare_to: { metric: 'cpl', window: 'last_7_days', of: 'campaign', factor: 1.5 },
  };

  it('compares with the other side times its factor, and says so', () => {
    const outcome = judge(all(vsCampaign), {
      self: { last_7_days: { cpl: 42.1 } },
      campaign: { last_7_days: { cpl: 25 } },
    });
    expect(outcome.result).toBe(true);
    expect(outcome.conditions).toEqual([
      {
        text: 'CPL (last 7 days) > 1.5 × campaign CPL (last 7 days)',
        left: 42.1,
        right: 37.5,
        result: true,
        shown: 'CPL (last 7 days) $42.10 > 1.5 × campaign CPL (last 7 days) $25.00 = $37.50 ✓',
      },
    ]);
  });

  it.each<[string, JudgedObject, CompareScope, Values, boolean | null]>([
    ['an ad against its ad set', AD, 'adset', { adset: { yesterday: { ctr: 2 } } }, true],
    ['an ad against its campaign', AD, 'campaign', { campaign: { yesterday: { ctr: 2 } } }, true],
    ['an ad against the account', AD, 'account', { account: { yesterday: { ctr: 2 } } }, true],
    ['an ad against itself, yesterday', AD, 'self', { self: { yesterday: { ctr: 2 } } }, true],
    ['an ad set against itself as "adset"', ADSET, 'adset', { self: { yesterday: { ctr: 2 } } }, true],
    ['an ad set against its campaign', ADSET, 'campaign', { campaign: { yesterday: { ctr: 2 } } }, true],
    ['a campaign against itself as "campaign"', CAMPAIGN, 'campaign', { self: { yesterday: { ctr: 2 } } }, true],
    ['a campaign against the account', CAMPAIGN, 'account', { account: { yesterday: { ctr: 2 } } }, true],
    ['a campaign has no ad set: no data', CAMPAIGN, 'adset', { adset: { yesterday: { ctr: 2 } } }, null],
    [
      'an ad whose ad set is unknown: no data',
      { ...AD, adsetId: undefined },
      'adset',
      { adset: { yesterday: { ctr: 2 } } },
      null,
    ],
  ])('%s', (_, object, of, values, expected) => {
    const c: MetricCondition = {
      metric: 'ctr',
      window: 'today',
      op: '<',
      compare_to: { metric: 'ctr', window: 'yesterday', of, factor: 0.5 },
    };
    // The object's CTR today: 0.8 % < 0.5 × 2 % (the other side's, yesterday) = 1 %.
    const self = { ...values.self, today: { ctr: 0.8 } };
    expect(judge(all(c), { ...values, self }, object).result).toBe(expected);
  });

  it('leaves out "= …" with a factor of 1, and names the other side with no data', () => {
    const c: MetricCondition = {
      metric: 'cpc',
      window: 'today',
      op: '>',
      compare_to: { metric: 'cpc', window: 'today', of: 'adset', factor: 1 },
    };
    expect(judge(all(c), { self: { today: { cpc: 2 } }, adset: { today: { cpc: 1.5 } } }).conditions[0]!.shown).toBe(
      'CPC (today) $2.00 > adset CPC (today) $1.50 ✓',
    );
    expect(judge(all(c), { self: { today: { cpc: 2 } } }).conditions[0]).toMatchObject({
      right: null,
      result: null,
      shown: 'CPC (today) $2.00 > adset CPC (today) no data ?',
    });
  });
});

describe('three-valued logic', () => {
  const TRUE = cond('spend', 'today', '>', 10);
  const FALSE = cond('leads', 'today', '>', 10);
  const UNKNOWN = cond('cpl', 'today', '>', 10);
  const values: Values = { self: { today: { spend: 50, leads: 0, cpl: null } } };

  it.each<[string, ConditionGroup, boolean | null]>([
    ['AND: all true', all(TRUE, TRUE), true],
    ['AND: a false one wins over no data', all(UNKNOWN, FALSE), false],
    ['AND: true and no data is no data', all(TRUE, UNKNOWN), null],
    ['OR: a true one wins over no data', any(UNKNOWN, TRUE), true],
    ['OR: false and no data is no data', any(FALSE, UNKNOWN), null],
    ['OR: all false', any(FALSE, FALSE), false],
    ['a lone condition with no data', all(UNKNOWN), null],
    ['3 deep: AND(true, OR(false, AND(true, true)))', all(TRUE, any(FALSE, all(TRUE, TRUE))), true],
    ['3 deep: AND(true, OR(false, AND(true, false)))', all(TRUE, any(FALSE, all(TRUE, FALSE))), false],
    ['3 deep: AND(true, OR(false, AND(true, no data)))', all(TRUE, any(FALSE, all(TRUE, UNKNOWN))), null],
    ['3 deep: OR(false, AND(true, OR(no data, true)))', any(FALSE, all(TRUE, any(UNKNOWN, TRUE))), true],
    ['3 deep: OR(no data, AND(false, OR(no data)))', any(UNKNOWN, all(FALSE, any(UNKNOWN))), null],
    ['3 deep: AND(OR(no data, AND(false, true)), false)', all(any(UNKNOWN, all(FALSE, TRUE)), FALSE), false],
  ])('%s', (_, group, expected) => {
    expect(judge(group, values).result).toBe(expected);
  });

  it('reports every condition depth first, each with its own result', () => {
    const outcome = judge(all(TRUE, any(FALSE, all(UNKNOWN))), values);
    expect(outcome.conditions.map((c) => [c.text, c.result])).toEqual([
      ['Spend (today) > 10', true],
      ['Leads (today) > 10', false],
      ['CPL (today) > 10', null],
    ]);
    expect(outcome.conditions[2]!.shown).toBe('CPL (today) no data > $10.00 ?');
  });
});

describe('what a user reads', () => {
  it.each<[string, MetricCondition, Values, string, string?]>([
    [
      'money in the account currency',
      cond('cpl', 'today', '<', 30),
      { self: { today: { cpl: 1234.5 } } },
      'CPL (today) €1,234.50 < €30.00 ✗',
      'EUR',
    ],
    [
      'a percentage',
      cond('ctr', 'last_3_days', '<', 1.5),
      { self: { last_3_days: { ctr: 0.8 } } },
      'CTR (last 3 days) 0.80% < 1.50% ✓',
    ],
    [
      'a count with separators',
      cond('impressions', 'lifetime', '>=', 10000),
      { self: { lifetime: { impressions: 125000 } } },
      'Impressions (lifetime) 125,000 ≥ 10,000 ✓',
    ],
    [
      'a ratio',
      cond('frequency', 'last_7_days', '>', 3),
      { self: { last_7_days: { frequency: 3.456 } } },
      'Frequency (last 7 days) 3.46 > 3.00 ✓',
    ],
    [
      'a show-up rate',
      cond('show_up_rate', 'lifetime', '<', 30),
      { self: { lifetime: { show_up_rate: 25 } } },
      'Show-up rate (lifetime) 25.00% < 30.00% ✓',
    ],
    [
      'a cost per attendee',
      cond('cost_per_attendee', 'lifetime', '>', 80),
      { self: { lifetime: { cost_per_attendee: 95.5 } } },
      'Cost per attendee (lifetime) $95.50 > $80.00 ✓',
    ],
  ])('%s', (_, c, values, shown, currency) => {
    expect(judge(all(c), values, AD, currency).conditions[0]!.shown).toBe(shown);
  });
});

describe('windowsNeeded', () => {
  const group = all(
    cond('spend', 'today', '>', 40),
    any(
      cond('cpl', 'last_7_days', '>', 30),
      {
        metric: 'cpl',
        window: 'last_7_days',
        op: '>',
        compare_to: { metric: 'cpl', window: 'last_14_days', of: 'adset', factor: 1.2 },
      },
      {
        metric: 'ctr',
        window: 'today',
        op: '<',
        compare_to: { metric: 'ctr', window: 'last_7_days', of: 'campaign', factor: 0.5 },
      },
    ),
  );

  it.each<[JudgedObject['level'], { scope: CompareScope; level: string; window: ConditionWindow }[]]>([
    [
      'ad',
      [
        { scope: 'self', level: 'ad', window: 'today' },
        { scope: 'self', level: 'ad', window: 'last_7_days' },
        { scope: 'adset', level: 'adset', window: 'last_14_days' },
        { scope: 'campaign', level: 'campaign', window: 'last_7_days' },
      ],
    ],
    [
      'adset',
      [
        { scope: 'self', level: 'adset', window: 'today' },
        { scope: 'self', level: 'adset', window: 'last_7_days' },
        { scope: 'self', level: 'adset', window: 'last_14_days' },
        { scope: 'campaign', level: 'campaign', window: 'last_7_days' },
      ],
    ],
    [
      'campaign',
      [
        { scope: 'self', level: 'campaign', window: 'today' },
        { scope: 'self', level: 'campaign', window: 'last_7_days' },
      ],
    ],
  ])('for an %s: each (scope, window) once', (level, expected) => {
    expect(windowsNeeded(group, level)).toEqual(expected);
  });

  it('says when what the leads became is needed', () => {
    expect(readsOutcomes(group)).toBe(false);
    expect(readsOutcomes(all(cond('spend', 'today', '>', 1), cond('attendees', 'lifetime', '<', 5)))).toBe(true);
  });
});

describe('costLine', () => {
  const cpl = cond('cpl', 'last_7_days', '<', 30);
  it.each<[string, ConditionGroup | null, ReturnType<typeof costLine>]>([
    [
      'the first cost under a number of an AND',
      all(cond('leads', 'today', '>', 5), cpl, cond('cpc', 'today', '<', 2)),
      { metric: 'cpl', window: 'last_7_days', value: 30 },
    ],
    [
      'a lone condition',
      any(cond('cost_per_result', 'today', '<=', 12)),
      { metric: 'cost_per_result', window: 'today', value: 12 },
    ],
    ['a cost over a number is no line to hold', all(cond('cpl', 'today', '>', 30)), null],
    [
      'a cost against another metric has no number',
      all({
        metric: 'cpl',
        window: 'today',
        op: '<',
        compare_to: { metric: 'cpl', window: 'last_7_days', of: 'campaign', factor: 1 },
      }),
      null,
    ],
    ['not a cost', all(cond('ctr', 'today', '<', 2)), null],
    ['in an OR of several', any(cpl, cond('leads', 'today', '>', 5)), null],
    ['inside a nested group', all(cond('leads', 'today', '>', 5), any(cpl)), null],
    ['no conditions', null, null],
  ])('%s', (_, group, expected) => {
    expect(costLine(group)).toEqual(expected);
  });
});
