export { AddressFilterChips, useAddressFilterValues, type AddressFilter } from './addressFilters';
export { BackButton } from './BackButton';
export { DateTimeField, StackedDateTime } from './DateTimeField';
export { StackedText } from './StackedText';
export { ListEmpty } from './ListEmpty';
export { ListSearchBox } from './ListSearchBox';
export { HistoryListToolbar } from './ListToolbar';
export { MultiSortHeader } from './MultiSortHeader';
export { formatSort, parseSort, toggleSort, type SortTerm } from './multiSort';
