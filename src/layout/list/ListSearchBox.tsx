/** The list search box: sets the `q` filter (sent as `search`) after typing stops, back on page 1. */
import { useListContext, useTranslate } from 'react-admin';
import { SearchBox } from '../SearchBox';

export function ListSearchBox({ placeholder }: { placeholder?: string }) {
  const translate = useTranslate();
  const { filterValues, displayedFilters, setFilters } = useListContext();
  const search = (text: string) => {
    const { q: _previous, ...rest } = filterValues;
    // setFilters goes back to page 1; its own debounce is off because the box already waited.
    setFilters(text ? { ...rest, q: text } : rest, displayedFilters, false);
  };
  return (
    <SearchBox
      value={String(filterValues.q ?? '')}
      onSearch={search}
      label={placeholder ?? translate('app.list.search')}
    />
  );
}
