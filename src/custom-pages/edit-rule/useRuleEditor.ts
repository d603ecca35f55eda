/**
 * The rule editor's one form: the stored rule, its values, Conditions card and Action, and judging
 * settings as edited, which fields were touched, whether anything is unsaved or invalid, and the
 * save flow that sends only what changed.
 */
import { useRef, useState } from 'react';
import { buildRulePatch, hasUnsavedChanges, type RulePatch } from '../../../shared/ruleEditor';
import type { RuleDto } from '../../../shared/rules';
import { editorErrorsOf, hasErrors } from '../../layout/rule-form/editorErrors';
import { expressiveServerErrorsOf } from '../../layout/rule-form/conditions/conditionDraft';
import { judgingPatchOf, judgingServerErrorsOf } from '../../layout/rule-form/judging/judgingDraft';
import { usePermission } from '../../providers/usePermissions';
import { noneTouched, touch, type Touched } from './fieldTouch';
import { useConditionsDraft } from './useConditionsDraft';
import { useJudgingEdit } from './useJudgingEdit';
import { useRuleSave } from './useRuleSave';
import { useRuleValues } from './useRuleValues';

export function useRuleEditor(rule: RuleDto) {
  const canChange = usePermission('create_update_rules');
  // What the server holds: the rule as loaded, then as the Active switch last saved it.
  const [stored, setStored] = useState<RuleDto>(rule);
  // Which fields' own errors may show (changed or left, or all once Save is reached for).
  const [fieldsTouched, setFieldsTouched] = useState<Touched>(noneTouched);
  const touchFields = (...keys: string[]) => setFieldsTouched((t) => touch(t, ...keys));
  const revealErrors = () => setFieldsTouched((t) => (t.all ? t : { ...t, all: true }));
  const items = useRuleValues(stored, fieldsTouched, touchFields);
  const conditions = useConditionsDraft(stored, fieldsTouched, touchFields);
  const judging = useJudgingEdit(stored, fieldsTouched, touchFields);

  const patchOf = (): RulePatch => ({
    ...buildRulePatch(items.loaded, items.values, items.touched),
    ...(conditions.changed ? conditions.payload : {}),
    ...(judging.dirty ? { judging: judgingPatchOf(judging.judging) } : {}),
  });
  const { errorList, saving, saved, save, switchActive } = useRuleSave({
    ruleId: rule.id,
    patchOf,
    onStored: (next) => {
      setStored(next);
      items.reset(next);
      conditions.reset(next);
      judging.reset(next);
      setFieldsTouched(noneTouched());
    },
    onServerErrors: (body) => {
      items.setServerErrors(editorErrorsOf(body));
      conditions.setServerErrors(expressiveServerErrorsOf(body));
      judging.setServerErrors(judgingServerErrorsOf(body));
    },
  });

  const dirty = hasUnsavedChanges(items.loaded, items.values, items.touched) || conditions.changed || judging.dirty;
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  // Judging that did not move is not sent, so its state (a window Meta removed) does not hold the rest back.
  const invalid =
    hasErrors(items.liveErrors) ||
    Object.keys(conditions.liveErrors).length > 0 ||
    (judging.dirty && Object.keys(judging.liveErrors).length > 0);

  return {
    canChange,
    stored,
    items,
    conditions,
    judging,
    touchFields,
    revealErrors,
    errorList,
    saving,
    save,
    switchActive,
    canSave: dirty && !invalid && !saving && canChange,
    /** Changes are waiting on fields with errors. */
    blocked: dirty && invalid && !saving,
    /** The Leave guard's question: are there changes a Save has not sent? */
    shouldBlockLeave: () => dirtyRef.current && !saved.current,
  };
}

export type RuleEditorState = ReturnType<typeof useRuleEditor>;
