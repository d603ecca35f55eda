/**
 * Log (/log, SPEC §2): who changed what. Search, chips from ?rule_id= / ?folder_id=,
 * multi-column sort, page sizes 10–100.
 */
import { Box, Card, Typography } from '@mui/material';
import { Datagrid, DateField, ListBase, Pagination, TextField, useRecordContext } from 'react-admin';
import { LOG_PAGE_SIZES } from '../../domain/constants';
import { PageTitle } from '../../layout/pageTitle';
import { HistoryListToolbar, MultiSortHeader, useAddressFilterValues, type AddressFilter } from '../../layout/list';
import type { LogEntryDto } from '../../domain/contracts';

export const LOG_ADDRESS_FILTERS: readonly AddressFilter[] = [
  { param: 'rule_id', label: 'resources.log.chips.rule_id' },
  { param: 'folder_id', label: 'resources.log.chips.folder_id' },
];

export type LogEntry = LogEntryDto;

function ClientAccountField(_props: { label?: string; source?: string; sortBy?: string }) {
  const record = useRecordContext<LogEntry>();
  if (!record) return null;
  return (
    <Box>
      <Typography variant="body2">{record.folder_name}</Typography>
      <Typography variant="caption" color="text.secondary">
        {record.meta_ad_account_name}
      </Typography>
    </Box>
  );
}

function ActionField(_props: { label?: string; source?: string }) {
  const record = useRecordContext<LogEntry>();
  if (!record) return null;
  return (
    <Box>
      <Typography variant="body2">{record.action}</Typography>
      {record.changes_text ? (
        <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'pre-line' }}>
          {record.changes_text}
        </Typography>
      ) : null}
    </Box>
  );
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
        <Datagrid header={MultiSortHeader} bulkActionButtons={false} rowClick={false}>
          <DateField source="timestamp" showTime />
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
