/**
 * Which of the rule editor's errors show: a field's own check speaks once the field was touched
 * (changed or left), and every field's once the person reaches for a Save that its errors keep
 * off — never before anything was typed. The server's answers always show. Pure.
 */
import type { EditorErrors } from '../../layout/rule-form/editorErrors';

export interface Touched {
  /** Every error shows (the person reached for the blocked Save). */
  all: boolean;
  fields: ReadonlySet<string>;
}

export const noneTouched = (): Touched => ({ all: false, fields: new Set() });

export const touch = (touched: Touched, ...keys: string[]): Touched =>
  keys.every((key) => touched.fields.has(key))
    ? touched
    : { ...touched, fields: new Set([...touched.fields, ...keys]) };

export const isTouched = (touched: Touched, key: string) => touched.all || touched.fields.has(key);

/** The keys of the editor's fields. */
export const fieldKeys = {
  name: 'name',
  filter: (name: string) => `filter:${name}`,
  /** A task card's switch. */
  task: (name: string) => `task:${name}`,
  taskValue: (name: string, key: string) => `task:${name}.${key}`,
  judging: (field: string) => `judging:${field}`,
  /** A condition or group of the Conditions card, by its draft key. */
  node: (key: string) => `node:${key}`,
  action: 'action',
} as const;

/** The editor's own checks, only where their field was touched. */
export function visibleEditorErrors(live: EditorErrors, touched: Touched): EditorErrors {
  const tasks: EditorErrors['tasks'] = {};
  for (const [name, values] of Object.entries(live.tasks)) {
    const shown = Object.entries(values).filter(([key]) => isTouched(touched, fieldKeys.taskValue(name, key)));
    if (shown.length) tasks[name] = Object.fromEntries(shown);
  }
  const anyTask = touched.all || [...touched.fields].some((key) => key.startsWith('task:'));
  return {
    name: isTouched(touched, fieldKeys.name) ? live.name : undefined,
    filters: Object.fromEntries(
      Object.entries(live.filters).filter(([name]) => isTouched(touched, fieldKeys.filter(name))),
    ),
    tasks,
    tasksGeneral: anyTask ? live.tasksGeneral : undefined,
  };
}

/** `errors` keeping those whose key `shown` lets through. */
export function onlyShown<T extends object>(errors: T, shown: (key: keyof T & string) => boolean): T {
  return Object.fromEntries(Object.entries(errors).filter(([key]) => shown(key as keyof T & string))) as T;
}
