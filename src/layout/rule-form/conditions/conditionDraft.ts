/**
 * The Conditions card's working copy of a rule's conditions and action: numbers kept as typed
 * (strings), a window as a preset or "last N days" with its N, each node with a key for React.
 * Converts to and from the API's `conditions` / `action` (shared/ruleConditions.ts,
 * ruleActions.ts), and checks the result with the shared schemas, errors keyed by the field path
 * the server answers with ("conditions.conditions.0.value", "action.change.percent"). Pure.
 */
import {
  CONDITION_LIMITS,
  isGroup,
  lastDaysOf,
  metricSpec,
  ruleConditionsSchema,
  WINDOW_PRESETS,
  type CompareScope,
  type Comparison,
  type ConditionGroup,
  type ConditionNode,
  type ConditionWindow,
  type MetricCondition,
  type MetricKey,
} from '../../../../shared/ruleConditions';
import {
  ACTION_LEVELS,
  isBudgetAction,
  ruleActionFieldSchema,
  type ActionKind,
  type ActionLevel,
  type RuleAction,
} from '../../../../shared/ruleActions';
import { MESSAGES } from '../../../../shared/validation';

export type WindowChoice = (typeof WINDOW_PRESETS)[number] | 'last_n';

export interface WindowDraft {
  window: WindowChoice;
  /** The N of "last N days", as typed. */
  days: string;
}

export interface ConditionDraft extends WindowDraft {
  type: 'condition';
  key: string;
  metric: MetricKey;
  op: Comparison;
  against: 'number' | 'metric';
  value: string;
  other: WindowDraft & { metric: MetricKey; of: CompareScope; factor: string };
}

export interface GroupDraft {
  type: 'group';
  key: string;
  match: 'all' | 'any';
  nodes: NodeDraft[];
}

export type NodeDraft = ConditionDraft | GroupDraft;

export interface ActionDraft {
  kind: ActionKind;
  level: ActionLevel;
  by: 'percent' | 'amount';
  percent: string;
  amount: string;
  floor: string;
  ceiling: string;
}

/** The card's whole state: off means the rule has no conditions and no action (sent as null). */
export interface ExpressiveDraft {
  on: boolean;
  group: GroupDraft;
  action: ActionDraft;
}

let lastKey = 0;
const nextKey = () => `n${++lastKey}`;

const DEFAULT_DAYS = '30';

function windowDraftOf(window: ConditionWindow): WindowDraft {
  const days = lastDaysOf(window);
  if (days !== null && !(WINDOW_PRESETS as readonly string[]).includes(window))
    return { window: 'last_n', days: String(days) };
  return { window: window as WindowChoice, days: DEFAULT_DAYS };
}

function windowOf(draft: WindowDraft): ConditionWindow {
  return draft.window === 'last_n' ? (`last_${draft.days.trim()}_days` as ConditionWindow) : draft.window;
}

/** Show-up metrics are known over the lifetime only: choosing one sets its window to Lifetime. */
export const isLifetimeOnly = (metric: string) => Boolean(metricSpec(metric)?.lifetimeOnly);

export function withMetric<T extends WindowDraft & { metric: MetricKey }>(side: T, metric: MetricKey): T {
  return isLifetimeOnly(metric) ? { ...side, metric, window: 'lifetime' } : { ...side, metric };
}

export function newCondition(): ConditionDraft {
  return {
    type: 'condition',
    key: nextKey(),
    metric: 'cpl',
    window: 'last_7_days',
    days: DEFAULT_DAYS,
    op: '>',
    against: 'number',
    value: '',
    other: { metric: 'cpl', window: 'last_7_days', days: DEFAULT_DAYS, of: 'campaign', factor: '1' },
  };
}

export function newGroup(match: GroupDraft['match'] = 'all'): GroupDraft {
  return { type: 'group', key: nextKey(), match, nodes: [newCondition()] };
}

export function newAction(): ActionDraft {
  return { kind: 'turn_off', level: 'ad', by: 'percent', percent: '', amount: '', floor: '', ceiling: '' };
}

function conditionDraftOf(c: MetricCondition): ConditionDraft {
  const base = newCondition();
  return {
    ...base,
    metric: c.metric,
    ...windowDraftOf(c.window),
    op: c.op,
    against: c.compare_to ? 'metric' : 'number',
    value: c.value === undefined ? '' : String(c.value),
    other: c.compare_to
      ? {
          metric: c.compare_to.metric,
          ...windowDraftOf(c.compare_to.window),
          of: c.compare_to.of,
          factor: String(c.compare_to.factor),
        }
      : base.other,
  };
}

function groupDraftOf(group: ConditionGroup): GroupDraft {
  return {
    type: 'group',
    key: nextKey(),
    match: group.match,
    nodes: group.conditions.map((node) => (isGroup(node) ? groupDraftOf(node) : conditionDraftOf(node))),
  };
}

const text = (n: number | null | undefined) => (n == null ? '' : String(n));

function actionDraftOf(action: RuleAction): ActionDraft {
  return {
    kind: action.kind,
    level: action.level,
    by: action.change?.to_amount !== undefined ? 'amount' : 'percent',
    percent: text(action.change?.percent),
    amount: text(action.change?.to_amount),
    floor: text(action.floor),
    ceiling: text(action.ceiling),
  };
}

/** The card as a stored rule fills it; a rule without conditions starts off, with one empty condition. */
export function expressiveDraftOf(
  conditions: ConditionGroup | null | undefined,
  action: RuleAction | null | undefined,
) {
  return {
    on: Boolean(conditions),
    group: conditions ? groupDraftOf(conditions) : newGroup(),
    action: action ? actionDraftOf(action) : newAction(),
  } satisfies ExpressiveDraft;
}

/** '' stays undefined (the schema then says what is missing); anything else as a number, NaN when it is not one. */
const numberOf = (value: string): number | undefined => (value.trim() === '' ? undefined : Number(value.trim()));

function conditionOf(d: ConditionDraft): MetricCondition {
  const condition: MetricCondition = { metric: d.metric, window: windowOf(d), op: d.op };
  if (d.against === 'number') {
    const value = numberOf(d.value);
    if (value !== undefined) condition.value = value;
  } else {
    condition.compare_to = {
      metric: d.other.metric,
      window: windowOf(d.other),
      of: d.other.of,
      factor: numberOf(d.other.factor) ?? Number.NaN,
    };
  }
  return condition;
}

export function groupOf(d: GroupDraft): ConditionGroup {
  return {
    match: d.match,
    conditions: d.nodes.map((node): ConditionNode => (node.type === 'group' ? groupOf(node) : conditionOf(node))),
  };
}

export function actionOf(d: ActionDraft): RuleAction {
  if (!isBudgetAction(d.kind)) return { kind: d.kind, level: d.level };
  const change =
    d.by === 'percent'
      ? { percent: numberOf(d.percent) ?? Number.NaN }
      : { to_amount: numberOf(d.amount) ?? Number.NaN };
  return {
    kind: d.kind,
    level: d.level,
    change,
    floor: numberOf(d.floor) ?? null,
    ceiling: numberOf(d.ceiling) ?? null,
  };
}

/** What Save sends: both null when the card is off. */
export function expressivePayloadOf(d: ExpressiveDraft): {
  conditions: ConditionGroup | null;
  action: RuleAction | null;
} {
  return d.on ? { conditions: groupOf(d.group), action: actionOf(d.action) } : { conditions: null, action: null };
}

/** Another kind keeps the level when it may act there, else takes the kind's first level. */
export function withKind(d: ActionDraft, kind: ActionKind): ActionDraft {
  const levels = ACTION_LEVELS[kind] as readonly ActionLevel[];
  return { ...d, kind, level: levels.includes(d.level) ? d.level : levels[0]! };
}

/** How deep a group sits (the top group is 1): a group may hold another while under the limit. */
export const canNest = (depth: number) => depth < CONDITION_LIMITS.depth;

/** The tree with the node at `key` replaced (or removed, with `null`); groups left empty go too. */
export function replaceNode(group: GroupDraft, key: string, next: NodeDraft | null): GroupDraft {
  const nodes: NodeDraft[] = [];
  for (const node of group.nodes) {
    if (node.key === key) {
      if (next) nodes.push(next);
    } else if (node.type === 'group') {
      const inner = replaceNode(node, key, next);
      if (inner.nodes.length) nodes.push(inner);
    } else nodes.push(node);
  }
  return { ...group, nodes };
}

/** Field path → message, as the server keys a 400 ("conditions.conditions.1.compare_to.window"). */
export type FieldErrors = Record<string, string>;

/** The card's own check, with the shared schemas: empty fields say they are required. */
export function expressiveErrorsOf(d: ExpressiveDraft): FieldErrors {
  if (!d.on) return {};
  const errors: FieldErrors = {};
  const add = (path: string, message: string) => {
    errors[path] ??= message;
  };
  const required = (draft: GroupDraft, path: string) => {
    for (const [index, node] of draft.nodes.entries()) {
      const at = `${path}.conditions.${index}`;
      if (node.type === 'group') required(node, at);
      else if (node.against === 'number' && !node.value.trim()) add(`${at}.value`, MESSAGES.required);
      else if (node.against === 'metric' && !node.other.factor.trim())
        add(`${at}.compare_to.factor`, MESSAGES.required);
    }
  };
  required(d.group, 'conditions');
  const conditions = ruleConditionsSchema.safeParse(groupOf(d.group));
  if (!conditions.success)
    for (const issue of conditions.error.issues) add(['conditions', ...issue.path].join('.'), issue.message);
  const action = actionOf(d.action);
  if (isBudgetAction(action.kind)) {
    if (d.action.by === 'percent' && !d.action.percent.trim()) add('action.change.percent', MESSAGES.required);
    if (d.action.by === 'amount' && !d.action.amount.trim()) add('action.change.to_amount', MESSAGES.required);
  }
  const checked = ruleActionFieldSchema.safeParse(action);
  if (!checked.success)
    for (const issue of checked.error.issues) add(['action', ...issue.path].join('.'), issue.message);
  return errors;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A 400's errors on `conditions` and `action`, dotted keys or nested objects alike, flattened to
 * field paths: `{"conditions.conditions.0.value": ["Must be 0 or more"]}`,
 * `{"action": {"change": {"percent": ["…"]}}}`.
 */
export function expressiveServerErrorsOf(body: unknown): FieldErrors {
  const errors: FieldErrors = {};
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) errors[path] = value.join(' ');
    else if (typeof value === 'string') errors[path] = value;
    else if (Array.isArray(value)) for (const [i, v] of value.entries()) walk(v, `${path}.${i}`);
    else if (isRecord(value)) for (const [key, inner] of Object.entries(value)) walk(inner, `${path}.${key}`);
  };
  if (!isRecord(body)) return errors;
  for (const [key, value] of Object.entries(body)) if (/^(conditions|action)(\.|$)/.test(key)) walk(value, key);
  return errors;
}
