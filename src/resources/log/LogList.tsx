/**
 * Log (/log, SPEC §2): who changed what. Search, chips from ?rule_id= / ?folder_id=,
 * multi-column sort, page sizes 10–100.
 */
import { Card } from '@mui/material';
import { Datagrid, ListBase, Pagination, TextField, useRecordContext } from 'react-admin';
import { LOG_PAGE_SIZES } from '../../domain/constants';
import { PageTitle } from '../../layout/pageTitle';
import { DateTimeField, HistoryListToolbar, ListEmpty, MultiSortHeader, StackedText, useAddressFilterValues, type AddressFilter } from '../../layout/list';
import type { LogEntryDto } from '../../domain/contracts';

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
  const addressFilter = useAddressFilterValues(LOG_ADDRESS_FILTERS);
  return (
    <ListBase
      resource="log"
      filter={addressFilter}
      perPage={LOG_PAGE_SIZES[0]}
      sort={{ field: 'timestamp', order: 'DESC' }}
      disableSyncWithLocation
    >
      <PageTitle title="app.page.log" />
      <HistoryListToolbar addressFilters={LOG_ADDRESS_FILTERS} />
      <Card variant="outlined">
        <Datagrid
          header={MultiSortHeader}
          bulkActionButtons={false}
          rowClick={false}
          empty={<ListEmpty message="resources.log.empty" filtered={Object.keys(addressFilter).length > 0} />}
        >
          <DateTimeField source="timestamp" />
          <TextField source="actor" />
          <ClientAccountField source="ad_account" />
          <ActionField source="action" />
          <TextField source="rule_name" />
        </Datagrid>
      </Card>
      <Pagination rowsPerPageOptions={[...LOG_PAGE_SIZES]} />
    </ListBase>
  );
}

export default LogList;
