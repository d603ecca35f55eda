/**
 * Active rules on one ad account that act against each other, found from their settings alone (pure).
 * Two folders can share an ad account (a client with two teams): their rules act on the same
 * campaigns, so the rules of every live folder on the account are judged together, as one folder's.
 *
 * - one revives what another pauses: rule A revives, and rule B (whose campaign filters overlap A's)
 *   has an ad task that can be crossed by numbers A's tasks let through — A turns the ad back on, B
 *   turns it off again;
 * - the same filters with different thresholds of one task: two rules judge the same ads on the
 *   same metric and disagree where the line is;
 * - one raises the budgets another lowers, at the same level: the cool-down keeps each from undoing
 *   the other at once (budgets/claim.ts), but they pull the same budgets both ways;
 * - one turns on what another turns off (a turn_on action against a turn-off).
 *
 * accountConflicts judges the rules of any number of folders and accounts; folderConflicts those of
 * one folder.
 */
import type { RuleConflictDto } from '../../shared/judging';
import { itemLabel, OUTCOME_STAGES } from '../../shared/rules';
import { activeThresholds } from './evaluate';
import type { EngineRule, RuleItem, TaskName } from './ruleShape';

/** A rule's folder, as a conflict names it. */
export interface ConflictFolder {
  id: number;
  name: string;
}

/** A rule as the check judges it: its settings and whether it is on. */
export interface ConflictRule extends EngineRule {
  isActive: boolean;
}

/**
 * A rule as the check across an ad account's folders reads it: whether it or its folder is in the
 * trash, its folder, and the folder's ad account (the engine's LoadedEngineRule fits).
 */
export interface AccountConflictRule extends ConflictRule {
  isDeleted: boolean;
  folder: ConflictFolder & { isDeleted: boolean };
  account: { adAccountId: string };
}

type FiledRule = ConflictRule & { folder: ConflictFolder };

const names = (item: RuleItem | undefined) =>
  Array.isArray(item?.values)
    ? item.values
        .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
        .map((v) => v.trim().toLowerCase())
    : [];

const filterOf = (rule: EngineRule, name: string) => rule.rule_filter.find((f) => f.name === name);

/** The contains lists can match one campaign: a name part of one holds, or is held by, one of the other. */
function filtersOverlap(a: EngineRule, b: EngineRule): boolean {
  const left = names(filterOf(a, 'campaign_name_contains'));
  const right = names(filterOf(b, 'campaign_name_contains'));
  return left.some((x) => right.some((y) => x.includes(y) || y.includes(x)));
}

const filterKey = (rule: EngineRule) => {
  const notContains = filterOf(rule, 'campaign_name_not_contains');
  return JSON.stringify([
    [...names(filterOf(rule, 'campaign_name_contains'))].sort(),
    notContains?.is_active ? [...names(notContains)].sort() : [],
  ]);
};

/** The values where a higher one is looser (a turn-off needs more): costs, spend and the outcome tasks' minimums. */
const HIGHER_IS_LOOSER_KEYS = new Set(['cpl', 'spend', 'cpc', 'cost', 'min_registrations', 'min_leads']);
/** The values where a lower one is looser: the percentages a task turns off below. */
const LOWER_IS_LOOSER_KEYS = new Set(['ctr', 'rate']);

/** B's task can be crossed by an ad A's same task lets through (A lacks it, or A's line is further). */
function looserIn(a: Map<TaskName, Record<string, number>>, task: TaskName, b: Record<string, number>): boolean {
  const own = a.get(task);
  if (!own) return true;
  // Cost per stage of another stage judges another number: A lets through what B's stage turns off.
  if (own.stage !== b.stage) return true;
  return Object.entries(b).some(([key, value]) =>
    HIGHER_IS_LOOSER_KEYS.has(key) ? own[key]! > value : LOWER_IS_LOOSER_KEYS.has(key) ? own[key]! < value : false,
  );
}

const thresholdText = (t: Record<string, number>) =>
  Object.entries(t)
    .map(([k, v]) => `${k} ${k === 'stage' ? OUTCOME_STAGES[v] : v}`)
    .join(', ');

/**
 * Every conflict among the live active rules of live folders sharing an ad account, within a folder
 * and across folders. Inactive and trashed rules, rules of trashed folders, and rules of another
 * account are never candidates. Each conflict is listed once for each of its two rules, naming
 * both rules and both folders; a detail across folders names each rule's folder.
 */
export function accountConflicts(rules: AccountConflictRule[]): RuleConflictDto[] {
  const byAccount = new Map<string, AccountConflictRule[]>();
  for (const rule of rules) {
    if (!rule.isActive || rule.isDeleted || rule.folder.isDeleted) continue;
    const own = byAccount.get(rule.account.adAccountId);
    if (own) own.push(rule);
    else byAccount.set(rule.account.adAccountId, [rule]);
  }
  return [...byAccount.values()].flatMap((accountRules) => conflictsAmong(accountRules.sort((a, b) => a.id - b.id)));
}

/** Every conflict among the active rules of one folder (both directions listed). */
export function folderConflicts(
  rules: ConflictRule[],
  folder: ConflictFolder = { id: 0, name: '' },
): RuleConflictDto[] {
  return conflictsAmong(rules.map((rule) => ({ ...rule, folder })));
}

/** How a detail names a rule: with its folder when the other rule is of another folder. */
const quoted = (rule: FiledRule, other: FiledRule) =>
  rule.folder.id === other.folder.id ? `"${rule.name}"` : `"${rule.name}" (folder "${rule.folder.name}")`;

/** Every conflict among rules acting on the same ad account (both directions listed). */
function conflictsAmong(rules: FiledRule[]): RuleConflictDto[] {
  const active = rules.filter((r) => r.isActive);
  const tasksOf = new Map(active.map((r) => [r.id, activeThresholds(r, [])]));
  const conflicts: RuleConflictDto[] = [];
  const add = (rule: FiledRule, other: FiledRule, kind: RuleConflictDto['kind'], detail: string) =>
    conflicts.push({
      rule_id: rule.id,
      rule_name: rule.name,
      folder_id: rule.folder.id,
      folder_name: rule.folder.name,
      other_rule_id: other.id,
      other_rule_name: other.name,
      other_folder_id: other.folder.id,
      other_folder_name: other.folder.name,
      kind,
      detail,
    });
  for (const a of active) {
    for (const b of active) {
      if (a.id === b.id || !filtersOverlap(a, b)) continue;
      const aTasks = tasksOf.get(a.id)!;
      const bTasks = tasksOf.get(b.id)!;
      const aName = quoted(a, b);
      const bName = quoted(b, a);
      if (a.judging?.revive_hours != null) {
        const against = [...bTasks].filter(([task, t]) => task !== 'campaign_leads' && looserIn(aTasks, task, t));
        if (against.length) {
          const text = `${aName} turns back on ads that ${bName} turns off (${against
            .map(([task]) => itemLabel(task))
            .join('; ')})`;
          add(a, b, 'revives_what_other_pauses', text);
          add(b, a, 'revives_what_other_pauses', text);
        }
      }
      const aAction = a.action;
      const bAction = b.action;
      if (
        a.id < b.id &&
        aAction &&
        bAction &&
        aAction.level === bAction.level &&
        new Set([aAction.kind, bAction.kind]).size === 2 &&
        [aAction.kind, bAction.kind].every((k) => k === 'raise_budget' || k === 'lower_budget')
      ) {
        const [raiser, lowerer] = aAction.kind === 'raise_budget' ? [aName, bName] : [bName, aName];
        const text = `${raiser} raises budgets that ${lowerer} lowers`;
        add(a, b, 'opposite_budgets', text);
        add(b, a, 'opposite_budgets', text);
      }
      const turnsOff = (r: ConflictRule) => (tasksOf.get(r.id)?.size ?? 0) > 0 || r.action?.kind === 'turn_off';
      if (aAction?.kind === 'turn_on' && turnsOff(b)) {
        const text = `${aName} turns on ${aAction.level}s that ${bName} turns off`;
        add(a, b, 'turns_on_what_other_pauses', text);
        add(b, a, 'turns_on_what_other_pauses', text);
      }
      if (a.id < b.id && filterKey(a) === filterKey(b)) {
        for (const [task, t] of aTasks) {
          const other = bTasks.get(task);
          if (!other || thresholdText(other) === thresholdText(t)) continue;
          const text = `Same campaigns, "${itemLabel(task)}": ${thresholdText(t)} in ${aName}, ${thresholdText(other)} in ${bName}`;
          add(a, b, 'same_filters', text);
          add(b, a, 'same_filters', text);
        }
      }
    }
  }
  const seen = new Set<string>();
  return conflicts.filter((c) => {
    const key = `${c.rule_id}/${c.other_rule_id}/${c.kind}/${c.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
