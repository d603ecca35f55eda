/** How a run's budget money and conditions are worded: signed daily deltas, condition marks, a held run's money lines. */
import { describe, expect, it } from 'vitest';
import { conditionMark, heldMoneyLines, signedMoney } from '../../../../src/layout/runs/runText';
import en from '../../../../src/i18n/en';

const translate = (key: string, options: Record<string, unknown> = {}) => {
  const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], en);
  return String(text).replace(/%\{(\w+)\}/g, (_m, name: string) => String(options[name]));
};

describe('signedMoney', () => {
  it.each([
    [10, '+$10.00'],
    [-1240.5, '−$1,240.50'],
    [0, '$0.00'],
  ])('%s → %s', (value, text) => expect(signedMoney(value)).toBe(text));
});

describe('conditionMark', () => {
  it.each([
    [true, '✓'],
    [false, '✗'],
    [null, 'no data'],
  ])('%s → %s', (result, mark) => expect(conditionMark(result, translate)).toBe(mark));
});

describe('heldMoneyLines', () => {
  const money = { added: 1240, removed: 0, objects: 14, text: '+$1,240.00/day across 14 ad sets' };
  const limits = { affected: 14, delivering: 40, actions: 14, max_share: 0.5, max_actions: 25 };
  it.each([
    ['a run without budget changes', { money: null, limits }, []],
    [
      'over the folder’s limit',
      { money, limits: { ...limits, added_daily: 1400, max_daily_increase: 1000 } },
      [
        'Money at stake: +$1,240.00/day across 14 ad sets',
        'Adds $1,400.00/day with the folder’s raises of the last 24 hours, over its limit of $1,000.00/day.',
      ],
    ],
    [
      'a folder without a limit',
      { money, limits: { ...limits, added_daily: 1400, max_daily_increase: null } },
      [
        'Money at stake: +$1,240.00/day across 14 ad sets',
        'Adds $1,400.00/day with the folder’s raises of the last 24 hours.',
      ],
    ],
  ])('%s', (_name, run, lines) => expect(heldMoneyLines(run, translate)).toEqual(lines));
});
