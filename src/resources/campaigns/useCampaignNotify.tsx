/** The Campaigns screen's snackbar (docs/screens.md): 5 seconds, with a Close button. */
import { Button } from '@mui/material';
import { useCallback } from 'react';
import { useCloseNotification, useNotify, useTranslate } from 'react-admin';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';

function CloseButton() {
  const close = useCloseNotification();
  const translate = useTranslate();
  return (
    <Button color="inherit" size="small" onClick={close}>
      {translate('campaigns.snackbar.close')}
    </Button>
  );
}

export function useCampaignNotify() {
  const notify = useNotify();
  return useCallback(
    (message: string, type: 'success' | 'error' | 'info' = 'success') =>
      notify(message, {
        type,
        autoHideDuration: SNACKBAR_TIMEOUT_MS,
        action: <CloseButton />,
        messageArgs: { _: message },
      }),
    [notify],
  );
}
