/**
 * The search box of the General view, the Trash, the Log and Activity: it reports the trimmed text
 * the 500 ms of docs/contract.md#constants after typing stops, and only when it differs from the search in force.
 */
import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../shared/constants';

export interface SearchBoxProps {
  /** The search in force (what the list shows). */
  value: string;
  /** Called with the new search once typing has stopped. */
  onSearch: (text: string) => void;
  /** Placeholder and accessible name. */
  label: string;
}

export function SearchBox({ value, onSearch, label }: SearchBoxProps) {
  const [text, setText] = useState(value);
  const latest = useRef({ value, onSearch });
  latest.current = { value, onSearch };

  useEffect(() => {
    if (text.trim() === latest.current.value) return undefined;
    const timer = setTimeout(() => latest.current.onSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <TextField
      size="small"
      type="search"
      variant="outlined"
      margin="none"
      fullWidth={false}
      sx={{ width: 360, maxWidth: '100%' }}
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
