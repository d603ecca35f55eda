/**
 * The rule editor's save flow: Save sends the patch and goes to '/'; the Active switch sends the
 * patch with the new state in one PATCH and stays, the editor then holding what the server stored.
 * A refusal (say, no task is on) shows the server's reasons on the fields they concern. A saved rule
 * changes its folder's row (name, counts): the folder lists load again when shown.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import type { RulePatch } from '../../../shared/ruleEditor';
import type { RuleDto } from '../../../shared/rules';
import { useErrorList } from '../../layout/ErrorList';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';

export function useRuleSave({
  ruleId,
  patchOf,
  onStored,
  onServerErrors,
}: {
  ruleId: RuleDto['id'];
  patchOf: () => RulePatch;
  /** The rule as the Active switch's save stored it. */
  onStored: (saved: RuleDto) => void;
  /** The body of a refusal. */
  onServerErrors: (body: Record<string, unknown> | undefined) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const { errors: errorList, showError, clearErrors } = useErrorList();
  const saveRule = useMutation({
    mutationFn: (patch: RulePatch) => dataProvider.saveRule(ruleId, patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.folders }),
  });
  const saved = useRef(false);

  const showServerErrors = (error: unknown) => {
    onServerErrors((error as { body?: Record<string, unknown> }).body);
    showError(error);
  };

  const switchActive = async (active: boolean) => {
    clearErrors();
    try {
      onStored(await saveRule.mutateAsync({ ...patchOf(), is_active: active }));
      notify(translate(active ? 'rules.editor.activated' : 'rules.editor.deactivated'), {
        type: 'success',
        autoHideDuration: SNACKBAR_TIMEOUT_MS,
      });
    } catch (error) {
      showServerErrors(error);
    }
  };

  const save = async () => {
    clearErrors();
    try {
      await saveRule.mutateAsync(patchOf());
      saved.current = true;
      notify(translate('rules.editor.saved'), { type: 'success', autoHideDuration: SNACKBAR_TIMEOUT_MS });
      navigate('/');
    } catch (error) {
      showServerErrors(error);
    }
  };

  return { errorList, saving: saveRule.isPending, saved, save, switchActive };
}
