/**
 * The frame the Log and the Activity share (docs/screens.md): filters from the address as chips, search,
 * multi-column sort newest first, page sizes 10–100 ("1-10 of 10,000+" past the server's count cap),
 * and an empty state that says why.
 */
import { Card, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import { Datagrid, ListBase } from 'react-admin';
import { LOG_PAGE_SIZES } from '../../../shared/constants';
import { PageTitle } from '../pageTitle';
import { CappedPagination } from './CappedPagination';
import { useAddressFilterValues, type AddressFilter } from './addressFilters';
import { ListEmpty } from './ListEmpty';
import { ListErrors, listErrorsQueryOptions, UnlessListFailed } from './ListErrors';
import { HistoryListToolbar } from './ListToolbar';
import { MultiSortHeader } from './MultiSortHeader';

/**
 * On a phone each row is a card of its cells, one under the other (the column headings are left
 * out; a cell with a `data-label` shows it above its value, for cells that need their heading to be
 * understood); wider, the table scrolls inside its card rather than widening the page.
 */
export const tableToCardsSx = (theme: Theme) => ({
  overflowX: 'auto',
  [theme.breakpoints.down('sm')]: {
    '& table, & tbody, & tr, & td': { display: 'block', width: '100%' },
    '& thead': { display: 'none' },
    '& tbody tr': { borderBottom: `1px solid ${theme.palette.divider}`, py: 1 },
    '& tbody td': { border: 0, py: 0.25, px: 1.5, height: 'auto', textAlign: 'left', whiteSpace: 'normal' },
    '& tbody td[data-label]::before': {
      content: 'attr(data-label)',
      display: 'block',
      ...theme.typography.caption,
      color: theme.palette.text.secondary,
    },
  },
});

export interface HistoryListProps {
  resource: string;
  title: string;
  addressFilters: readonly AddressFilter[];
  /** The date column the list starts sorted by, newest first. */
  dateField: string;
  emptyMessage: string;
  /** The Datagrid's columns. */
  children: ReactNode;
}

export function HistoryList({ resource, title, addressFilters, dateField, emptyMessage, children }: HistoryListProps) {
  const addressFilter = useAddressFilterValues(addressFilters);
  return (
    <ListBase
      resource={resource}
      filter={addressFilter}
      perPage={LOG_PAGE_SIZES[0]}
      sort={{ field: dateField, order: 'DESC' }}
      queryOptions={listErrorsQueryOptions}
      disableSyncWithLocation
    >
      <PageTitle title={title} />
      <HistoryListToolbar addressFilters={addressFilters} />
      <ListErrors />
      <UnlessListFailed>
        <Card variant="outlined" sx={tableToCardsSx}>
          <Datagrid
            header={MultiSortHeader}
            bulkActionButtons={false}
            rowClick={false}
            empty={<ListEmpty message={emptyMessage} filtered={Object.keys(addressFilter).length > 0} />}
          >
            {children}
          </Datagrid>
        </Card>
        <CappedPagination rowsPerPageOptions={[...LOG_PAGE_SIZES]} />
      </UnlessListFailed>
    </ListBase>
  );
}
