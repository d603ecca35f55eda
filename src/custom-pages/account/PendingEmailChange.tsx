/**
 * The account's e-mail change waiting for confirmation, if any, with Withdraw: whoever did not ask
 * for it (or changed their mind) stops its link from working.
 */
import { Alert, Button } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpClient';
import { queryKeys } from '../../providers/queryKeys';

export function PendingEmailChange({ userId }: { userId: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const pending = useQuery({
    queryKey: queryKeys.pendingEmailChange(userId),
    queryFn: ({ signal }) => dataProvider.getPendingEmailChange(userId, signal),
    retry: false,
  });
  const withdraw = useMutation({
    mutationFn: () => dataProvider.withdrawEmailChange(userId),
    onSuccess: async () => {
      notify(translate('people.account.email_change_withdrawn'), {
        type: 'success',
        autoHideDuration: SNACKBAR_TIMEOUT_MS,
      });
      await queryClient.invalidateQueries({ queryKey: queryKeys.pendingEmailChange(userId) });
    },
    onError: (error) => {
      const text = errorMessages(error).join(' ');
      notify(text, { type: 'error', autoHideDuration: SNACKBAR_TIMEOUT_MS, messageArgs: { _: text } });
    },
  });

  if (!pending.data) return null;
  return (
    <Alert
      severity="warning"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" disabled={withdraw.isPending} onClick={() => withdraw.mutate()}>
          {translate('people.account.withdraw_email_change')}
        </Button>
      }
    >
      {translate('people.account.pending_email', {
        email: pending.data.new_email,
        by: pending.data.requested_by ?? translate('people.account.pending_email_by_unknown'),
      })}
    </Alert>
  );
}
