/**
 * The destinations list's "Last delivery" column and the edit screen's panel: the last delivery
 * (LastDelivery.tsx) with Send a test under it (SendTestButton.tsx).
 */
import { Box, Divider, Stack, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { type DeliveryRecord, LastDelivery } from './LastDelivery';
import { SendTestButton } from './SendTestButton';

export function DeliveryCell({ record }: { record: DeliveryRecord }) {
  return (
    <Stack spacing={1} alignItems="flex-start">
      <LastDelivery record={record} />
      <SendTestButton id={record.id} name={record.name ?? String(record.id)} />
    </Stack>
  );
}

/** Under the edit form: the whole last delivery, its problem included, and Send a test. */
export function DeliveryPanel() {
  const translate = useTranslate();
  const record = useRecordContext<DeliveryRecord & { id: number }>();
  if (!record) return null;
  return (
    <Box component="section" aria-labelledby="last-delivery-title" sx={{ pb: 2 }}>
      <Divider />
      <Box sx={{ px: 2, pt: 2 }}>
        <Typography id="last-delivery-title" variant="subtitle1" component="h2" gutterBottom>
          {translate('alerts.last_delivery.title')}
        </Typography>
        <Stack spacing={1.5} alignItems="flex-start">
          <LastDelivery record={record} detailed />
          <SendTestButton id={record.id} name={record.name ?? String(record.id)} />
        </Stack>
      </Box>
    </Box>
  );
}
