export { AddressFilterChips, useAddressFilterValues, type AddressFilter } from './addressFilters';
export { BackButton } from './BackButton';
export { ListSearchBox } from './ListSearchBox';
export { HistoryListToolbar } from './ListToolbar';
export { MultiSortHeader } from './MultiSortHeader';
export { formatSort, parseSort, toggleSort, type SortTerm } from './multiSort';
