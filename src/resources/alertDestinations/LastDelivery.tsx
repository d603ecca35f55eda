/**
 * An alert destination's last delivery as the destinations list and its edit screen show it: when,
 * what it was (a test, a digest, a held run…), the answer's code or that none came, its failures in
 * a row (in the error colour), and the problem when it did not get through.
 */
import { Chip, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatDateTime } from '../../layout/dateFormat';

export interface DeliveryRecord {
  id: number;
  name?: string;
  last_delivery_at?: string | null;
  last_delivery_source?: string | null;
  last_answer_code?: number | null;
  last_delivery_error?: string | null;
  consecutive_failures?: number | null;
}

export function LastDelivery({ record, detailed = false }: { record: DeliveryRecord; detailed?: boolean }) {
  const translate = useTranslate();
  if (!record.last_delivery_at)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('alerts.last_delivery.never')}
      </Typography>
    );
  const failures = record.consecutive_failures ?? 0;
  const source = record.last_delivery_source ?? '';
  const what = translate(`alerts.last_delivery.what.${source}`, { _: source.replaceAll('_', ' ') });
  const answer =
    record.last_answer_code === null || record.last_answer_code === undefined
      ? translate('alerts.last_delivery.no_answer')
      : translate('alerts.last_delivery.answered', { code: record.last_answer_code });
  return (
    <Stack spacing={0.5} alignItems="flex-start">
      <Typography variant="body2">
        {formatDateTime(record.last_delivery_at)} · {what} · {answer}
      </Typography>
      {failures > 0 ? (
        <Chip
          size="small"
          color="error"
          variant="outlined"
          label={translate('alerts.last_delivery.failures', { smart_count: failures })}
        />
      ) : null}
      {detailed && record.last_delivery_error ? (
        <Typography variant="body2" color="error.main" sx={{ overflowWrap: 'anywhere' }}>
          {translate('alerts.last_delivery.problem', { problem: record.last_delivery_error })}
        </Typography>
      ) : null}
    </Stack>
  );
}
