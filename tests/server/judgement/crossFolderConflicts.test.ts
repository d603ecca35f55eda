/**
 * Conflicts across the folders of one ad account (server/judgement/conflicts.ts, pure): two folders on
 * one account are judged as one folder's rules are, each conflict naming both rules and both
 * folders; rules of another account, of a trashed folder, and trashed or inactive rules are never
 * candidates.
 */
import { describe, expect, it } from 'vitest';
import { accountConflicts, type AccountConflictRule } from '../../../server/judgement/conflicts';
import type { RuleItem } from '../../../server/judgement/ruleShape';
import { NEW_RULE_JUDGING, type RuleJudging } from '../../../shared/judging';
import type { RuleAction } from '../../../shared/ruleActions';

const TEAM_A = { id: 10, name: 'Acme — Team A', isDeleted: false };
const TEAM_B = { id: 20, name: 'Acme — Team B', isDeleted: false };
const SHARED = 'act_100';

const cpl = (value: string): RuleItem => ({ name: 'trigger_cpl', values: { cpl: value }, is_active: true });
const cheap = {
  match: 'all' as const,
  conditions: [{ metric: 'cpl' as const, window: 'last_3_days' as const, op: '<' as const, value: 30 }],
};

interface Made {
  id: number;
  name: string;
  folder?: AccountConflictRule['folder'];
  account?: string;
  tasks?: RuleItem[];
  judging?: Partial<RuleJudging>;
  action?: RuleAction;
}

/** An active live rule on the EDM campaigns of the shared account, in Team A unless told. */
const made = ({ id, name, folder = TEAM_A, account = SHARED, tasks = [], judging = {}, action }: Made) =>
  ({
    id,
    name,
    isActive: true,
    isDeleted: false,
    folder,
    account: { adAccountId: account },
    rule_filter: [{ name: 'campaign_name_contains', values: ['EDM'], is_active: true }],
    rule_task: tasks,
    judging: { ...NEW_RULE_JUDGING, ...judging },
    ...(action ? { conditions: cheap, action } : {}),
  }) satisfies AccountConflictRule;

const raises = made({
  id: 1,
  name: 'Scale winners',
  action: { kind: 'raise_budget', level: 'adset', change: { percent: 20 } },
});
const lowers = made({
  id: 2,
  name: 'Trim spenders',
  folder: TEAM_B,
  action: { kind: 'lower_budget', level: 'adset', change: { percent: 20 } },
});
const pairs = (rules: AccountConflictRule[]) =>
  accountConflicts(rules).map((c) => [c.rule_id, c.other_rule_id, c.kind]);

describe('conflicts across the folders of one ad account', () => {
  it('flags a rule of one folder raising the budgets a rule of another folder lowers, on both, naming both folders', () => {
    const found = accountConflicts([raises, lowers]);
    const detail =
      '"Scale winners" (folder "Acme — Team A") raises budgets that "Trim spenders" (folder "Acme — Team B") lowers';
    expect(found).toEqual([
      {
        rule_id: 1,
        rule_name: 'Scale winners',
        folder_id: 10,
        folder_name: 'Acme — Team A',
        other_rule_id: 2,
        other_rule_name: 'Trim spenders',
        other_folder_id: 20,
        other_folder_name: 'Acme — Team B',
        kind: 'opposite_budgets',
        detail,
      },
      {
        rule_id: 2,
        rule_name: 'Trim spenders',
        folder_id: 20,
        folder_name: 'Acme — Team B',
        other_rule_id: 1,
        other_rule_name: 'Scale winners',
        other_folder_id: 10,
        other_folder_name: 'Acme — Team A',
        kind: 'opposite_budgets',
        detail,
      },
    ]);
  });

  it('flags a rule turning on, or reviving, what a rule of another folder turns off', () => {
    const turnsOn = made({ id: 3, name: 'Wake ads', folder: TEAM_B, action: { kind: 'turn_on', level: 'ad' } });
    const pauses = made({ id: 4, name: 'CPL guard', tasks: [cpl('30')] });
    const revives = made({
      id: 5,
      name: 'Late leads',
      folder: TEAM_B,
      tasks: [cpl('50')],
      judging: { revive_hours: 72 },
    });
    expect(pairs([turnsOn, pauses])).toEqual([
      [3, 4, 'turns_on_what_other_pauses'],
      [4, 3, 'turns_on_what_other_pauses'],
    ]);
    const reviving = accountConflicts([pauses, revives]).filter((c) => c.kind === 'revives_what_other_pauses');
    expect(reviving.map((c) => [c.rule_id, c.other_folder_name])).toEqual([
      [5, 'Acme — Team A'],
      [4, 'Acme — Team B'],
    ]);
    expect(reviving[0]!.detail).toBe(
      '"Late leads" (folder "Acme — Team B") turns back on ads that "CPL guard" (folder "Acme — Team A") turns off (Turn off the ad if CPL is above a value)',
    );
  });

  it('names rules of one folder without their folder, as before', () => {
    const sameFolder = { ...lowers, folder: TEAM_A };
    expect(accountConflicts([raises, sameFolder])[0]).toMatchObject({
      folder_id: 10,
      other_folder_id: 10,
      detail: '"Scale winners" raises budgets that "Trim spenders" lowers',
    });
  });

  it('finds none between folders on different ad accounts', () => {
    expect(accountConflicts([raises, { ...lowers, account: { adAccountId: 'act_200' } }])).toEqual([]);
  });

  it('finds none with a rule of a trashed folder, a trashed rule or an inactive one', () => {
    expect(accountConflicts([raises, { ...lowers, folder: { ...TEAM_B, isDeleted: true } }])).toEqual([]);
    expect(accountConflicts([raises, { ...lowers, isDeleted: true }])).toEqual([]);
    expect(accountConflicts([raises, { ...lowers, isActive: false }])).toEqual([]);
  });

  it('judges each account apart when given several, whatever the order', () => {
    const elsewhere = (rule: AccountConflictRule, id: number) => ({
      ...rule,
      id,
      account: { adAccountId: 'act_200' },
    });
    const found = pairs([elsewhere(lowers, 12), lowers, elsewhere(raises, 11), raises]);
    expect(found.sort((x, y) => Number(x[0]) - Number(y[0]))).toEqual([
      [1, 2, 'opposite_budgets'],
      [2, 1, 'opposite_budgets'],
      [11, 12, 'opposite_budgets'],
      [12, 11, 'opposite_budgets'],
    ]);
  });
});
