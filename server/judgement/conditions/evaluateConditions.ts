/**
 * A rule's conditions judged on one object (docs/engine.md, "Conditions and actions"): each metric condition
 * against its number or against another metric times a factor, the groups combined with three-valued
 * logic — a condition on a metric with no data is neither true nor false, an AND with a false
 * condition is false whatever else is unknown, an OR with a true one is true. A rule acts only on a
 * true result: null never acts. Each condition comes back with its values and a line a user reads
 * ("CPL (last 7 days) $42.10 > 1.5 × campaign CPL (last 7 days) $25.00 = $37.50 ✓").
 *
 * Pure: the caller reads the windows (windowsNeeded) and hands over a lookup of their values.
 */
import {
  conditionText,
  conditionsOf,
  isGroup,
  metricSpec,
  readsOf,
  type Comparison,
  type CompareScope,
  type ConditionGroup,
  type ConditionNode,
  type ConditionWindow,
  type MetricCondition,
  type MetricKey,
  windowLabel,
} from '../../../shared/ruleConditions';
import { above, atLeast, below } from '../compare';
import { money } from '../format';

export type ObjectLevel = 'ad' | 'adset' | 'campaign';

/** The object a rule judges, with the objects it belongs to. */
export interface JudgedObject {
  level: ObjectLevel;
  id: string;
  campaignId: string;
  /** An ad's ad set (an ad set's own id needs no repeating). */
  adsetId?: string;
}

/** A metric's value for the object itself or what it belongs to, over a window; null: no data. */
export type ValueOf = (scope: CompareScope, metric: MetricKey, window: ConditionWindow) => number | null;

export interface ConditionValue {
  /** The condition as written: "CPL (last 7 days) > 1.5 × campaign CPL (last 7 days)". */
  text: string;
  /** The metric's value; null: no data. */
  left: number | null;
  /** What it is compared with (the other metric times its factor); null: no data. */
  right: number | null;
  result: boolean | null;
  /** The condition with its values: "CPL (last 7 days) $42.10 > 1.5 × campaign CPL (last 7 days) $25.00 = $37.50 ✓". */
  shown: string;
}

export interface ConditionsResult {
  /** true: the rule acts; false or null (something unknown decided it): it does not. */
  result: boolean | null;
  /** Each metric condition, depth first, as conditionsOf lists them. */
  conditions: ConditionValue[];
}

type Truth = boolean | null;

/** Kleene AND / OR. */
export function allOf(values: readonly Truth[]): Truth {
  if (values.includes(false)) return false;
  return values.includes(null) ? null : true;
}

export function anyOf(values: readonly Truth[]): Truth {
  if (values.includes(true)) return true;
  return values.includes(null) ? null : false;
}

const COMPARE: Record<Comparison, (left: number, right: number) => boolean> = {
  '>': above,
  '>=': atLeast,
  '<': below,
  '<=': (left, right) => !above(left, right),
};

const OP_TEXT: Record<Comparison, string> = { '>': '>', '>=': '≥', '<': '<', '<=': '≤' };
const MARK = { true: '✓', false: '✗', null: '?' } as const;

const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const ratioFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A metric's value as a user reads it: money in the account's currency, percentages with %, counts with separators. */
export function metricValueText(metric: MetricKey, value: number | null, currency: string): string {
  if (value === null) return 'no data';
  switch (metricSpec(metric)?.kind) {
    case 'money':
      return money(value, currency);
    case 'percent':
      return `${ratioFormat.format(value)}%`;
    case 'ratio':
      return ratioFormat.format(value);
    default:
      return countFormat.format(value);
  }
}

/** Whose value a scope reads for objects of a level: its own level is itself; an ad set has no ad set above it, nor a campaign one. */
function scopeAt(level: ObjectLevel, scope: CompareScope): CompareScope | null {
  if (scope === 'self' || scope === 'account') return scope;
  if (scope === level) return 'self';
  if (scope === 'campaign') return 'campaign';
  return level === 'ad' ? 'adset' : null;
}

/** Whose value a scope reads for this object; null (no data) when it has no such parent, or an ad's ad set is not known. */
export function scopeFor(object: JudgedObject, scope: CompareScope): CompareScope | null {
  const resolved = scopeAt(object.level, scope);
  return resolved === 'adset' && !object.adsetId ? null : resolved;
}

const metricLabel = (metric: MetricKey, window: ConditionWindow) =>
  `${metricSpec(metric)?.label ?? metric} (${windowLabel(window)})`;

function judgeCondition(c: MetricCondition, object: JudgedObject, lookup: ValueOf, currency: string): ConditionValue {
  const left = lookup('self', c.metric, c.window);
  let right: number | null;
  let rightText: string;
  if (c.compare_to) {
    const other = c.compare_to;
    const scope = scopeFor(object, other.of);
    const base = scope === null ? null : lookup(scope, other.metric, other.window);
    right = base === null ? null : base * other.factor;
    const factor = other.factor === 1 ? '' : `${other.factor} × `;
    const whose = other.of === 'self' ? '' : `${other.of} `;
    rightText = `${factor}${whose}${metricLabel(other.metric, other.window)} ${metricValueText(other.metric, base, currency)}`;
    if (other.factor !== 1 && right !== null) rightText += ` = ${metricValueText(other.metric, right, currency)}`;
  } else {
    right = c.value ?? null;
    rightText = metricValueText(c.metric, right, currency);
  }
  const result = left === null || right === null ? null : COMPARE[c.op](left, right);
  const leftText = `${metricLabel(c.metric, c.window)} ${metricValueText(c.metric, left, currency)}`;
  return {
    text: conditionText(c),
    left,
    right,
    result,
    shown: `${leftText} ${OP_TEXT[c.op]} ${rightText} ${MARK[`${result}`]}`,
  };
}

/** Evaluate a node, each condition reached appended to `judged` (depth first, as conditionsOf lists them). */
function judgeNode(
  node: ConditionNode,
  judgeOne: (c: MetricCondition) => ConditionValue,
  judged: ConditionValue[],
): Truth {
  if (!isGroup(node)) {
    const value = judgeOne(node);
    judged.push(value);
    return value.result;
  }
  // Every child is judged (no short cut): the record shows each condition's values.
  const values = node.conditions.map((child) => judgeNode(child, judgeOne, judged));
  return node.match === 'all' ? allOf(values) : anyOf(values);
}

/** The group's result on the object, and each condition's values. */
export function evaluateConditions(
  group: ConditionGroup,
  object: JudgedObject,
  lookup: ValueOf,
  currency: string,
): ConditionsResult {
  const conditions: ConditionValue[] = [];
  const result = judgeNode(group, (c) => judgeCondition(c, object, lookup, currency), conditions);
  return { result, conditions };
}

/** The insight rows to read for an object of `level`: which level's, over which window. */
export interface WindowRead {
  scope: CompareScope;
  /** The level of the rows that hold the scope's values ('account': the account's own row). */
  level: ObjectLevel | 'account';
  window: ConditionWindow;
}

/**
 * The windows a group reads for objects of `level`, each (scope, window) once; a scope the level
 * cannot have (an ad set's ad set) is left out: its conditions have no data.
 */
export function windowsNeeded(group: ConditionGroup | null | undefined, level: ObjectLevel): WindowRead[] {
  const reads = new Map<string, WindowRead>();
  for (const { of, window } of readsOf(group)) {
    const scope = scopeAt(level, of);
    if (scope === null) continue;
    const rowsLevel = scope === 'self' ? level : scope;
    reads.set(`${scope} ${window}`, { scope, level: rowsLevel, window });
  }
  return [...reads.values()];
}

/** The group tests a show-up metric: the run needs what the leads became (lifetime). */
export const readsOutcomes = (group: ConditionGroup | null | undefined): boolean =>
  conditionsOf(group).some(
    (c) => metricSpec(c.metric)?.lifetimeOnly || (c.compare_to && metricSpec(c.compare_to.metric)?.lifetimeOnly),
  );

/**
 * The cost line a budget-raising rule holds to, for its rollback: the first condition of the top
 * group — when it is an AND, or holds one condition — keeping a cost under a number ("CPL (last 7
 * days) < 30"). Conditions inside nested groups or an OR of several are not lines the rule holds to.
 */
export function costLine(
  group: ConditionGroup | null | undefined,
): { metric: MetricKey; window: ConditionWindow; value: number } | null {
  if (!group || (group.match !== 'all' && group.conditions.length !== 1)) return null;
  for (const node of group.conditions) {
    if (isGroup(node)) continue;
    if (metricSpec(node.metric)?.cost && (node.op === '<' || node.op === '<=') && node.value !== undefined)
      return { metric: node.metric, window: node.window, value: node.value };
  }
  return null;
}
