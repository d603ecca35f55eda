/**
 * Filters taken from the address query (?rule_id=5&folder_id=2), shown as removable chips.
 * Removing a chip removes its parameter from the address (docs/screens.md, Log and Activity).
 */
import { Chip, Stack } from '@mui/material';
import { useMemo } from 'react';
import { useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';

export interface AddressFilter {
  /** The query parameter in the address, which is also the react-admin filter name. */
  param: string;
  /** Message key of the chip label, with %{id}. */
  label: string;
}

/** `{rule_id: ['5']}` for each address filter present; lists so repeated parameters all count. */
export function useAddressFilterValues(filters: readonly AddressFilter[]): Record<string, string[]> {
  const [searchParams] = useSearchParams();
  const key = searchParams.toString();
  return useMemo(() => {
    const values: Record<string, string[]> = {};
    for (const { param } of filters) {
      const present = new URLSearchParams(key).getAll(param).filter(Boolean);
      if (present.length) values[param] = present;
    }
    return values;
  }, [filters, key]);
}

export function AddressFilterChips({ filters }: { filters: readonly AddressFilter[] }) {
  const translate = useTranslate();
  const [searchParams, setSearchParams] = useSearchParams();
  const values = useAddressFilterValues(filters);

  const remove = (param: string, value: string) => {
    const next = new URLSearchParams(searchParams);
    const rest = next.getAll(param).filter((v) => v !== value);
    next.delete(param);
    for (const v of rest) next.append(param, v);
    setSearchParams(next);
  };

  const chips = filters.flatMap(({ param, label }) =>
    (values[param] ?? []).map((value) => ({ param, value, text: translate(label, { id: value }) })),
  );
  if (!chips.length) return null;
  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
      {chips.map(({ param, value, text }) => (
        <Chip key={`${param}=${value}`} label={text} onDelete={() => remove(param, value)} />
      ))}
    </Stack>
  );
}
