/** Errors of the rule editor by field: from the shared validation while typing, and from a 400 on save. */
import type { RuleItemErrors } from '../../../shared/rules';

export interface EditorErrors {
  name?: string;
  filters: Record<string, string>;
  tasks: Record<string, Record<string, string>>;
  tasksGeneral?: string;
}

export const noErrors = (): EditorErrors => ({ filters: {}, tasks: {} });

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (Array.isArray(v) ? v.map(String).join(' ') : v == null ? '' : String(v));

/** `{rule_filter: {name: [..]}, rule_task: {name: {key: [..]}, non_field_errors: [..]}, name: [..]}` → fields. */
export function editorErrorsOf(body: RuleItemErrors | Record<string, unknown> | null | undefined): EditorErrors {
  const errors = noErrors();
  if (!isRecord(body)) return errors;
  if (body.name) errors.name = text(body.name);
  if (isRecord(body.rule_filter)) {
    for (const [name, value] of Object.entries(body.rule_filter))
      if (name !== 'non_field_errors') errors.filters[name] = text(value);
  }
  if (isRecord(body.rule_task)) {
    for (const [name, value] of Object.entries(body.rule_task)) {
      if (name === 'non_field_errors') errors.tasksGeneral = text(value);
      else if (isRecord(value)) {
        errors.tasks[name] = Object.fromEntries(Object.entries(value).map(([key, v]) => [key, text(v)]));
      }
    }
  }
  return errors;
}

/** Server errors stay until their field is edited; the live checks fill the gaps. */
export function mergeErrors(server: EditorErrors, live: EditorErrors): EditorErrors {
  const tasks: Record<string, Record<string, string>> = { ...live.tasks };
  for (const [name, values] of Object.entries(server.tasks)) tasks[name] = { ...tasks[name], ...values };
  return {
    name: server.name ?? live.name,
    filters: { ...live.filters, ...server.filters },
    tasks,
    tasksGeneral: server.tasksGeneral ?? live.tasksGeneral,
  };
}

export const hasErrors = (e: EditorErrors) =>
  Boolean(
    e.name ||
      e.tasksGeneral ||
      Object.keys(e.filters).length ||
      Object.values(e.tasks).some((t) => Object.keys(t).length),
  );
