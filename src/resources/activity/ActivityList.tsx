/**
 * Activity (/activity, docs/screens.md): what the rules did and why. Search, chips from ?rule_id= /
 * ?folder_id= / ?ad_id=, multi-column sort, page sizes 10–100, Undo of a turn-off.
 */
import { DateTimeField, HistoryList, type AddressFilter } from '../../layout/list';
import { ActionField, AdIdField, ClientAccountField, ReasonField, RuleNameField } from './ActivityFields';
import { ActivityRowActions } from './ActivityRowActions';

export const ACTIVITY_ADDRESS_FILTERS: readonly AddressFilter[] = [
  { param: 'rule_id', label: 'resources.activity.chips.rule_id' },
  { param: 'folder_id', label: 'resources.activity.chips.folder_id' },
  { param: 'ad_id', label: 'resources.activity.chips.ad_id' },
];

export function ActivityList() {
  return (
    <HistoryList
      resource="activity"
      title="app.page.activity"
      addressFilters={ACTIVITY_ADDRESS_FILTERS}
      dateField="created_at"
      emptyMessage="resources.activity.empty"
    >
      <DateTimeField source="created_at" />
      <ClientAccountField source="client_account" />
      <ActionField source="action" />
      <RuleNameField source="rule" />
      <AdIdField source="ad_id" />
      <ReasonField source="reason" sortable={false} />
      <ActivityRowActions label="" sortable={false} />
    </HistoryList>
  );
}

export default ActivityList;
