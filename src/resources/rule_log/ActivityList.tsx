/**
 * Activity (/activity, SPEC §2): what the rules did and why. Search, chips from ?rule_id= /
 * ?folder_id= / ?ad_id=, multi-column sort, page sizes 10–100, Undo of a turn-off.
 */
import { Card } from '@mui/material';
import { Datagrid, ListBase, Pagination, TextField } from 'react-admin';
import { LOG_PAGE_SIZES } from '../../domain/constants';
import { PageTitle } from '../../layout/pageTitle';
import { DateTimeField, HistoryListToolbar, ListEmpty, MultiSortHeader, useAddressFilterValues, type AddressFilter } from '../../layout/list';
import { ActionField, ClientAccountField, ReasonField, RuleNameField } from './ActivityFields';
import { ActivityRowActions } from './ActivityRowActions';

export const ACTIVITY_ADDRESS_FILTERS: readonly AddressFilter[] = [
  { param: 'rule_id', label: 'resources.activity.chips.rule_id' },
  { param: 'folder_id', label: 'resources.activity.chips.folder_id' },
  { param: 'ad_id', label: 'resources.activity.chips.ad_id' },
];

export function ActivityList() {
  const addressFilter = useAddressFilterValues(ACTIVITY_ADDRESS_FILTERS);
  return (
    <ListBase
      resource="activity"
      filter={addressFilter}
      perPage={LOG_PAGE_SIZES[0]}
      sort={{ field: 'created_at', order: 'DESC' }}
      disableSyncWithLocation
    >
      <PageTitle title="app.page.activity" />
      <HistoryListToolbar addressFilters={ACTIVITY_ADDRESS_FILTERS} />
      <Card variant="outlined">
        <Datagrid
          header={MultiSortHeader}
          bulkActionButtons={false}
          rowClick={false}
          empty={<ListEmpty message="resources.activity.empty" filtered={Object.keys(addressFilter).length > 0} />}
        >
          <DateTimeField source="created_at" />
          <ClientAccountField source="client_account" />
          <ActionField source="action" />
          <RuleNameField source="rule" />
          <TextField source="ad_id" />
          <ReasonField source="reason" sortable={false} />
          <ActivityRowActions label="" sortable={false} />
        </Datagrid>
      </Card>
      <Pagination rowsPerPageOptions={[...LOG_PAGE_SIZES]} />
    </ListBase>
  );
}

export default ActivityList;
