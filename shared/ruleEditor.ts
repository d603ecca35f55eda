/**
 * The rule editor's behaviour of docs/screens.md#states-and-transitions as pure functions: name regeneration, spend copying,
 * change detection and the PATCH payload of only the changed parts.
 */
import {
  SHARED_SPEND_TASKS,
  type FilterItem,
  type RuleDto,
  type TaskItem,
  type TaskName,
  type TaskValueKey,
} from './rules';
import type { JudgingPatch } from './judging';
import type { RuleAction } from './ruleActions';
import type { ConditionGroup } from './ruleConditions';
import type { DaySchedule, WeekSchedule } from './schedule';

/**
 * docs/screens.md#states-and-transitions: the second item of the contains list plus ': ', then 'Pause ad CPL > $' and the
 * website CPL value and a space, then ' - {item}' for each item from the third on.
 * Without a second item the name starts at 'Pause'; the result is trimmed.
 */
export function generatedRuleName(contains: readonly string[], websiteCpl: string | undefined): string {
  const [, second, ...rest] = contains;
  const head = second ? `${second}: ` : '';
  return `${head}Pause ad CPL > $${websiteCpl ?? ''} ${rest.map((item) => ` - ${item}`).join('')}`.trim();
}

type NamedItems = { filters: readonly FilterItem[]; tasks: readonly TaskItem[] };

const containsOf = (filters: readonly FilterItem[]) =>
  filters.find((f) => f.name === 'campaign_name_contains')?.values ?? [];
const websiteCplOf = (tasks: readonly TaskItem[]) => tasks.find((t) => t.name === 'website_cpl')?.values.cpl ?? '';
/** A website CPL the name may show: empty (the name ends at '$') or a number above 0. */
const showableCpl = (cpl: string) => cpl.trim() === '' || (/^\d+(\.\d+)?$/.test(cpl.trim()) && Number(cpl) > 0);

/**
 * Whether a rule's name is the automatic one (so edits may regenerate it): a new rule's placeholder
 * ('New rule', 'New rule 2' …), an empty name, or what the generator makes of its items (a
 * duplicate's ' (copy)' aside). Any other name was typed by someone and is left alone.
 */
export function nameIsAutomatic(rule: NamedItems & { name: string }): boolean {
  const name = rule.name.trim().replace(/( \(copy\))+$/, '');
  return (
    name === '' ||
    /^New rule( \d+)?$/.test(name) ||
    name === generatedRuleName(containsOf(rule.filters), websiteCplOf(rule.tasks))
  );
}

/**
 * The name to show after an edit: regenerated when the contains list or website_cpl changed — but
 * only while the name is automatic (a typed name stays), and never from a website CPL that is not
 * a valid amount (the name keeps its last valid one).
 */
export function nameAfterEdit(previous: NamedItems & { name: string }, next: NamedItems, automatic = true): string {
  if (!automatic || !showableCpl(websiteCplOf(next.tasks))) return previous.name;
  const containsChanged = !sameList(containsOf(previous.filters), containsOf(next.filters));
  const cplChanged = websiteCplOf(previous.tasks) !== websiteCplOf(next.tasks);
  return containsChanged || cplChanged
    ? generatedRuleName(containsOf(next.filters), websiteCplOf(next.tasks).trim())
    : previous.name;
}

/** Sets one task value; a spend typed in any of the three shared-spend cards goes to all three. */
export function setTaskValue(tasks: readonly TaskItem[], name: TaskName, key: TaskValueKey, value: string): TaskItem[] {
  const shared = key === 'spend' && SHARED_SPEND_TASKS.includes(name);
  return tasks.map((task) =>
    task.name === name || (shared && SHARED_SPEND_TASKS.includes(task.name))
      ? { ...task, values: { ...task.values, [key]: value } }
      : task,
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

const clean = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());

function sameItem(a: FilterItem | TaskItem, b: FilterItem | TaskItem): boolean {
  if (a.is_active !== b.is_active) return false;
  if (Array.isArray(a.values) || Array.isArray(b.values)) {
    return Array.isArray(a.values) && Array.isArray(b.values) && sameList(a.values.map(clean), b.values.map(clean));
  }
  const keys = new Set([...Object.keys(a.values), ...Object.keys(b.values)]);
  return [...keys].every(
    (k) => clean((a.values as Record<string, unknown>)[k]) === clean((b.values as Record<string, unknown>)[k]),
  );
}

/** The items of `current` that differ from the loaded ones (matched by name). */
export function changedItems<T extends FilterItem | TaskItem>(loaded: readonly T[], current: readonly T[]): T[] {
  return current.filter((item) => {
    const before = loaded.find((l) => l.name === item.name);
    return !before || !sameItem(before, item);
  });
}

export interface EditorValues {
  name: string;
  filters: FilterItem[];
  tasks: TaskItem[];
  schedule: WeekSchedule;
  alertSchedule: DaySchedule;
  timezone: string;
}

/** Which of the schedules were edited at all (docs/screens.md#states-and-transitions: any edit to them counts as a change). */
export interface EditorTouched {
  schedule: boolean;
  alertSchedule: boolean;
  timezone: boolean;
}

export const untouched = (): EditorTouched => ({ schedule: false, alertSchedule: false, timezone: false });

export function editorValuesOf(rule: RuleDto): EditorValues {
  return {
    name: rule.name,
    filters: rule.rule_filter,
    tasks: rule.rule_task,
    schedule: rule.rule_schedule.schedule,
    alertSchedule: rule.rule_alert_schedule.schedule,
    timezone: rule.rule_schedule.timezone,
  };
}

/** docs/screens.md#states-and-transitions: filters and tasks compared with the loaded data; any schedule or time-zone edit; a rename. */
export function hasUnsavedChanges(loaded: EditorValues, current: EditorValues, touched: EditorTouched): boolean {
  return (
    touched.schedule ||
    touched.alertSchedule ||
    touched.timezone ||
    current.name.trim() !== loaded.name.trim() ||
    changedItems(loaded.filters, current.filters).length > 0 ||
    changedItems(loaded.tasks, current.tasks).length > 0
  );
}

export interface RulePatch {
  name?: string;
  rule_filter?: Pick<FilterItem, 'name' | 'values' | 'is_active'>[];
  rule_task?: Pick<TaskItem, 'name' | 'values' | 'is_active'>[];
  rule_schedule?: { schedule: WeekSchedule; timezone: string };
  rule_alert_schedule?: { schedule: DaySchedule };
  /** Only the editor's Active switch sends it, with the changes made so far. */
  is_active?: boolean;
  /** The judging settings, sent with the rest when they moved (the editor's one Save). */
  judging?: JudgingPatch;
  /** The Conditions card and its action, sent when they moved (null: none). */
  conditions?: ConditionGroup | null;
  action?: RuleAction | null;
}

/** `PATCH /api/rule/{id}/` of a save: changed items only, schedules when edited, the name when renamed. */
export function buildRulePatch(loaded: EditorValues, current: EditorValues, touched: EditorTouched): RulePatch {
  const patch: RulePatch = {};
  if (current.name.trim() !== loaded.name.trim()) patch.name = current.name.trim();
  const filters = changedItems(loaded.filters, current.filters);
  if (filters.length) patch.rule_filter = filters.map(({ name, values, is_active }) => ({ name, values, is_active }));
  const tasks = changedItems(loaded.tasks, current.tasks);
  if (tasks.length) patch.rule_task = tasks.map(({ name, values, is_active }) => ({ name, values, is_active }));
  if (touched.schedule || touched.timezone)
    patch.rule_schedule = { schedule: current.schedule, timezone: current.timezone };
  if (touched.alertSchedule) patch.rule_alert_schedule = { schedule: current.alertSchedule };
  return patch;
}
