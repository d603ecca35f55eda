/**
 * Log (/log, docs/screens.md): who changed what. Search, chips from ?rule_id= / ?folder_id=,
 * multi-column sort, page sizes 10–100.
 */
import { TextField, useRecordContext } from 'react-admin';
import { DateTimeField, HistoryList, StackedText, type AddressFilter } from '../../layout/list';
import type { LogEntryDto } from '../../../shared/contracts';

export const LOG_ADDRESS_FILTERS: readonly AddressFilter[] = [
  { param: 'rule_id', label: 'resources.log.chips.rule_id' },
  { param: 'folder_id', label: 'resources.log.chips.folder_id' },
];

export type LogEntry = LogEntryDto;

function ClientAccountField(_props: { label?: string; source?: string; sortBy?: string }) {
  const record = useRecordContext<LogEntry>();
  if (!record) return null;
  return <StackedText primary={record.folder_name} secondary={record.meta_ad_account_name} minWidth={150} />;
}

function ActionField(_props: { label?: string; source?: string }) {
  const record = useRecordContext<LogEntry>();
  if (!record) return null;
  return <StackedText primary={record.action} secondary={record.changes_text} />;
}

export function LogList() {
  return (
    <HistoryList
      resource="log"
      title="app.page.log"
      addressFilters={LOG_ADDRESS_FILTERS}
      dateField="timestamp"
      emptyMessage="resources.log.empty"
    >
      <DateTimeField source="timestamp" />
      <TextField source="actor" />
      <ClientAccountField source="ad_account" />
      <ActionField source="action" />
      <TextField source="rule_name" />
    </HistoryList>
  );
}

export default LogList;
