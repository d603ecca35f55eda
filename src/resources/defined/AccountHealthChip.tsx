import { Chip } from '@mui/material';
import { type RaRecord, useTranslate } from 'react-admin';

/** An ad account's health (the list's health field) in the health panel's words. */
export function AccountHealthChip({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const state = String(record.health ?? 'unchecked');
  const color = state === 'problem' ? 'error' : state === 'ok' ? 'success' : 'default';
  return (
    <Chip
      size="small"
      variant="outlined"
      color={color}
      label={translate(`judging.health.${state}`, { _: state })}
      data-health={state}
    />
  );
}
