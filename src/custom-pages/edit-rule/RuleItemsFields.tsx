/**
 * The rule's items: the two campaign-name filters (multi-select of the name options in docs/contract.md#constants, or typed)
 * and the task cards worded as docs/contract.md#constants says, each with its switch and value fields.
 */
import {
  Autocomplete,
  Box,
  Card,
  CardContent,
  Chip,
  FormControlLabel,
  FormHelperText,
  InputAdornment,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { CAMPAIGN_NAME_OPTIONS } from '../../domain/constants';
import {
  TASKS,
  type FilterItem,
  type FilterName,
  type TaskItem,
  type TaskName,
  type TaskValueKey,
} from '../../domain/rules';

export function FilterField({
  filter,
  error,
  onChange,
}: {
  filter: FilterItem;
  error?: string;
  onChange: (next: FilterItem) => void;
}) {
  const translate = useTranslate();
  const label = translate(`rules.editor.filter_labels.${filter.name}`);
  const switchable = filter.name !== 'campaign_name_contains';
  return (
    <Stack spacing={0.5}>
      {/* One height with or without the switch, so the two filters' fields line up. */}
      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ minHeight: 38 }}>
        <Typography variant="subtitle2">{label}</Typography>
        {switchable ? (
          <FormControlLabel
            control={
              <Switch
                size="small"
                checked={filter.is_active}
                onChange={(e) => onChange({ ...filter, is_active: e.target.checked })}
              />
            }
            label={translate('rules.editor.filter_active')}
            slotProps={{ typography: { variant: 'body2' } }}
            sx={{ mr: 0 }}
          />
        ) : null}
      </Stack>
      <Autocomplete
        multiple
        freeSolo
        disableCloseOnSelect
        options={CAMPAIGN_NAME_OPTIONS as readonly string[]}
        value={filter.values}
        disabled={switchable && !filter.is_active}
        onChange={(_event, values) => onChange({ ...filter, values: values.map((v) => v.trim()).filter(Boolean) })}
        renderValue={(values, getItemProps) =>
          values.map((option, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            return <Chip key={key} size="small" label={option} {...itemProps} />;
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            size="small"
            placeholder={filter.values.length ? undefined : translate('rules.editor.filter_placeholder')}
            error={Boolean(error)}
            helperText={error}
            inputProps={{ ...params.inputProps, 'aria-label': label }}
          />
        )}
      />
    </Stack>
  );
}

export function FilterFields({
  filters,
  errors,
  onChange,
}: {
  filters: FilterItem[];
  errors: Record<string, string>;
  onChange: (name: FilterName, next: FilterItem) => void;
}) {
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
      {filters.map((filter) => (
        <Box key={filter.name} sx={{ flex: 1 }}>
          <FilterField filter={filter} error={errors[filter.name]} onChange={(next) => onChange(filter.name, next)} />
        </Box>
      ))}
    </Stack>
  );
}

function TaskCard({
  task,
  errors,
  onToggle,
  onValue,
}: {
  task: TaskItem;
  errors: Record<string, string>;
  onToggle: (active: boolean) => void;
  onValue: (key: TaskValueKey, value: string) => void;
}) {
  const translate = useTranslate();
  const spec = TASKS.find((t) => t.name === task.name)!;
  const wording = translate(`rules.editor.task_wording.${task.name}`, { _: spec.wording });
  return (
    <Card
      variant="outlined"
      sx={{ height: '100%', borderColor: task.is_active ? 'primary.main' : 'divider' }}
      data-testid={`task-${task.name}`}
    >
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Stack direction="row" spacing={1} alignItems="flex-start">
          <Switch
            size="small"
            checked={task.is_active}
            onChange={(e) => onToggle(e.target.checked)}
            slotProps={{ input: { 'aria-label': translate('rules.editor.task_active', { name: wording }) } }}
          />
          <Typography variant="body2" sx={{ pt: 0.5 }}>
            {wording}
          </Typography>
        </Stack>
        <Stack direction="row" spacing={1} sx={{ mt: 1.5 }}>
          {spec.values.map((value) => {
            const label = translate(`rules.editor.task_values.${value.key}`, { _: value.label });
            const error = errors[value.key];
            return (
              <TextField
                key={value.key}
                size="small"
                label={label}
                value={task.values[value.key] ?? ''}
                onChange={(e) => onValue(value.key, e.target.value)}
                error={Boolean(error)}
                helperText={error}
                slotProps={{
                  htmlInput: { inputMode: 'decimal', 'aria-label': `${wording}: ${label}` },
                  input: {
                    ...(value.prefix
                      ? { startAdornment: <InputAdornment position="start">{value.prefix}</InputAdornment> }
                      : {}),
                    ...(value.suffix
                      ? { endAdornment: <InputAdornment position="end">{value.suffix}</InputAdornment> }
                      : {}),
                  },
                }}
                sx={{ flex: 1 }}
              />
            );
          })}
        </Stack>
      </CardContent>
    </Card>
  );
}

export function TaskCards({
  tasks,
  errors,
  generalError,
  onToggle,
  onValue,
}: {
  tasks: TaskItem[];
  errors: Record<string, Record<string, string>>;
  generalError?: string;
  onToggle: (name: TaskName, active: boolean) => void;
  onValue: (name: TaskName, key: TaskValueKey, value: string) => void;
}) {
  return (
    <Stack spacing={1}>
      {generalError ? <FormHelperText error>{generalError}</FormHelperText> : null}
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' } }}>
        {tasks.map((task) => (
          <TaskCard
            key={task.name}
            task={task}
            errors={errors[task.name] ?? {}}
            onToggle={(active) => onToggle(task.name, active)}
            onValue={(key, value) => onValue(task.name, key, value)}
          />
        ))}
      </Box>
    </Stack>
  );
}
