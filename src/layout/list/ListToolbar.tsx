/**
 * The toolbar of the Log and Activity lists: back, search, address-filter chips, trash link.
 * Use inside a ListBase.
 */
import { PageToolbar, ToolbarSpacer } from '../PageToolbar';
import { TrashLink } from '../TrashLink';
import { AddressFilterChips, type AddressFilter } from './addressFilters';
import { BackButton } from './BackButton';
import { ListSearchBox } from './ListSearchBox';

export function HistoryListToolbar({ addressFilters }: { addressFilters: readonly AddressFilter[] }) {
  return (
    <PageToolbar>
      <BackButton />
      <ListSearchBox />
      <AddressFilterChips filters={addressFilters} />
      <ToolbarSpacer />
      <TrashLink />
    </PageToolbar>
  );
}
