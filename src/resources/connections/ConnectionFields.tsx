/**
 * A connection's parts as the list and the show view display them: its name (Built-in for the
 * server's own token), business, expiry, permissions and status with what is wrong.
 */
import { Chip, Stack, Tooltip, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { MetaConnectionDto } from '../../../shared/metaConnections';
import { formatDayAt } from '../../layout/dateFormat';

const day = (iso: string) => formatDayAt(iso);

export function ConnectionName(_props: { label?: string }) {
  const translate = useTranslate();
  const record = useRecordContext<MetaConnectionDto>();
  if (!record) return null;
  return (
    <Stack direction="row" spacing={1} alignItems="center" useFlexGap sx={{ flexWrap: 'wrap' }}>
      <Typography variant="body2" component="span" sx={{ fontWeight: 500 }}>
        {record.name}
      </Typography>
      {record.source === 'environment' ? (
        <Tooltip title={translate('resources.meta_connections.built_in_hint')}>
          <Chip size="small" variant="outlined" label={translate('resources.meta_connections.built_in')} />
        </Tooltip>
      ) : null}
    </Stack>
  );
}

export function ConnectionBusiness(_props: { label?: string }) {
  const translate = useTranslate();
  const record = useRecordContext<MetaConnectionDto>();
  if (!record) return null;
  return (
    <Stack component="span">
      <Typography variant="body2" component="span">
        {record.business?.name ?? translate('resources.meta_connections.unknown')}
      </Typography>
      {record.system_user ? (
        <Typography variant="caption" component="span" color="text.secondary">
          {record.system_user.name}
        </Typography>
      ) : null}
    </Stack>
  );
}

export function ConnectionExpiry(_props: { label?: string }) {
  const translate = useTranslate();
  const record = useRecordContext<MetaConnectionDto>();
  if (!record) return null;
  const text = record.expires_at
    ? day(record.expires_at)
    : record.checked_at
      ? translate('resources.meta_connections.never')
      : translate('resources.meta_connections.unknown');
  return (
    <Typography variant="body2" component="span" sx={{ whiteSpace: 'nowrap' }}>
      {text}
    </Typography>
  );
}

export function ConnectionScopes(_props: { label?: string }) {
  const translate = useTranslate();
  const record = useRecordContext<MetaConnectionDto>();
  if (!record) return null;
  if (!record.scopes.length) return <>{translate('resources.meta_connections.unknown')}</>;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {record.scopes.map((scope) => (
        <Chip key={scope} size="small" label={scope} />
      ))}
    </Stack>
  );
}

const STATUS_COLORS = { ok: 'success', warning: 'warning', problem: 'error', unchecked: 'default' } as const;

/** The token's status; what is wrong shows on hover and, for a screen reader, in the chip's name. */
export function ConnectionStatus(_props: { label?: string }) {
  const translate = useTranslate();
  const record = useRecordContext<MetaConnectionDto>();
  if (!record) return null;
  const label = translate(`resources.meta_connections.status.${record.status}`);
  const why = record.problems.map((p) => p.detail).join('; ');
  const chip = (
    <Chip
      size="small"
      color={STATUS_COLORS[record.status]}
      label={label}
      aria-label={why ? `${label}: ${why}` : label}
    />
  );
  return why ? <Tooltip title={why}>{chip}</Tooltip> : chip;
}
