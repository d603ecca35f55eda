/**
 * The rule editor's own values (name, filters, tasks, schedule, alert hours, time zone) against the
 * stored rule: their edits, which of them count as touched, and their errors (the editor's checks
 * where their field was touched, then the server's).
 */
import { useMemo, useState } from 'react';
import {
  editorValuesOf,
  nameAfterEdit,
  nameIsAutomatic,
  setTaskValue,
  untouched,
  type EditorTouched,
  type EditorValues,
} from '../../../shared/ruleEditor';
import { validateRuleItems, type FilterItem, type RuleDto, type TaskName } from '../../../shared/rules';
import { defaultAlertDay, defaultWeek } from '../../../shared/schedule';
import { MESSAGES } from '../../../shared/validation';
import { editorErrorsOf, mergeErrors, noErrors, type EditorErrors } from '../../layout/rule-form/editorErrors';
import { fieldKeys, visibleEditorErrors, type Touched } from './fieldTouch';

export function useRuleValues(stored: RuleDto, fieldsTouched: Touched, touchFields: (...keys: string[]) => void) {
  const loaded = useMemo(() => editorValuesOf(stored), [stored]);
  const [values, setValues] = useState<EditorValues>(loaded);
  // A name someone typed (here, or before: not the automatic one) is never regenerated.
  const [nameTyped, setNameTyped] = useState(() => !nameIsAutomatic(loaded));
  const [touched, setTouched] = useState<EditorTouched>(untouched);
  const [serverErrors, setServerErrors] = useState<EditorErrors>(noErrors);
  const liveErrors = useMemo(() => {
    const errors = editorErrorsOf(validateRuleItems(values.filters, values.tasks, { active: stored.is_active }) ?? {});
    if (!values.name.trim()) errors.name = MESSAGES.required;
    return errors;
  }, [values, stored.is_active]);
  const errors = mergeErrors(serverErrors, visibleEditorErrors(liveErrors, fieldsTouched));

  /** Filters and tasks change together with the regenerated name (docs/screens.md#states-and-transitions). */
  const editItems = (next: Pick<EditorValues, 'filters' | 'tasks'>) =>
    setValues((current) => ({ ...current, ...next, name: nameAfterEdit(current, next, !nameTyped) }));

  const clearServer = (part: { filter?: string; task?: string; name?: boolean }) =>
    setServerErrors((e) => {
      const next = { ...e, filters: { ...e.filters }, tasks: { ...e.tasks } };
      if (part.filter) delete next.filters[part.filter];
      if (part.task) {
        delete next.tasks[part.task];
        next.tasksGeneral = undefined;
      }
      if (part.name) next.name = undefined;
      return next;
    });

  const editName = (name: string) => {
    clearServer({ name: true });
    touchFields(fieldKeys.name);
    setNameTyped(true);
    setValues((v) => ({ ...v, name }));
  };
  const editFilter = (name: string, next: FilterItem) => {
    clearServer({ filter: name });
    touchFields(fieldKeys.filter(name));
    editItems({ filters: values.filters.map((f) => (f.name === name ? next : f)), tasks: values.tasks });
  };
  const toggleTask = (name: TaskName, active: boolean) => {
    clearServer({ task: name });
    touchFields(fieldKeys.task(name));
    editItems({
      filters: values.filters,
      tasks: values.tasks.map((t) => (t.name === name ? { ...t, is_active: active } : t)),
    });
  };
  const editTaskValue = (name: TaskName, key: Parameters<typeof setTaskValue>[2], value: string) => {
    clearServer({ task: name });
    touchFields(fieldKeys.taskValue(name, key));
    editItems({ filters: values.filters, tasks: setTaskValue(values.tasks, name, key, value) });
  };
  const editSchedule = (schedule: EditorValues['schedule']) => {
    setValues((v) => ({ ...v, schedule }));
    setTouched((t) => ({ ...t, schedule: true }));
  };
  const editAlerts = (alertSchedule: EditorValues['alertSchedule']) => {
    setValues((v) => ({ ...v, alertSchedule }));
    setTouched((t) => ({ ...t, alertSchedule: true }));
  };
  const editTimezone = (timezone: string) => {
    setValues((v) => ({ ...v, timezone }));
    setTouched((t) => ({ ...t, timezone: true }));
  };
  const fillDefault = () => {
    setValues((v) => ({ ...v, schedule: defaultWeek(), alertSchedule: defaultAlertDay() }));
    setTouched((t) => ({ ...t, schedule: true, alertSchedule: true }));
  };
  /** The values as the server stored them, nothing touched. */
  const reset = (saved: RuleDto) => {
    setValues(editorValuesOf(saved));
    setTouched(untouched);
    setServerErrors(noErrors());
  };

  return {
    loaded,
    values,
    touched,
    liveErrors,
    errors,
    setServerErrors,
    reset,
    editName,
    editFilter,
    toggleTask,
    editTaskValue,
    editSchedule,
    editAlerts,
    editTimezone,
    fillDefault,
  };
}
