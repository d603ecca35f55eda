/**
 * Rule templates (docs/api.md, "Templates"): a rule without a folder that folders follow. A folder's rule
 * that follows a template holds every field's value itself (the rule engine reads it as any rule);
 * each field either inherits — it takes the template's value whenever the template changes — or is
 * overridden for that folder, listed in the rule's `template_overrides`.
 *
 * A field is one of the rule's parts a person sets as a whole: the name, active, notify only, the
 * schedule, the time zone, the alert schedule, the judging, the conditions, the action, and each
 * filter and each task card (its on/off and its thresholds) on its own.
 */
import { z } from 'zod';
import {
  FILTER_NAMES,
  TASK_NAMES,
  itemLabel,
  ruleValuesSchema,
  type FilterItem,
  type FilterName,
  type RuleValues,
  type TaskItem,
  type TaskName,
} from './rules';

export type { RuleValues } from './rules';

export const SCALAR_FIELDS = [
  'name',
  'is_active',
  'notify_only',
  'schedule',
  'timezone',
  'alert_schedule',
  'judging',
  'conditions',
  'action',
] as const;
type ScalarField = (typeof SCALAR_FIELDS)[number];

export type TemplateField = ScalarField | `filter:${FilterName}` | `task:${TaskName}`;

/** Every field, in the editor's order. */
export const TEMPLATE_FIELDS: readonly TemplateField[] = [
  'name',
  'is_active',
  'notify_only',
  ...FILTER_NAMES.map((name) => `filter:${name}` as const),
  ...TASK_NAMES.map((name) => `task:${name}` as const),
  'conditions',
  'action',
  'judging',
  'schedule',
  'timezone',
  'alert_schedule',
];

export const isTemplateField = (key: unknown): key is TemplateField =>
  typeof key === 'string' && (TEMPLATE_FIELDS as readonly string[]).includes(key);

const SCALAR_LABELS: Record<ScalarField, string> = {
  name: 'Name',
  is_active: 'Active',
  notify_only: 'Notify only',
  schedule: 'Schedule',
  timezone: 'Time zone',
  alert_schedule: 'Alert schedule',
  judging: 'Judging late data',
  conditions: 'Conditions',
  action: 'Action',
};

/** 'task:trigger_cpl' → the task card's wording; 'timezone' → 'Time zone'. */
export function templateFieldLabel(field: TemplateField): string {
  const [kind, name] = field.split(':') as [string, string | undefined];
  if (name && (kind === 'filter' || kind === 'task')) return itemLabel(name);
  return SCALAR_LABELS[field as ScalarField] ?? field;
}

/** The field's value, as JSON compares it. An item's id is where it is stored, not its value. */
export function fieldValue(values: RuleValues, field: TemplateField): unknown {
  switch (field) {
    case 'name':
      return values.name;
    case 'is_active':
      return values.is_active;
    case 'notify_only':
      return values.notify_only;
    case 'schedule':
      return values.rule_schedule.schedule;
    case 'timezone':
      return values.rule_schedule.timezone;
    case 'alert_schedule':
      return values.rule_alert_schedule.schedule;
    case 'judging':
      return values.judging;
    case 'conditions':
      return values.conditions;
    case 'action':
      return values.action;
  }
  const [kind, name] = field.split(':');
  const item =
    kind === 'filter' ? values.rule_filter.find((f) => f.name === name) : values.rule_task.find((t) => t.name === name);
  return item ? { values: item.values, is_active: item.is_active } : null;
}

/** JSON with object keys in order: two values equal when they say the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const sameFieldValue = (a: RuleValues, b: RuleValues, field: TemplateField) =>
  canonicalJson(fieldValue(a, field)) === canonicalJson(fieldValue(b, field));

/** The fields whose values differ between two rules' values, in the editor's order. */
export const differingFields = (a: RuleValues, b: RuleValues): TemplateField[] =>
  TEMPLATE_FIELDS.filter((field) => !sameFieldValue(a, b, field));

const withItem = <T extends FilterItem | TaskItem>(items: T[], from: T | undefined): T[] =>
  from
    ? items.map((item) =>
        item.name === from.name ? { ...item, values: from.values, is_active: from.is_active } : item,
      )
    : items;

/** `target` with one field's value taken from `source`. */
export function withFieldFrom(target: RuleValues, source: RuleValues, field: TemplateField): RuleValues {
  switch (field) {
    case 'name':
      return { ...target, name: source.name };
    case 'is_active':
      return { ...target, is_active: source.is_active };
    case 'notify_only':
      return { ...target, notify_only: source.notify_only };
    case 'schedule':
      return { ...target, rule_schedule: { ...target.rule_schedule, schedule: source.rule_schedule.schedule } };
    case 'timezone':
      return { ...target, rule_schedule: { ...target.rule_schedule, timezone: source.rule_schedule.timezone } };
    case 'alert_schedule':
      return { ...target, rule_alert_schedule: { schedule: source.rule_alert_schedule.schedule } };
    case 'judging':
      return { ...target, judging: source.judging };
    case 'conditions':
      return { ...target, conditions: source.conditions };
    case 'action':
      return { ...target, action: source.action };
  }
  const [kind, name] = field.split(':');
  if (kind === 'filter')
    return {
      ...target,
      rule_filter: withItem(
        target.rule_filter,
        source.rule_filter.find((f) => f.name === name),
      ),
    };
  return {
    ...target,
    rule_task: withItem(
      target.rule_task,
      source.rule_task.find((t) => t.name === name),
    ),
  };
}

/** The rule's values after its template's: every field it does not override takes the template's value. */
export function inheritedValues(
  template: RuleValues,
  rule: RuleValues,
  overrides: readonly TemplateField[],
): RuleValues {
  const kept = new Set(overrides);
  return TEMPLATE_FIELDS.reduce(
    (values, field) => (kept.has(field) ? values : withFieldFrom(values, template, field)),
    rule,
  );
}

/**
 * The overrides after a person saved the rule: those it had, and every field now differing from
 * the template (a change to an inherited field overrides it). A field set back to the template's
 * value stays overridden until it is reset: a person who chose 50 keeps 50 when the template moves.
 */
export const overridesAfterEdit = (
  template: RuleValues,
  after: RuleValues,
  before: readonly TemplateField[],
): TemplateField[] => {
  const kept = new Set([...before, ...differingFields(template, after)]);
  return TEMPLATE_FIELDS.filter((field) => kept.has(field));
};

/** A rule that does what the template does: the same task cards on and the same kind of action. */
export function looksLike(template: RuleValues, rule: RuleValues): boolean {
  const onTasks = (values: RuleValues) =>
    values.rule_task
      .filter((t) => t.is_active)
      .map((t) => t.name)
      .sort()
      .join(',');
  const actionKind = (values: RuleValues) =>
    values.action ? `${values.action.kind}:${(values.action as { level?: string }).level ?? ''}` : '';
  return onTasks(template) === onTasks(rule) && actionKind(template) === actionKind(rule);
}

const fieldSchema = z.string().refine(isTemplateField, 'Unknown field');

/** A folder that follows the template, through its rule. */
export interface TemplateFollower {
  folder: { id: number; name: string };
  account_name: string | null;
  rule: { id: number; name: string; is_active: boolean };
  overrides: TemplateField[];
  /** The signed-in person may edit rules in this folder. */
  editable: boolean;
}

/** A rule in a folder not linked to the template that does what it does. */
export interface TemplateLookalike {
  folder: { id: number; name: string };
  rule: { id: number; name: string };
  /** The fields that would become overrides on linking: the rule keeps its values. */
  differs: TemplateField[];
  editable: boolean;
}

/** `GET /api/templates/{id}/`. */
export interface TemplateDto {
  id: number;
  name: string;
  values: RuleValues;
  folders: TemplateFollower[];
  lookalikes: TemplateLookalike[];
  /** The signed-in person may edit the template: they may edit rules in every folder that follows it. */
  can_edit: boolean;
  /** Why not, in words (null when they may). */
  read_only_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** A row of `GET /api/templates/`. */
export interface TemplateListRow {
  id: number;
  name: string;
  folders: number;
  overriding_folders: number;
  updated_at: string;
}

const followerSchema = z.object({
  folder: z.object({ id: z.number().int(), name: z.string() }),
  account_name: z.string().nullable(),
  rule: z.object({ id: z.number().int(), name: z.string(), is_active: z.boolean() }),
  overrides: z.array(fieldSchema),
  editable: z.boolean(),
});

export const templateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  values: ruleValuesSchema,
  folders: z.array(followerSchema),
  lookalikes: z.array(
    z.object({
      folder: z.object({ id: z.number().int(), name: z.string() }),
      rule: z.object({ id: z.number().int(), name: z.string() }),
      differs: z.array(fieldSchema),
      editable: z.boolean(),
    }),
  ),
  can_edit: z.boolean(),
  read_only_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
}) as unknown as z.ZodType<TemplateDto>;

export const templateListRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  folders: z.number().int(),
  overriding_folders: z.number().int(),
  updated_at: z.string(),
}) satisfies z.ZodType<TemplateListRow>;

const totalsSchema = z.object({
  paused: z.number().int().describe('Objects it would have turned off'),
  revived: z.number().int().describe('Objects it would have turned back on'),
  changed: z.number().int().describe('Budget changes it would have made'),
  spend_stopped: z.number().describe('Spend the turn-offs would have stopped'),
  false_pauses: z.number().int().describe('Turn-offs that later data showed wrong'),
});

/** `POST /api/templates/{id}/preview/`: what an edit would change, and what the changed rules would have done. */
export const templatePreviewSchema = z.object({
  template_changes: z.string().describe("The edit in the log's words; empty when it changes nothing"),
  folders: z.number().int().describe('Folders whose rule the edit changes'),
  rules: z.number().int().describe('Rules the edit changes'),
  followers: z.number().int().describe('Rules that follow the template'),
  changes: z.array(
    z.object({
      folder: z.object({ id: z.number().int(), name: z.string() }),
      rule: z.object({ id: z.number().int(), name: z.string() }),
      fields: z.array(z.string()).describe('The fields the edit changes in this rule'),
      kept: z.array(z.string()).describe('Fields the edit touches that this folder overrides: they stay'),
    }),
  ),
  backtest: z.object({
    days: z.number().int(),
    from: z.string(),
    to: z.string(),
    seconds: z.number(),
    folders: z.array(
      z.object({
        folder_id: z.number().int(),
        folder_name: z.string(),
        account_name: z.string(),
        rules: z.number().int(),
        before: totalsSchema,
        after: totalsSchema,
        slots_without_data: z.number().int(),
      }),
    ),
    totals: z.object({ folders: z.number().int(), rules: z.number().int(), before: totalsSchema, after: totalsSchema }),
  }),
});

export type TemplatePreviewDto = z.infer<typeof templatePreviewSchema>;
export type PreviewTotals = z.infer<typeof totalsSchema>;
