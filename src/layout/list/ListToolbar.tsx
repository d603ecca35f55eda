/**
 * The toolbar of the Log and Activity lists: back, search, address-filter chips, trash link.
 * Use inside a ListBase.
 */
import { Box, Stack } from '@mui/material';
import { TrashLink } from '../TrashLink';
import { AddressFilterChips, type AddressFilter } from './addressFilters';
import { BackButton } from './BackButton';
import { ListSearchBox } from './ListSearchBox';

export function HistoryListToolbar({ addressFilters }: { addressFilters: readonly AddressFilter[] }) {
  return (
    <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap" sx={{ py: 1 }}>
      <BackButton />
      <ListSearchBox />
      <AddressFilterChips filters={addressFilters} />
      <Box sx={{ flexGrow: 1 }} />
      <TrashLink />
    </Stack>
  );
}
