/** The Conditions card's working copy: stored conditions and actions read back unchanged, the errors it finds, the server's errors flattened. */
import { describe, expect, it } from 'vitest';
import {
  expressiveDraftOf,
  expressiveErrorsOf,
  expressivePayloadOf,
  expressiveServerErrorsOf,
  newAction,
  newGroup,
  withKind,
} from '../../../../../src/layout/rule-form/conditions/conditionDraft';
import type { RuleAction } from '../../../../../shared/ruleActions';
import type { ConditionGroup } from '../../../../../shared/ruleConditions';

const nested: ConditionGroup = {
  match: 'all',
  conditions: [
    { metric: 'spend', window: 'last_45_days', op: '>=', value: 100 },
    {
      match: 'any',
      conditions: [
        { metric: 'show_up_rate', window: 'lifetime', op: '<', value: 20 },
        {
          metric: 'cpc',
          window: 'today',
          op: '>',
          compare_to: { metric: 'cpc', window: 'last_7_days', of: 'adset', factor: 1.2 },
        },
      ],
    },
  ],
};

describe('reading back what was stored', () => {
  it.each<[string, ConditionGroup | null, RuleAction | null]>([
    ['none', null, null],
    ['nested groups, a last-N-days window, another metric', nested, { kind: 'turn_off', level: 'ad' }],
    [
      'a budget action to an amount with bounds',
      nested,
      { kind: 'raise_budget', level: 'campaign', change: { to_amount: 250 }, floor: 100, ceiling: 400 },
    ],
    [
      'a budget action by a percentage without bounds',
      nested,
      { kind: 'lower_budget', level: 'adset', change: { percent: 15 }, floor: null, ceiling: null },
    ],
  ])('%s', (_name, conditions, action) => {
    const draft = expressiveDraftOf(conditions, action);
    expect(expressivePayloadOf(draft)).toEqual({ conditions, action });
    expect(expressiveErrorsOf(draft)).toEqual({});
  });
});

describe('the card’s own errors', () => {
  const on = (group = newGroup(), action = newAction()) => ({ on: true, group, action });
  it.each<[string, ReturnType<typeof on>, Record<string, string>]>([
    ['an empty value', on(), { 'conditions.conditions.0.value': 'Field is required' }],
    [
      'a negative value',
      (() => {
        const d = on();
        const c = d.group.nodes[0]!;
        if (c.type === 'condition') c.value = '-1';
        return d;
      })(),
      { 'conditions.conditions.0.value': 'Must be 0 or more' },
    ],
    [
      'a budget action without its percentage',
      (() => {
        const d = on();
        const c = d.group.nodes[0]!;
        if (c.type === 'condition') c.value = '5';
        d.action = withKind(d.action, 'raise_budget');
        return d;
      })(),
      { 'action.change.percent': 'Field is required' },
    ],
    [
      'a floor over the ceiling',
      (() => {
        const d = on();
        const c = d.group.nodes[0]!;
        if (c.type === 'condition') c.value = '5';
        d.action = { ...withKind(d.action, 'lower_budget'), percent: '10', floor: '500', ceiling: '100' };
        return d;
      })(),
      { 'action.floor': 'The floor must be below the ceiling' },
    ],
  ])('%s', (_name, draft, errors) => {
    expect(expressiveErrorsOf(draft)).toEqual(errors);
  });

  it('finds none while the card is off', () => {
    expect(expressiveErrorsOf({ ...on(), on: false })).toEqual({});
  });
});

describe('a kind’s levels', () => {
  it.each([
    ['turn_off', 'ad', 'ad'],
    ['raise_budget', 'ad', 'adset'],
    ['lower_budget', 'campaign', 'campaign'],
    ['turn_on', 'adset', 'ad'],
  ] as const)('%s from %s acts on %s', (kind, from, level) => {
    expect(withKind({ ...newAction(), level: from }, kind).level).toBe(level);
  });
});

describe('the server’s errors', () => {
  it.each<[string, unknown, Record<string, string>]>([
    [
      'dotted keys',
      { 'conditions.conditions.0.value': ['Must be 0 or more'], name: ['x'] },
      { 'conditions.conditions.0.value': 'Must be 0 or more' },
    ],
    [
      'nested objects and lists',
      {
        action: { change: { percent: ['Must be more than 0 and at most 100'] } },
        conditions: ['Conditions need an action'],
      },
      { 'action.change.percent': 'Must be more than 0 and at most 100', conditions: 'Conditions need an action' },
    ],
    ['nothing of theirs', { detail: 'Not found' }, {}],
    ['no body', undefined, {}],
  ])('%s', (_name, body, errors) => {
    expect(expressiveServerErrorsOf(body)).toEqual(errors);
  });
});
