/**
 * Send a test: posts a labelled test message to the destination now (its `test/` call, docs/api.md)
 * and says what happened beside the button — delivered with its answer code, or failed with the
 * code or the problem — then refreshes the page so the last delivery shows it. Only for those who may change the destinations (the server checks too).
 */
import SendIcon from '@mui/icons-material/Send';
import { Button, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useRefresh, useTranslate } from 'react-admin';
import type { AlertTestResult } from '../../../shared/alertTest';
import alertDestinations from '../../../shared/resources/alertDestinations';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpErrors';
import { usePermission } from '../../providers/usePermissions';

function resultText(result: AlertTestResult, translate: ReturnType<typeof useTranslate>): string {
  if (result.ok) return translate('alerts.test.ok', { code: result.status_code });
  const head =
    result.status_code === null
      ? translate('alerts.test.failed')
      : translate('alerts.test.failed_code', { code: result.status_code });
  return `${head} (${result.detail})`;
}

export function SendTestButton({ id, name }: { id: number; name: string }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const allowed = usePermission({ resource: alertDestinations.name, action: 'edit' });
  const send = useMutation({
    mutationFn: () => dataProvider.sendAlertTest(id),
    onSettled: () => refresh(),
  });
  if (!allowed) return null;
  const text = send.data ? resultText(send.data, translate) : send.error ? errorMessages(send.error).join(' ') : null;
  const failed = send.error || (send.data && !send.data.ok);
  return (
    // A row click opens the edit form: the button and its answer keep their clicks.
    <Stack spacing={0.5} alignItems="flex-start" onClick={(event) => event.stopPropagation()}>
      <Button
        size="small"
        variant="outlined"
        startIcon={<SendIcon />}
        loading={send.isPending}
        aria-label={translate('alerts.test.send_label', { name })}
        onClick={() => send.mutate()}
      >
        {translate('alerts.test.send')}
      </Button>
      <Typography
        role="status"
        variant="body2"
        color={failed ? 'error.main' : 'success.dark'}
        sx={{ overflowWrap: 'anywhere' }}
      >
        {text}
      </Typography>
    </Stack>
  );
}
