/** The Campaigns filters that bound a range: the event and end dates, and the numbers (numbers only). */
import { TextField } from '@mui/material';
import { DATE_FIELDS, NUMBER_FIELDS, type FilterDraft } from './campaignFilterDraft';
import { isCompleteNumber, isNumberText } from './format';
import { useFilterLabel } from './useFilterLabel';

/** docs/contract.md#constants: date pickers reach 100 years back and 52 years ahead. */
export function yearBounds() {
  const year = new Date().getFullYear();
  return { min: `${year - 100}-01-01`, max: `${year + 52}-12-31` };
}

export function DateFilters({
  draft,
  bounds,
  onChange,
}: {
  draft: FilterDraft;
  bounds: { min: string; max: string };
  onChange: (patch: Partial<FilterDraft>) => void;
}) {
  const label = useFilterLabel();
  return DATE_FIELDS.map(([name, key]) => (
    <TextField
      key={name}
      size="small"
      type="date"
      label={label(key)}
      value={draft[name]}
      onChange={(e) => onChange({ [name]: e.target.value })}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: bounds }}
    />
  ));
}

export function NumberFilters({
  draft,
  onChange,
}: {
  draft: FilterDraft;
  onChange: (patch: Partial<FilterDraft>) => void;
}) {
  const label = useFilterLabel();
  const numberError = (value: string) =>
    value.trim() !== '' && !isCompleteNumber(value.trim()) ? label('numbers_only') : undefined;
  return NUMBER_FIELDS.map(([name, key]) => (
    <TextField
      key={name}
      size="small"
      label={label(key)}
      value={draft[name]}
      error={Boolean(numberError(draft[name]))}
      helperText={numberError(draft[name])}
      slotProps={{ htmlInput: { inputMode: 'decimal' } }}
      onChange={(e) => isNumberText(e.target.value.trim()) && onChange({ [name]: e.target.value })}
    />
  ));
}
