/**
 * A permission group's rule scope (server/people/ruleScope.ts): the folders where its rule
 * accesses (create update rules, delete rules) apply — every folder, or the ones chosen here by
 * name — and the most daily money one approval by a member may release (empty: no limit).
 */
import {
  Autocomplete,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  Radio,
  RadioGroup,
  TextField,
} from '@mui/material';
import { useQuery, useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { NumberInput, useDataProvider, useInput, useTranslate, ValidationError } from 'react-admin';
import type { AppDataProvider } from '../../providers/dataProvider';
import type { FolderOption } from '../../providers/ruleScopeMethods';

const OPTIONS_SHOWN = 50;
const field = (name: string) => `resources.permissions.fields.${name}`;

/** Folders by name as the search finds them, and the names of those already chosen. */
function FolderPicker({
  value,
  onChange,
  error,
}: {
  value: number[];
  onChange: (ids: number[]) => void;
  /** The form's error of the field, as react-admin keeps it (ValidationError reads it). */
  error?: string;
}) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [search, setSearch] = useState('');
  const options = useQuery({
    queryKey: ['ruleScope', 'folderOptions', search],
    queryFn: ({ signal }) => dataProvider.searchFolderOptions(search, OPTIONS_SHOWN, signal),
    staleTime: 30_000,
  });
  const chosen = useQueries({
    queries: value.map((id) => ({
      queryKey: ['ruleScope', 'folder', id],
      queryFn: ({ signal }: { signal: AbortSignal }) => dataProvider.getFolderOption(id, signal),
      staleTime: 60_000,
    })),
  });
  const selected: FolderOption[] = value.map(
    (id, i) =>
      chosen[i]?.data ?? {
        id,
        name: chosen[i]?.data === null ? translate(field('folder_gone'), { id }) : `#${id}`,
      },
  );
  return (
    <Autocomplete
      multiple
      options={options.data ?? []}
      value={selected}
      loading={options.isFetching}
      filterOptions={(found) => found}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(o) => o.name}
      getOptionKey={(o) => o.id}
      onInputChange={(_event, input, reason) => {
        if (reason === 'input' || reason === 'clear') setSearch(input);
      }}
      onChange={(_event, folders) => onChange(folders.map((f) => f.id))}
      noOptionsText={translate(field('no_folders'))}
      renderInput={(params) => (
        <TextField
          {...params}
          label={translate(field('chosen_folders'))}
          error={Boolean(error)}
          helperText={error ? <ValidationError error={error} /> : translate(field('chosen_folders_help'))}
        />
      )}
      sx={{ mt: 1, maxWidth: 640 }}
    />
  );
}

/** "All folders" or chosen folders: `rule_folders` is null for all, a list of ids otherwise. */
export function RuleFoldersInput() {
  const translate = useTranslate();
  // react-admin formats null as '' for text inputs: here null (every folder) stays null.
  const { field: input, fieldState } = useInput<number[] | null>({
    source: 'rule_folders',
    defaultValue: null,
    format: (value) => value,
    parse: (value) => value,
  });
  const chosen = Array.isArray(input.value) ? (input.value as number[]) : null;
  const all = chosen === null;
  const error = fieldState.error?.message;
  return (
    <FormControl component="fieldset" sx={{ mb: 2, width: '100%' }}>
      <FormLabel component="legend">{translate(field('rule_folders'))}</FormLabel>
      <RadioGroup
        row
        value={all ? 'all' : 'chosen'}
        onChange={(event) => input.onChange(event.target.value === 'all' ? null : [])}
      >
        <FormControlLabel value="all" control={<Radio />} label={translate(field('all_folders'))} />
        <FormControlLabel value="chosen" control={<Radio />} label={translate(field('some_folders'))} />
      </RadioGroup>
      {all ? (
        <FormHelperText sx={{ mx: 0 }}>{translate(field('rule_folders_help'))}</FormHelperText>
      ) : (
        <FolderPicker value={input.value ?? []} onChange={input.onChange} error={error} />
      )}
    </FormControl>
  );
}

/** Empty is no limit (null), as the API reads it. */
export function ApprovalLimitInput() {
  return (
    <NumberInput
      source="approval_limit"
      label={field('approval_limit')}
      helperText={field('approval_limit_help')}
      min={0}
      step="any"
      parse={(value) => (value === '' || value === null || value === undefined ? null : Number(value))}
      sx={{ maxWidth: 320 }}
    />
  );
}
