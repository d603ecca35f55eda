/**
 * The Activity list's columns that are more than one plain value. Actions read as words ("turn off
 * ad", "Would turn off ad" with a Notify only chip, "Run held for approval").
 */
import { Chip, Stack, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { StackedText } from '../../layout/list';
import { ReasonList } from './ReasonList';
import { actionText, isWouldTurnOff, type ActivityEntry } from './types';

interface ColumnProps {
  label?: string;
  source?: string;
  sortBy?: string;
  sortable?: boolean;
}

export function ClientAccountField(_props: ColumnProps) {
  const record = useRecordContext<ActivityEntry>();
  const folder = record?.rule?.folder;
  if (!folder) return null;
  return <StackedText primary={folder.name} secondary={folder.meta_ad_account.account_name} minWidth={150} />;
}

export function ActionField(_props: ColumnProps) {
  const record = useRecordContext<ActivityEntry>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <Typography variant="body2" color={record.action === 'error' ? 'error' : undefined}>
        {translate(`activity.actions.${record.action}`, { _: actionText(record.action) })}
      </Typography>
      {record.undone_at ? <Chip size="small" variant="outlined" label={translate('activity.undone')} /> : null}
      {isWouldTurnOff(record.action) ? (
        <Chip size="small" color="info" variant="outlined" label={translate('activity.notify_only')} />
      ) : null}
    </Stack>
  );
}

export function RuleNameField(_props: ColumnProps) {
  const record = useRecordContext<ActivityEntry>();
  return record?.rule ? <Typography variant="body2">{record.rule.name}</Typography> : null;
}

export function ReasonField(_props: ColumnProps) {
  const record = useRecordContext<ActivityEntry>();
  return <ReasonList reason={record?.reason} />;
}
