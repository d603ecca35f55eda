/**
 * The rule editor's Conditions card and its Action: the draft, compared with what was loaded as the
 * JSON Save would send, and its errors (a condition's or the Action's own once touched, then the
 * server's).
 */
import { useMemo, useState } from 'react';
import type { RuleDto } from '../../../shared/rules';
import { editedNodeKeys, nodeKeyAt } from '../../layout/rule-form/conditions/conditionTouch';
import {
  expressiveDraftOf,
  expressiveErrorsOf,
  expressivePayloadOf,
  type ExpressiveDraft,
  type FieldErrors,
} from '../../layout/rule-form/conditions/conditionDraft';
import type { RuleWithConditions } from '../../layout/rule-form/conditions/ruleWithConditions';
import { fieldKeys, isTouched, onlyShown, type Touched } from './fieldTouch';

export const withConditions = (rule: RuleDto) => rule as RuleWithConditions;

const draftOf = (rule: RuleDto) => expressiveDraftOf(withConditions(rule).conditions, withConditions(rule).action);

export function useConditionsDraft(stored: RuleDto, fieldsTouched: Touched, touchFields: (...keys: string[]) => void) {
  const loadedExpressive = useMemo(() => draftOf(stored), [stored]);
  const [expressive, setExpressive] = useState<ExpressiveDraft>(loadedExpressive);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const payload = expressivePayloadOf(expressive);
  const changed = JSON.stringify(payload) !== JSON.stringify(expressivePayloadOf(loadedExpressive));
  const liveErrors = useMemo(() => expressiveErrorsOf(expressive), [expressive]);
  const shown = (path: string) => {
    if (path.startsWith('action')) return isTouched(fieldsTouched, fieldKeys.action);
    const key = nodeKeyAt(expressive.group, path);
    return key === null || isTouched(fieldsTouched, fieldKeys.node(key));
  };
  const errors = { ...onlyShown(liveErrors, shown), ...serverErrors };
  const edit = (next: ExpressiveDraft) => {
    setServerErrors({});
    const edited = editedNodeKeys(expressive.group, next.group).map(fieldKeys.node);
    const actionEdited = JSON.stringify(next.action) !== JSON.stringify(expressive.action);
    touchFields(...edited, ...(actionEdited ? [fieldKeys.action] : []));
    setExpressive(next);
  };
  /** The draft as the server stored it. */
  const reset = (saved: RuleDto) => {
    setExpressive(draftOf(saved));
    setServerErrors({});
  };
  return { expressive, payload, changed, liveErrors, errors, edit, setServerErrors, reset };
}
