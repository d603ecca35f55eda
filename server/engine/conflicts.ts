/**
 * Active rules of one folder that act against each other, found from their settings alone (pure):
 *
 * - one revives what another pauses: rule A revives, and rule B (whose campaign filters overlap A's)
 *   has an ad task that can be crossed by numbers A's tasks let through — A turns the ad back on, B
 *   turns it off again;
 * - the same filters with different thresholds of one task: two rules judge the same ads on the
 *   same metric and disagree where the line is;
 * - one raises the budgets another lowers, at the same level: the cool-down keeps each from undoing
 *   the other at once (budgets/claim.ts), but they pull the same budgets both ways;
 * - one turns on what another turns off (a turn_on action against a turn-off).
 */
import type { RuleConflictDto } from '../../src/domain/judging';
import { itemLabel, OUTCOME_STAGES } from '../../src/domain/rules';
import { activeThresholds } from './evaluate';
import type { EngineRule, RuleItem, TaskName } from './ruleShape';

export interface ConflictRule extends EngineRule {
  isActive: boolean;
}

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

/** Every conflict of the given rule ids among the folder's rules (both directions listed). */
export function folderConflicts(rules: ConflictRule[]): RuleConflictDto[] {
  const active = rules.filter((r) => r.isActive);
  const tasksOf = new Map(active.map((r) => [r.id, activeThresholds(r, [])]));
  const conflicts: RuleConflictDto[] = [];
  const add = (rule: ConflictRule, other: ConflictRule, kind: RuleConflictDto['kind'], detail: string) =>
    conflicts.push({ rule_id: rule.id, other_rule_id: other.id, other_rule_name: other.name, kind, detail });
  for (const a of active) {
    for (const b of active) {
      if (a.id === b.id || !filtersOverlap(a, b)) continue;
      const aTasks = tasksOf.get(a.id)!;
      const bTasks = tasksOf.get(b.id)!;
      if (a.judging?.revive_hours != null) {
        const against = [...bTasks].filter(([task, t]) => task !== 'campaign_leads' && looserIn(aTasks, task, t));
        if (against.length) {
          const text = `"${a.name}" turns back on ads that "${b.name}" turns off (${against
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
        const [raiser, lowerer] = aAction.kind === 'raise_budget' ? [a, b] : [b, a];
        const text = `"${raiser.name}" raises budgets that "${lowerer.name}" lowers`;
        add(a, b, 'opposite_budgets', text);
        add(b, a, 'opposite_budgets', text);
      }
      const turnsOff = (r: ConflictRule) => (tasksOf.get(r.id)?.size ?? 0) > 0 || r.action?.kind === 'turn_off';
      if (aAction?.kind === 'turn_on' && turnsOff(b)) {
        const text = `"${a.name}" turns on ${aAction.level}s that "${b.name}" turns off`;
        add(a, b, 'turns_on_what_other_pauses', text);
        add(b, a, 'turns_on_what_other_pauses', text);
      }
      if (a.id < b.id && filterKey(a) === filterKey(b)) {
        for (const [task, t] of aTasks) {
          const other = bTasks.get(task);
          if (!other || thresholdText(other) === thresholdText(t)) continue;
          const text = `Same campaigns, "${itemLabel(task)}": ${thresholdText(t)} in "${a.name}", ${thresholdText(other)} in "${b.name}"`;
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
