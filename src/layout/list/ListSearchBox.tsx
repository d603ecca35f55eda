/** The list search box: sets the `q` filter (sent as `search`) 500 ms after typing stops, back on page 1. */
import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useListContext, useTranslate } from 'react-admin';
import { SEARCH_DEBOUNCE_MS } from '../../domain/constants';

export function ListSearchBox({ placeholder }: { placeholder?: string }) {
  const translate = useTranslate();
  const { filterValues, displayedFilters, setFilters } = useListContext();
  const [text, setText] = useState<string>(String(filterValues.q ?? ''));
  const latest = useRef({ filterValues, displayedFilters, setFilters });
  latest.current = { filterValues, displayedFilters, setFilters };

  useEffect(() => {
    if (text === String(latest.current.filterValues.q ?? '')) return undefined;
    const timer = setTimeout(() => {
      const { filterValues: current, displayedFilters: shown, setFilters: set } = latest.current;
      const { q: _previous, ...rest } = current;
      // setFilters goes back to page 1; its own debounce is off because this one already waited.
      set(text ? { ...rest, q: text } : rest, shown, false);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const label = placeholder ?? translate('app.list.search');
  return (
    <TextField
      size="small"
      type="search"
      variant="outlined"
      fullWidth={false}
      sx={{ width: 320, maxWidth: '100%' }}
      value={text}
      onChange={(event) => setText(event.target.value)}
      placeholder={label}
      slotProps={{
        htmlInput: { 'aria-label': label },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
