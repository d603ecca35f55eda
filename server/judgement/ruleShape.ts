/**
 * The parts of a rule the engine reads, in the API's item shape (docs/contract.md#entities); the task catalogue and
 * its value keys are shared/rules.ts.
 */
import { isTaskName, taskSpec, thresholdError, type TaskName } from '../../shared/rules';
import { numberOrNull } from './objectMetrics';
import type { RuleJudging } from '../../shared/judging';
import type { ConditionGroup } from '../../shared/ruleConditions';
import type { RuleAction } from '../../shared/ruleActions';

export interface RuleItem {
  name: string;
  values: unknown;
  is_active: boolean;
}

export interface EngineRule {
  id: number;
  name: string;
  rule_filter: RuleItem[];
  rule_task: RuleItem[];
  /** How the rule judges late data; absent: as before the settings existed (carried over). */
  judging?: RuleJudging;
  /** Conditions on any metric over its window (shared/ruleConditions.ts); null or absent: none. */
  conditions?: ConditionGroup | null;
  /** What the conditions do (shared/ruleActions.ts); null or absent: none. */
  action?: RuleAction | null;
}

export type { TaskName };

/**
 * A task's thresholds by key ({cpl: 50}); null when the task is unknown or a value is not a number
 * or breaks a guard rail (a rule stored before the guard rails existed may hold a 0). A choice (the
 * stage of cost per stage) is given as its place among the options ({stage: 0} for 'qualified').
 * Values are stored keyed, as decimal strings ({"spend": "40", "ctr": "0.5"}); catalogue order
 * ([40, 0.5]) and a bare number for a single-value task are read too.
 */
export function taskThresholds(task: RuleItem): Record<string, number> | null {
  if (!isTaskName(task.name)) return null;
  const specs = taskSpec(task.name)!.values;
  const keys = specs.map((v) => v.key);
  const values = task.values;
  const result: Record<string, number> = {};
  for (const [index, key] of keys.entries()) {
    const options = specs[index]!.options;
    let raw: unknown;
    if (Array.isArray(values)) raw = values[index];
    else if (values && typeof values === 'object') raw = (values as Record<string, unknown>)[key];
    else if (keys.length === 1) raw = values;
    if (options) {
      const place = typeof raw === 'string' ? options.indexOf(raw.trim()) : -1;
      if (place < 0) return null;
      result[key] = place;
      continue;
    }
    const n = numberOrNull(raw);
    if (n === null || thresholdError(key, n)) return null;
    result[key] = n;
  }
  return result;
}
