/**
 * The rule editor's judging settings: the text as typed, whether it moved from the stored settings
 * (only then is it sent with the rule), and its errors.
 */
import { useMemo, useState } from 'react';
import type { RuleDto } from '../../../shared/rules';
import { MESSAGES } from '../../../shared/validation';
import {
  judgingChanged,
  judgingDraftErrors,
  judgingDraftOf,
  type JudgingDraft,
  type JudgingErrors,
  type JudgingField,
} from '../../layout/rule-form/judging/judgingDraft';
import { fieldKeys, isTouched, onlyShown, type Touched } from './fieldTouch';

export function useJudgingEdit(stored: RuleDto, fieldsTouched: Touched, touchFields: (...keys: string[]) => void) {
  const [judging, setJudging] = useState<JudgingDraft>(() => judgingDraftOf(stored.judging));
  const [serverErrors, setServerErrors] = useState<JudgingErrors>({});
  const dirty = judgingChanged(stored.judging, judging);
  const liveErrors = useMemo(() => judgingDraftErrors(judging, MESSAGES.required), [judging]);
  // A window Meta removed is the stored rule's state, not a typing slip: it shows at once.
  const shown = (field: JudgingField) =>
    field === 'attribution_window' || isTouched(fieldsTouched, fieldKeys.judging(field));
  const errors = { ...onlyShown(liveErrors, shown), ...serverErrors };
  const edit = (next: Partial<JudgingDraft>, field?: JudgingField) => {
    if (field) {
      touchFields(fieldKeys.judging(field));
      setServerErrors(({ [field]: _edited, ...rest }) => rest);
    }
    setJudging((current) => ({ ...current, ...next }));
  };
  /** The settings as the server stored them. */
  const reset = (saved: RuleDto) => {
    setJudging(judgingDraftOf(saved.judging));
    setServerErrors({});
  };
  return { judging, dirty, liveErrors, errors, edit, setServerErrors, reset };
}
