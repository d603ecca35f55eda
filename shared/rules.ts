/**
 * Rules and their items (docs/contract.md#entities, docs/engine.md): the one description both the API and the browser use,
 * and the shape the rule engine reads from the `rule_items` table.
 *
 * A rule has exactly one item per catalogue name below, stored as one `rule_items` row:
 *
 * | type        | name                        | values (JSON)                       | default                      |
 * |-------------|-----------------------------|-------------------------------------|------------------------------|
 * | rule_filter | campaign_name_contains      | string[]  e.g. ["EDM", "EP-W"]      | ["EDM"], active (always on)  |
 * | rule_filter | campaign_name_not_contains  | string[]                            | [], inactive                 |
 * | rule_task   | campaign_leads              | {"leads": "30"}                     | {"leads": ""}, inactive      |
 * | rule_task   | trigger_cpl                 | {"cpl": "50"}                       | {"cpl": ""}, inactive        |
 * | rule_task   | website_cpl                 | {"cpl": "50"}                       | …                            |
 * | rule_task   | spend_cpl_no_leads          | {"spend": "40"}                     |                              |
 * | rule_task   | spend_no_links_clicks       | {"spend": "40"}                     |                              |
 * | rule_task   | spend_ctr_no_leads          | {"spend": "40", "ctr": "0.5"}       |                              |
 * | rule_task   | spend_cpc_no_leads          | {"spend": "40", "cpc": "3"}         |                              |
 * | rule_task   | cost_per_attendee           | {"cost": "75", "min_registrations": "20"} |                        |
 * | rule_task   | show_up_rate                | {"rate": "25", "min_registrations": "20"} |                        |
 * | rule_task   | cost_per_stage              | {"stage": "qualified", "cost": "120", "min_leads": "10"} |         |
 *
 * Task values are decimal strings (as typed, as the Graph API sends metrics); an empty string is
 * "not set". Only active items take part in a run: a task is active when `is_active` is true; the
 * contains filter always applies; the not-contains filter applies when active.
 */
import { z } from 'zod';
import { MESSAGES } from './validation';
import { judgingSchema, type RuleJudging } from './judging';
import { ruleConditionsSchema, type ConditionGroup } from './ruleConditions';
import { ruleActionFieldSchema, type RuleAction } from './ruleActions';
import type { BudgetLimits } from './budgetLimits';

export * from './ruleCatalog';
import {
  FILTER_ITEM_MAX,
  FILTER_ITEM_MIN,
  FILTER_MAX_ITEMS,
  FILTER_NAMES,
  FILTERS,
  OUTCOME_STAGES,
  TASK_NAMES,
  TASKS,
  taskSpec,
  type FilterName,
  type TaskName,
  type TaskValueKey,
  type TaskValueSpec,
} from './ruleCatalog';

export type TaskValues = Partial<Record<TaskValueKey, string>>;

export interface FilterItem {
  id?: number;
  name: FilterName;
  type: 'rule_filter';
  values: string[];
  is_active: boolean;
}

export interface TaskItem {
  id?: number;
  name: TaskName;
  type: 'rule_task';
  values: TaskValues;
  is_active: boolean;
}

export type RuleItem = FilterItem | TaskItem;

export interface RuleSchedule {
  /** 7 days (Sunday first) × 24 hours (12 AM first). */
  schedule: boolean[][];
  timezone: string;
}

export interface RuleAlertSchedule {
  /** 24 hours (12 AM first). */
  schedule: boolean[];
}

/** A rule as `GET /api/rule/{id}/` answers it. */
export interface RuleDto {
  id: number;
  name: string;
  is_active: boolean;
  /** Scheduled runs record and mail what they would do and change nothing. */
  notify_only: boolean;
  is_deleted: boolean;
  folder: {
    id: number;
    name: string;
    client_type: string;
    plan: string;
    is_deleted: boolean;
    meta_ad_account: { ad_account_id: string; account_name: string; timezone_name: string } | null;
    /** The folder's budget limits (shared/budgetLimits.ts), whole: shown read-only beside a budget action. */
    budget_limits: BudgetLimits;
    /** Who receives the mail alerts of the folder's rules; empty: the default recipients (ALERT_EMAILS). */
    alert_emails?: string[];
  };
  rule_filter: FilterItem[];
  rule_task: TaskItem[];
  rule_schedule: RuleSchedule;
  rule_alert_schedule: RuleAlertSchedule;
  /** How the rule judges late data (shared/judging.ts). */
  judging: RuleJudging;
  /** The rule's conditions (shared/ruleConditions.ts); null: none. */
  conditions: ConditionGroup | null;
  /** What the conditions do (shared/ruleActions.ts); null: none. */
  action: RuleAction | null;
  /** The template the rule follows, with the fields its folder overrides (shared/templates.ts); null: none. */
  template?: RuleTemplateLink | null;
  created_at: string;
  updated_at: string;
}

/** A rule's values without its folder: what a template holds and what a following rule inherits. */
export type RuleValues = Pick<
  RuleDto,
  | 'name'
  | 'is_active'
  | 'notify_only'
  | 'rule_filter'
  | 'rule_task'
  | 'rule_schedule'
  | 'rule_alert_schedule'
  | 'judging'
  | 'conditions'
  | 'action'
>;

export interface RuleTemplateLink {
  id: number;
  name: string;
  /** The fields this folder overrides; every other one follows the template. */
  overrides: string[];
  /** The template's values: what an inherited field shows and what Reset restores. */
  values: RuleValues;
}

const isoTime = z.string().describe('ISO 8601 date and time');

export const filterItemSchema = z.object({
  id: z.number().int().optional(),
  name: z.enum(FILTER_NAMES),
  type: z.literal('rule_filter'),
  values: z.array(z.string()),
  is_active: z.boolean(),
}) satisfies z.ZodType<FilterItem>;

export const taskItemSchema = z.object({
  id: z.number().int().optional(),
  name: z.enum(TASK_NAMES),
  type: z.literal('rule_task'),
  values: z.object({
    leads: z.string().optional(),
    cpl: z.string().optional(),
    spend: z.string().optional(),
    ctr: z.string().optional(),
    cpc: z.string().optional(),
    cost: z.string().optional(),
    rate: z.string().optional(),
    stage: z.string().optional(),
    min_registrations: z.string().optional(),
    min_leads: z.string().optional(),
  }),
  is_active: z.boolean(),
}) satisfies z.ZodType<TaskItem>;

const accountRefSchema = z.object({ ad_account_id: z.string(), account_name: z.string(), timezone_name: z.string() });

/**
 * The answer's budget limits: the shape only (a stored value is read back whole with
 * readBudgetLimits, each limit checked when it was saved).
 */
export const budgetLimitsAnswerSchema = z.object({
  growth_24h_pct: z.number().describe('Largest growth (%) of one daily budget in 24 hours'),
  growth_7d_pct: z.number().describe('Largest growth (%) of one daily budget in 7 days'),
  significant_pct: z.number().describe('A change this large (%) restarts learning'),
  settle_hours: z.number().describe('Hours after a significant raise before the next one'),
  daily_increase_limit: z
    .number()
    .nullable()
    .describe('Daily budget a run may add (with the last 24 hours of raises) before it waits for approval; null: none'),
}) satisfies z.ZodType<BudgetLimits>;

/** A rule's values (RuleValues), as a template holds them. */
export const ruleValuesSchema = z.object({
  name: z.string(),
  is_active: z.boolean(),
  notify_only: z.boolean().describe('Scheduled runs record and mail what they would do and change nothing'),
  rule_filter: z.array(filterItemSchema),
  rule_task: z.array(taskItemSchema),
  rule_schedule: z.object({
    schedule: z.array(z.array(z.boolean())).describe('7 days (Sunday first) × 24 hours (12 AM first)'),
    timezone: z.string(),
  }),
  rule_alert_schedule: z.object({ schedule: z.array(z.boolean()).describe('24 hours (12 AM first)') }),
  judging: judgingSchema,
  conditions: ruleConditionsSchema.describe(
    "The rule's conditions: a group of metric conditions and groups; null: none",
  ),
  action: ruleActionFieldSchema.describe('What the conditions do; null: none'),
}) satisfies z.ZodType<RuleValues>;

/** `GET /api/rule/{id}/`. */
export const ruleSchema = ruleValuesSchema.extend({
  id: z.number().int(),
  is_deleted: z.boolean(),
  folder: z.object({
    id: z.number().int(),
    name: z.string(),
    client_type: z.string(),
    plan: z.string(),
    is_deleted: z.boolean(),
    meta_ad_account: accountRefSchema.nullable(),
    budget_limits: budgetLimitsAnswerSchema,
    alert_emails: z
      .array(z.string())
      .optional()
      .describe("Who receives the mail alerts of the folder's rules; empty: the default recipients (ALERT_EMAILS)"),
  }),
  template: z
    .object({
      id: z.number().int(),
      name: z.string(),
      overrides: z.array(z.string()).describe('The fields this folder overrides; every other one follows the template'),
      values: ruleValuesSchema,
    })
    .nullable()
    .optional()
    .describe('The template the rule follows; null: none'),
  created_at: isoTime,
  updated_at: isoTime,
}) satisfies z.ZodType<RuleDto>;

export const DEFAULT_CONTAINS = ['EDM'];

export function defaultFilters(): FilterItem[] {
  return [
    { name: 'campaign_name_contains', type: 'rule_filter', values: [...DEFAULT_CONTAINS], is_active: true },
    { name: 'campaign_name_not_contains', type: 'rule_filter', values: [], is_active: false },
  ];
}

export const emptyTaskValues = (name: TaskName): TaskValues =>
  Object.fromEntries(taskSpec(name)!.values.map((v) => [v.key, ''])) as TaskValues;

export function defaultTasks(): TaskItem[] {
  return TASKS.map((t) => ({
    name: t.name,
    type: 'rule_task' as const,
    values: emptyTaskValues(t.name),
    is_active: false,
  }));
}

/**
 * docs/contract.md#validation exempts a task "still in its default state" from the value checks. The default state is
 * switched off: an inactive task may keep empty values (typing a spend copies it into two other
 * cards, which must not make them invalid), but what it does hold must be a number.
 */
export const isDefaultTask = (task: Pick<TaskItem, 'is_active'>): boolean => !task.is_active;

/** Errors of the rule's items, in the API's nested 400 shape. */
export interface RuleItemErrors {
  rule_filter?: Partial<Record<FilterName | 'non_field_errors', string[]>>;
  rule_task?: Partial<Record<TaskName, Partial<Record<TaskValueKey, string[]>>>> & { non_field_errors?: string[] };
}

export const RULE_MESSAGES = {
  noActiveTask: 'Turn on at least one task to activate the rule',
  positive: 'Must be greater than 0',
  wholeLeads: 'Must be a whole number of at least 1',
  ctrRange: 'Must be more than 0 and at most 100',
  wholeMinimum: 'Must be a whole number of at least 1',
  stageChoice: `Choose a stage: ${OUTCOME_STAGES.join(', ')}`,
  filterItemLength: `Each name must be ${FILTER_ITEM_MIN}–${FILTER_ITEM_MAX} characters`,
  filterItemCount: `At most ${FILTER_MAX_ITEMS} names`,
  unknownTimezone: 'Unknown time zone',
  scheduleShape: 'The schedule must be 7 days of 24 hours',
  alertScheduleShape: 'The alert schedule must be 24 hours',
} as const;

/**
 * A threshold's guard rails (they hold whatever the editor allows): money, CPL, CPC, spend and cost
 * are positive, leads and the outcome tasks' minimums a whole number of at least 1, CTR and
 * show-up rate a percentage in (0, 100]. A threshold of 0 or less would make its task fire on
 * every matching object; a minimum of 0 would judge an ad on its first registrant.
 */
export function thresholdError(key: TaskValueKey, n: number): string | undefined {
  if (key === 'leads') return Number.isInteger(n) && n >= 1 ? undefined : RULE_MESSAGES.wholeLeads;
  if (key === 'min_registrations' || key === 'min_leads')
    return Number.isInteger(n) && n >= 1 ? undefined : RULE_MESSAGES.wholeMinimum;
  if (key === 'ctr' || key === 'rate') return n > 0 && n <= 100 ? undefined : RULE_MESSAGES.ctrRange;
  return n > 0 ? undefined : RULE_MESSAGES.positive;
}

function valueError(raw: unknown, spec: TaskValueSpec, required: boolean): string | undefined {
  const text = raw === undefined || raw === null ? '' : String(raw).trim();
  if (!text) return required ? MESSAGES.required : undefined;
  if (spec.options) return spec.options.includes(text) ? undefined : RULE_MESSAGES.stageChoice;
  const n = Number(text);
  if (!Number.isFinite(n)) return MESSAGES.numeric;
  if (spec.integer && !Number.isInteger(n)) return MESSAGES.integer;
  return thresholdError(spec.key, n);
}

/** The error of one task value as the editor shows it under the field (undefined when valid). */
export function taskValueError(
  task: Pick<TaskItem, 'name' | 'values' | 'is_active'>,
  key: TaskValueKey,
): string | undefined {
  const spec = taskSpec(task.name)?.values.find((v) => v.key === key);
  if (!spec) return undefined;
  return valueError(task.values[key], spec, !isDefaultTask(task));
}

/**
 * The error of one filter list (undefined when valid): the contains list always, the other when
 * active, must name something; every name is 2–100 characters (a one-letter name matches almost
 * every campaign) and a list holds at most 50.
 */
export function filterError(filter: Pick<FilterItem, 'name' | 'values' | 'is_active'>): string | undefined {
  const required = filter.name === 'campaign_name_contains' || filter.is_active;
  const names = (filter.values ?? []).map((v) => String(v).trim()).filter(Boolean);
  if (required && !names.length) return MESSAGES.required;
  if (names.length > FILTER_MAX_ITEMS) return RULE_MESSAGES.filterItemCount;
  if (names.some((n) => n.length < FILTER_ITEM_MIN || n.length > FILTER_ITEM_MAX))
    return RULE_MESSAGES.filterItemLength;
  return undefined;
}

/**
 * docs/contract.md#validation for a whole rule: filter lists non-empty, each task value required and numeric unless the
 * task is still in its default state (off: then only numeric); an active rule also needs at least
 * one active task, unless its conditions with an action act on their own (`acts`).
 * Answers null when valid.
 */
export function validateRuleItems(
  filters: readonly Pick<FilterItem, 'name' | 'values' | 'is_active'>[],
  tasks: readonly Pick<TaskItem, 'name' | 'values' | 'is_active'>[],
  options: { active: boolean; acts?: boolean },
): RuleItemErrors | null {
  const errors: RuleItemErrors = {};
  for (const filter of filters) {
    const message = filterError(filter);
    if (message) errors.rule_filter = { ...errors.rule_filter, [filter.name]: [message] };
  }
  for (const task of tasks) {
    for (const spec of taskSpec(task.name)?.values ?? []) {
      const message = taskValueError(task, spec.key);
      if (!message) continue;
      const taskErrors = errors.rule_task ?? {};
      taskErrors[task.name] = { ...taskErrors[task.name], [spec.key]: [message] };
      errors.rule_task = taskErrors;
    }
  }
  if (options.active && !options.acts && !tasks.some((t) => t.is_active)) {
    errors.rule_task = { ...errors.rule_task, non_field_errors: [RULE_MESSAGES.noActiveTask] };
  }
  return errors.rule_filter || errors.rule_task ? errors : null;
}

/** Values as stored: trimmed strings, only the keys the task has. */
export function normaliseTaskValues(name: TaskName, values: Record<string, unknown> | null | undefined): TaskValues {
  const result: TaskValues = {};
  for (const spec of taskSpec(name)!.values) {
    const raw = values?.[spec.key];
    result[spec.key] = raw === undefined || raw === null ? '' : String(raw).trim();
  }
  return result;
}

export const normaliseFilterValues = (values: readonly unknown[] | null | undefined): string[] =>
  (values ?? []).map((v) => String(v).trim()).filter(Boolean);

/** 'campaign_name_contains' → the label the screens and the log use. */
export function itemLabel(name: string): string {
  return FILTERS.find((f) => f.name === name)?.label ?? taskSpec(name)?.wording ?? name;
}

export const NEW_RULE_NAME = 'New rule';

/** A new rule's name that no rule of its folder has yet: 'New rule', then 'New rule 2', 'New rule 3' … */
export function nextNewRuleName(namesInFolder: readonly string[]): string {
  const taken = new Set(namesInFolder);
  if (!taken.has(NEW_RULE_NAME)) return NEW_RULE_NAME;
  for (let n = 2; ; n += 1) if (!taken.has(`${NEW_RULE_NAME} ${n}`)) return `${NEW_RULE_NAME} ${n}`;
}
export const duplicateName = (name: string) => `${name} (copy)`;
