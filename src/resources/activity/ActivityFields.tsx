/**
 * The Activity list's columns that are more than one plain value. Actions read as words ("turn off
 * ad", "Would turn off ad" with a Notify only chip, "Run held for approval"); the Ad ID with the ad's name.
 */
import { Chip, Stack, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { StackedText } from '../../layout/list';
import { ReasonList } from '../../layout/runs/ReasonList';
import { actionText, entryObjectName, isWouldTurnOff } from '../../layout/runs/activityEntries';
import type { ActivityEntry } from '../../../shared/ruleRuns';

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

/** A held run once decided reads as what it became, not as still waiting. */
const decidedHeldRun = (record: ActivityEntry) =>
  record.action === 'run_held' && (record.decision === 'approved' || record.decision === 'dismissed')
    ? record.decision
    : null;

export function ActionField(_props: ColumnProps) {
  const record = useRecordContext<ActivityEntry>();
  const translate = useTranslate();
  if (!record) return null;
  const decided = decidedHeldRun(record);
  const action = decided ? `run_held_${decided}` : record.action;
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <Typography variant="body2" color={record.action === 'error' ? 'error' : undefined}>
        {translate(`activity.actions.${action}`, { _: actionText(record.action) })}
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

/** The Ad ID column (docs/screens.md): the id, with the ad's (or campaign's) name beside it where the entry names it. */
export function AdIdField(_props: ColumnProps) {
  const record = useRecordContext<ActivityEntry>();
  if (!record?.ad_id) return null;
  return <StackedText primary={record.ad_id} secondary={entryObjectName(record)} minWidth={130} />;
}

export function ReasonField(_props: ColumnProps) {
  const record = useRecordContext<ActivityEntry>();
  const translate = useTranslate();
  const decided = record ? decidedHeldRun(record) : null;
  const reason = record?.reason;
  if (!decided || !(reason?.Planned || reason?.Budgets)) return <ReasonList reason={reason} />;
  const pending = /, waiting for approval$/;
  // Once decided, neither the planned turn-offs nor the budget changes are waiting any more.
  const decidedReason = { ...reason };
  if (reason.Planned)
    decidedReason.Planned = `${reason.Planned.replace(pending, '')}, ${translate(`activity.planned_decided.${decided}`)}`;
  if (reason.Budgets)
    decidedReason.Budgets = `${reason.Budgets.replace(pending, '')}, ${translate(`activity.budgets_decided.${decided}`)}`;
  return <ReasonList reason={decidedReason} />;
}
