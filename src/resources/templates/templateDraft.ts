/**
 * The template editor's working copy: the rule's values as the shared editor parts hold them
 * (items and schedules as values, the conditions card and the judging card as their drafts), the
 * edit it asks the server to make (the whole rule: a template edit is previewed and saved as one),
 * whether it differs from what was loaded, and its errors. Pure.
 */
import { canonicalJson } from '../../../shared/templates';
import { validateRuleItems, type RuleValues } from '../../../shared/rules';
import {
  expressiveDraftOf,
  expressiveErrorsOf,
  expressivePayloadOf,
  type ExpressiveDraft,
  type FieldErrors,
} from '../../layout/rule-form/conditions/conditionDraft';
import {
  judgingDraftErrors,
  judgingDraftOf,
  judgingPatchOf,
  type JudgingDraft,
  type JudgingErrors,
} from '../../layout/rule-form/judging/judgingDraft';
import { editorErrorsOf, type EditorErrors } from '../../layout/rule-form/editorErrors';
import { MESSAGES } from '../../../shared/validation';

export interface TemplateDraft {
  values: RuleValues;
  expressive: ExpressiveDraft;
  judging: JudgingDraft;
}

export const templateDraftOf = (values: RuleValues): TemplateDraft => ({
  values,
  expressive: expressiveDraftOf(values.conditions, values.action),
  judging: judgingDraftOf(values.judging),
});

const withoutId = <T extends { id?: number }>({ id: _id, ...item }: T) => item;

/** The whole rule as the template's PATCH (and its preview) takes it. */
export function templatePatchOf(draft: TemplateDraft) {
  const { values } = draft;
  return {
    name: values.name,
    is_active: values.is_active,
    notify_only: values.notify_only,
    rule_filter: values.rule_filter.map(withoutId),
    rule_task: values.rule_task.map(withoutId),
    rule_schedule: values.rule_schedule,
    rule_alert_schedule: values.rule_alert_schedule,
    judging: judgingPatchOf(draft.judging),
    ...expressivePayloadOf(draft.expressive),
  };
}

export type TemplatePatch = ReturnType<typeof templatePatchOf>;

export const templateChanged = (loaded: TemplateDraft, draft: TemplateDraft) =>
  canonicalJson(templatePatchOf(loaded)) !== canonicalJson(templatePatchOf(draft));

export interface TemplateErrors {
  items: EditorErrors;
  expressive: FieldErrors;
  judging: JudgingErrors;
}

export function templateErrorsOf(draft: TemplateDraft): TemplateErrors {
  const { values } = draft;
  const payload = expressivePayloadOf(draft.expressive);
  const items = editorErrorsOf(
    validateRuleItems(values.rule_filter, values.rule_task, {
      active: values.is_active,
      acts: Boolean(payload.conditions && payload.action),
    }) ?? {},
  );
  if (!values.name.trim()) items.name = MESSAGES.required;
  return {
    items,
    expressive: expressiveErrorsOf(draft.expressive),
    judging: judgingDraftErrors(draft.judging, MESSAGES.required),
  };
}

export const hasTemplateErrors = (e: TemplateErrors) =>
  Boolean(
    e.items.name ||
      Object.keys(e.items.filters).length ||
      Object.keys(e.items.tasks).length ||
      e.items.tasksGeneral ||
      Object.keys(e.expressive).length ||
      Object.keys(e.judging).length,
  );
