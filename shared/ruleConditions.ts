/**
 * A rule's conditions (docs/engine.md, "Conditions and actions"): beside the fixed task cards, a rule may test
 * any metric the platform reports or the product computes, each over its own window, against a
 * number or against another metric, combined with AND and OR in groups. Shared by the API (zod
 * validation with the contract's messages), the engine and the editor.
 *
 * A condition with no data (the metric is unknown for the object: no row, a CPL with no lead, no
 * outcome store) is neither true nor false: groups combine with three-valued logic (an AND holding
 * a false condition is false whatever is unknown; an OR holding a true one is true), and a rule
 * acts only on an object whose conditions are true.
 */
import { z } from 'zod';

export type MetricKind = 'money' | 'count' | 'percent' | 'ratio';

export interface MetricSpec {
  key: string;
  label: string;
  kind: MetricKind;
  /** Show-up metrics are known over the object's whole life only (what its leads became so far). */
  lifetimeOnly?: boolean;
  /** A cost: a rule raising budgets while it is under a line rolls back when it rises past that line. */
  cost?: boolean;
}

export const CONDITION_METRICS = [
  { key: 'spend', label: 'Spend', kind: 'money' },
  { key: 'impressions', label: 'Impressions', kind: 'count' },
  { key: 'reach', label: 'Reach', kind: 'count' },
  { key: 'frequency', label: 'Frequency', kind: 'ratio' },
  { key: 'clicks', label: 'Clicks', kind: 'count' },
  { key: 'link_clicks', label: 'Link clicks', kind: 'count' },
  { key: 'ctr', label: 'CTR', kind: 'percent' },
  { key: 'cpc', label: 'CPC', kind: 'money', cost: true },
  { key: 'cpm', label: 'CPM', kind: 'money', cost: true },
  { key: 'leads', label: 'Leads', kind: 'count' },
  { key: 'cpl', label: 'CPL', kind: 'money', cost: true },
  { key: 'results', label: 'Results', kind: 'count' },
  { key: 'cost_per_result', label: 'Cost per result', kind: 'money', cost: true },
  { key: 'registrations', label: 'Registrations', kind: 'count', lifetimeOnly: true },
  { key: 'attendees', label: 'Attendees', kind: 'count', lifetimeOnly: true },
  { key: 'show_up_rate', label: 'Show-up rate', kind: 'percent', lifetimeOnly: true },
  { key: 'cost_per_attendee', label: 'Cost per attendee', kind: 'money', lifetimeOnly: true, cost: true },
] as const satisfies readonly MetricSpec[];

export type MetricKey = (typeof CONDITION_METRICS)[number]['key'];
export const METRIC_KEYS = CONDITION_METRICS.map((m) => m.key) as [MetricKey, ...MetricKey[]];
export const metricSpec = (key: string): MetricSpec | undefined => CONDITION_METRICS.find((m) => m.key === key);

/**
 * Windows, in the ad account's time zone: `today` (since midnight), `yesterday`, `last_N_days`
 * (today and the N − 1 days before it, N from 2 to 90), `lifetime` (since the object started).
 */
export type ConditionWindow = 'today' | 'yesterday' | 'lifetime' | `last_${number}_days`;
export const LAST_DAYS_LIMITS = { min: 2, max: 90 } as const;
export const WINDOW_PRESETS = ['today', 'yesterday', 'last_3_days', 'last_7_days', 'last_14_days', 'lifetime'] as const;

/** The days a `last_N_days` window spans; null for the other windows. */
export function lastDaysOf(window: string): number | null {
  const match = /^last_(\d{1,3})_days$/.exec(window);
  return match ? Number(match[1]) : null;
}

export function isConditionWindow(value: unknown): value is ConditionWindow {
  if (value === 'today' || value === 'yesterday' || value === 'lifetime') return true;
  if (typeof value !== 'string') return false;
  const days = lastDaysOf(value);
  return days !== null && days >= LAST_DAYS_LIMITS.min && days <= LAST_DAYS_LIMITS.max;
}

export function windowLabel(window: ConditionWindow): string {
  if (window === 'today') return 'today';
  if (window === 'yesterday') return 'yesterday';
  if (window === 'lifetime') return 'lifetime';
  return `last ${lastDaysOf(window)} days`;
}

export const COMPARISONS = ['>', '>=', '<', '<='] as const;
export type Comparison = (typeof COMPARISONS)[number];

/** Whose metric the other side reads: the object's own, or the campaign (ad set, account) it belongs to. */
export const COMPARE_SCOPES = ['self', 'adset', 'campaign', 'account'] as const;
export type CompareScope = (typeof COMPARE_SCOPES)[number];

export interface MetricCondition {
  metric: MetricKey;
  window: ConditionWindow;
  op: Comparison;
  /** A number (money in the account's currency, a percentage as 1.5 for 1.5 %) … */
  value?: number;
  /** … or another metric times a factor: "CPL > 1.5 × the campaign's CPL over 7 days". */
  compare_to?: { metric: MetricKey; window: ConditionWindow; of: CompareScope; factor: number };
}

export interface ConditionGroup {
  match: 'all' | 'any';
  conditions: ConditionNode[];
}

export type ConditionNode = MetricCondition | ConditionGroup;

export const isGroup = (node: ConditionNode): node is ConditionGroup => 'conditions' in node;

export const CONDITION_LIMITS = { depth: 3, conditions: 20, factorMax: 100 } as const;

export const CONDITION_MESSAGES = {
  unknownMetric: `Choose a metric: ${METRIC_KEYS.join(', ')}`,
  window: `Choose a window: today, yesterday, lifetime, or last_N_days with N from ${LAST_DAYS_LIMITS.min} to ${LAST_DAYS_LIMITS.max}`,
  lifetimeOnly: 'Show-up metrics are known over the lifetime only: choose the lifetime window',
  op: `Choose a comparison: ${COMPARISONS.join(' ')}`,
  valueOrMetric: 'Give either a number (value) or another metric (compare_to), not both',
  number: 'Must be a number',
  notNegative: 'Must be 0 or more',
  percentRange: 'Must be from 0 to 100',
  factor: `Must be more than 0 and at most ${CONDITION_LIMITS.factorMax}`,
  empty: 'A group needs at least one condition',
  depth: `Groups nest at most ${CONDITION_LIMITS.depth} deep`,
  tooMany: `At most ${CONDITION_LIMITS.conditions} conditions`,
  sameSide: 'Compare a metric with a different metric, window or scope',
} as const;

const windowSchema = z
  .string({ error: CONDITION_MESSAGES.window })
  .refine(isConditionWindow, CONDITION_MESSAGES.window);
const metricSchema = z.enum(METRIC_KEYS, { error: CONDITION_MESSAGES.unknownMetric });
const finite = z.number({ error: CONDITION_MESSAGES.number }).refine(Number.isFinite, CONDITION_MESSAGES.number);

export const metricConditionSchema = z
  .object({
    metric: metricSchema,
    window: windowSchema,
    op: z.enum(COMPARISONS, { error: CONDITION_MESSAGES.op }),
    value: finite.optional(),
    compare_to: z
      .object({
        metric: metricSchema,
        window: windowSchema,
        of: z.enum(COMPARE_SCOPES, { error: `Choose whose metric: ${COMPARE_SCOPES.join(', ')}` }),
        factor: finite.refine((f) => f > 0 && f <= CONDITION_LIMITS.factorMax, CONDITION_MESSAGES.factor),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if ((c.value === undefined) === (c.compare_to === undefined))
      ctx.addIssue({ code: 'custom', path: ['value'], message: CONDITION_MESSAGES.valueOrMetric });
    const spec = metricSpec(c.metric);
    if (spec?.lifetimeOnly && c.window !== 'lifetime')
      ctx.addIssue({ code: 'custom', path: ['window'], message: CONDITION_MESSAGES.lifetimeOnly });
    if (c.value !== undefined) {
      if (c.value < 0) ctx.addIssue({ code: 'custom', path: ['value'], message: CONDITION_MESSAGES.notNegative });
      else if (spec?.kind === 'percent' && c.value > 100)
        ctx.addIssue({ code: 'custom', path: ['value'], message: CONDITION_MESSAGES.percentRange });
    }
    const other = c.compare_to;
    if (other) {
      if (metricSpec(other.metric)?.lifetimeOnly && other.window !== 'lifetime')
        ctx.addIssue({ code: 'custom', path: ['compare_to', 'window'], message: CONDITION_MESSAGES.lifetimeOnly });
      if (other.of === 'self' && other.metric === c.metric && other.window === c.window)
        ctx.addIssue({ code: 'custom', path: ['compare_to'], message: CONDITION_MESSAGES.sameSide });
    }
  }) satisfies z.ZodType<MetricCondition>;

export const conditionGroupSchema: z.ZodType<ConditionGroup> = z.lazy(() =>
  z
    .object({
      match: z.enum(['all', 'any'], { error: 'Choose all (AND) or any (OR)' }),
      conditions: z.array(z.union([metricConditionSchema, conditionGroupSchema])).min(1, CONDITION_MESSAGES.empty),
    })
    .strict(),
);

function depthOf(group: ConditionGroup): number {
  return 1 + Math.max(0, ...group.conditions.filter(isGroup).map(depthOf));
}

export function countConditions(group: ConditionGroup): number {
  return group.conditions.reduce((n, node) => n + (isGroup(node) ? countConditions(node) : 1), 0);
}

/** A rule's `conditions`: a group (the top one), or null for none. */
export const ruleConditionsSchema = conditionGroupSchema
  .superRefine((group, ctx) => {
    if (depthOf(group) > CONDITION_LIMITS.depth) ctx.addIssue({ code: 'custom', message: CONDITION_MESSAGES.depth });
    if (countConditions(group) > CONDITION_LIMITS.conditions)
      ctx.addIssue({ code: 'custom', message: CONDITION_MESSAGES.tooMany });
  })
  .nullable();

/** Every metric condition of a group, depth first. */
export function conditionsOf(group: ConditionGroup | null | undefined): MetricCondition[] {
  if (!group) return [];
  return group.conditions.flatMap((node) => (isGroup(node) ? conditionsOf(node) : [node]));
}

/** The (metric window) pairs a group reads, the other sides' included, with whose metric each is. */
export function readsOf(group: ConditionGroup | null | undefined): { window: ConditionWindow; of: CompareScope }[] {
  const seen = new Map<string, { window: ConditionWindow; of: CompareScope }>();
  for (const c of conditionsOf(group)) {
    seen.set(`self ${c.window}`, { window: c.window, of: 'self' });
    if (c.compare_to)
      seen.set(`${c.compare_to.of} ${c.compare_to.window}`, { window: c.compare_to.window, of: c.compare_to.of });
  }
  return [...seen.values()];
}

const OP_TEXT: Record<Comparison, string> = { '>': '>', '>=': '≥', '<': '<', '<=': '≤' };

/** "CPL (last 7 days) > 1.5 × campaign CPL (last 7 days)", "Spend (today) ≥ 40". */
export function conditionText(c: MetricCondition): string {
  const left = `${metricSpec(c.metric)?.label ?? c.metric} (${windowLabel(c.window)})`;
  if (c.compare_to) {
    const o = c.compare_to;
    const whose = o.of === 'self' ? '' : `${o.of} `;
    const factor = o.factor === 1 ? '' : `${o.factor} × `;
    return `${left} ${OP_TEXT[c.op]} ${factor}${whose}${metricSpec(o.metric)?.label ?? o.metric} (${windowLabel(o.window)})`;
  }
  return `${left} ${OP_TEXT[c.op]} ${c.value}`;
}
