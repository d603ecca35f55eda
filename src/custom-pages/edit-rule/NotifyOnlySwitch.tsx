/**
 * The rule's Notify only switch in the editor's header. It saves on its own (PATCH {notify_only}) at
 * once, as the general view's active switch does: Preview and Run now beside it act on the stored
 * rule, so the mode they show must be the one the server holds, not one waiting for Save.
 */
import { FormControlLabel, Switch, Tooltip } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpClient';
import { queryKeys } from '../../providers/queryKeys';
import { usePermission } from '../../providers/usePermissions';

export function NotifyOnlySwitch({ ruleId, initial }: { ruleId: number; initial: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const canChange = usePermission('create_update_rules');
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [notifyOnly, setNotifyOnly] = useState(initial);
  const save = useMutation({
    mutationFn: (next: boolean) => dataProvider.setRuleNotifyOnly(ruleId, next),
    onSuccess: (rule) => {
      setNotifyOnly(rule.notify_only);
      notify(translate(rule.notify_only ? 'rules.editor.notify_only_on' : 'rules.editor.notify_only_off'), {
        type: 'success',
        autoHideDuration: SNACKBAR_TIMEOUT_MS,
      });
      // The general view's rule row shows the mode.
      return queryClient.invalidateQueries({ queryKey: queryKeys.folders });
    },
    onError: (error, next) => {
      setNotifyOnly(!next);
      const text = errorMessages(error).join(' ');
      notify(text, { type: 'error', autoHideDuration: SNACKBAR_TIMEOUT_MS, messageArgs: { _: text } });
    },
  });
  return (
    <Tooltip describeChild title={translate('rules.editor.notify_only_help')}>
      <FormControlLabel
        sx={{ mr: 0, whiteSpace: 'nowrap' }}
        label={translate('rules.editor.notify_only')}
        control={
          <Switch
            checked={notifyOnly}
            disabled={!canChange || save.isPending}
            onChange={(event) => {
              // Shown at once, put back if the server refuses.
              setNotifyOnly(event.target.checked);
              save.mutate(event.target.checked);
            }}
          />
        }
      />
    </Tooltip>
  );
}
