/**
 * The folder dialog's Create / Update: every field counts as touched, a missing or wrong field (or
 * budget limit, whose fold then opens) blocks the call; otherwise POST general_page or PATCH the
 * folder, with `budget_limits` only when they changed. A refusal's reasons show under their fields.
 */
import { useMutation } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { BudgetLimits } from '../../../shared/budgetLimits';
import type { FolderDto, FolderPayload } from '../../../shared/folders';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpErrors';
import { limitsErrorsOf, limitsOf, limitsServerErrorsOf } from './BudgetLimitsSection';
import { fieldErrorsOf, payloadOf } from './folderValues';
import type { FolderForm } from './useFolderForm';

export function useFolderSubmit(folder: FolderDto | null, form: FolderForm, onSaved: (folder: FolderDto) => void) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const save = useMutation({
    mutationFn: async (payload: FolderPayload & { budget_limits?: Partial<BudgetLimits> }): Promise<FolderDto> =>
      folder
        ? dataProvider.updateFolder(folder.id, payload)
        : (await dataProvider.create('general_page', { data: payload })).data,
  });

  const submit = async () => {
    const { values, limits } = form;
    form.touchAll();
    if (Object.keys(limitsErrorsOf(limits)).length) form.setLimitsOpen(true);
    if (Object.keys(form.checked).length || Object.keys(limitsErrorsOf(limits)).length) return;
    form.setOtherErrors([]);
    try {
      const payload = payloadOf(values);
      if (folder?.alert_emails?.length && !payload.alert_emails) payload.alert_emails = [];
      onSaved(await save.mutateAsync(form.limitsChanged ? { ...payload, budget_limits: limitsOf(limits) } : payload));
    } catch (error) {
      const body = (error as { body?: Record<string, unknown> }).body;
      const fields = body ? fieldErrorsOf(body) : {};
      form.setServerErrors(fields);
      const limitFields = limitsServerErrorsOf(body);
      form.setLimitsServerErrors(limitFields);
      if (Object.keys(limitFields).length) form.setLimitsOpen(true);
      form.setOtherErrors(errorMessages(error));
    }
  };

  return { submit, saving: save.isPending };
}
