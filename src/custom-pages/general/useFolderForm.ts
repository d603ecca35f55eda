/**
 * The folder dialog's form: the values as typed and which were touched, their own checks (shown
 * once touched) and the server's, the errors that concern no field, the folded Budget limits, and
 * the ad-account options. Each opening starts again from the folder.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { FolderDto } from '../../../shared/folders';
import { folderCreateSchema } from '../../../shared/folders';
import { toFieldErrors } from '../../../shared/validation';
import { errorMessages } from '../../providers/httpErrors';
import { limitsDraftOf, limitsErrorsOf, limitsOf, type LimitsDraft } from './BudgetLimitsSection';
import { fieldErrorsOf, payloadOf, storedLimitsOf, valuesOf, type FolderValues } from './folderValues';
import { useAdAccounts } from './useAdAccounts';

export function useFolderForm(open: boolean, folder: FolderDto | null) {
  const [values, setValues] = useState<FolderValues>(() => valuesOf(folder));
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const storedLimits = storedLimitsOf(folder);
  const [limits, setLimits] = useState<LimitsDraft>(() => limitsDraftOf(storedLimits));
  const [limitsOpen, setLimitsOpen] = useState(false);
  const [limitsServerErrors, setLimitsServerErrors] = useState<Record<string, string>>({});
  const limitsErrors = useMemo(
    () => ({ ...limitsErrorsOf(limits), ...limitsServerErrors }),
    [limits, limitsServerErrors],
  );
  const limitsChanged = JSON.stringify(limitsOf(limits)) !== JSON.stringify(limitsOf(limitsDraftOf(storedLimits)));
  const showOtherErrors = useCallback((error: unknown) => setOtherErrors(errorMessages(error)), []);
  // Before the opening's reset below, as its effect must run first.
  const adAccounts = useAdAccounts(open, showOtherErrors);

  useEffect(() => {
    if (!open) return;
    setValues(valuesOf(folder));
    setTouched({});
    setServerErrors({});
    setOtherErrors([]);
    setLimits(limitsDraftOf(storedLimitsOf(folder)));
    setLimitsOpen(false);
    setLimitsServerErrors({});
  }, [open, folder]);

  const checked = useMemo(() => {
    const result = folderCreateSchema.safeParse(payloadOf(values));
    return result.success ? {} : fieldErrorsOf(toFieldErrors(result.error));
  }, [values]);

  const errorOf = (field: keyof FolderValues) => serverErrors[field] ?? (touched[field] ? checked[field] : undefined);
  const change = (field: keyof FolderValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
    setServerErrors(({ [field]: _cleared, ...rest }) => rest);
  };
  const touchAll = () => setTouched(Object.fromEntries(Object.keys(values).map((k) => [k, true])));
  const editLimits = (next: LimitsDraft) => {
    setLimits(next);
    setLimitsServerErrors({});
  };

  return {
    values,
    checked,
    errorOf,
    change,
    touchAll,
    setServerErrors,
    otherErrors,
    setOtherErrors,
    limits,
    limitsErrors,
    limitsChanged,
    limitsOpen,
    setLimitsOpen,
    setLimitsServerErrors,
    editLimits,
    adAccounts,
  };
}

export type FolderForm = ReturnType<typeof useFolderForm>;
