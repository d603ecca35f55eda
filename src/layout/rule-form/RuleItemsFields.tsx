/**
 * The rule's items: the two campaign-name filters (multi-select of the name options in docs/contract.md#constants, or typed)
 * and the task cards worded as docs/contract.md#constants says, each with its switch and value fields; below the seven,
 * the cards of the tasks on what a lead became (show-ups, CRM stages) with their help and the note on website leads.
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
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import type { ChangeEvent } from 'react';
import { useTranslate } from 'react-admin';
import { CAMPAIGN_NAME_OPTIONS } from '../../../shared/constants';
import {
  isOutcomeTask,
  TASKS,
  type FilterItem,
  type FilterName,
  type TaskItem,
  type TaskName,
  type TaskValueKey,
} from '../../../shared/rules';

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

/**
 * A value field's least width: room for its label at rest, which would otherwise be cut with an
 * ellipsis ("Min. settled registr…"), and for a number; in a narrow card the field goes to a line
 * of its own instead.
 */
const fieldWidth = (label: string, least: number) => `max(${least}px, ${label.length + 2}ch)`;

function TaskCard({
  task,
  errors,
  onToggle,
  onValue,
  onBlur,
}: {
  task: TaskItem;
  errors: Record<string, string>;
  onToggle: (active: boolean) => void;
  onValue: (key: TaskValueKey, value: string) => void;
  onBlur?: (key: TaskValueKey) => void;
}) {
  const translate = useTranslate();
  const spec = TASKS.find((t) => t.name === task.name)!;
  const wording = translate(`rules.editor.task_wording.${task.name}`, { _: spec.wording });
  const help = spec.help ? translate(`rules.editor.task_help.${task.name}`, { _: spec.help }) : null;
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
        <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" sx={{ mt: 1.5 }}>
          {spec.values.map((value) => {
            const label = translate(`rules.editor.task_values.${value.key}`, { _: value.label });
            const error = errors[value.key];
            const field = {
              size: 'small',
              label,
              value: task.values[value.key] ?? '',
              onChange: (e: ChangeEvent<HTMLInputElement>) => onValue(value.key, e.target.value),
              onBlur: () => onBlur?.(value.key),
              error: Boolean(error),
              helperText: error,
            } as const;
            if (value.options)
              return (
                <TextField
                  key={value.key}
                  select
                  {...field}
                  slotProps={{ select: { inputProps: { 'aria-label': `${wording}: ${label}` } } }}
                  sx={{ flex: 1, minWidth: fieldWidth(label, 110) }}
                >
                  {value.options.map((option) => (
                    <MenuItem key={option} value={option}>
                      {translate(`rules.editor.stages.${option}`, { _: option })}
                    </MenuItem>
                  ))}
                </TextField>
              );
            return (
              <TextField
                key={value.key}
                {...field}
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
                sx={{ flex: 1, minWidth: fieldWidth(label, 96) }}
              />
            );
          })}
        </Stack>
        {help ? (
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
            {help}
          </Typography>
        ) : null}
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
  onBlur,
}: {
  tasks: TaskItem[];
  errors: Record<string, Record<string, string>>;
  generalError?: string;
  onToggle: (name: TaskName, active: boolean) => void;
  onValue: (name: TaskName, key: TaskValueKey, value: string) => void;
  /** A value field was left: its error may show from then on. */
  onBlur?: (name: TaskName, key: TaskValueKey) => void;
}) {
  const translate = useTranslate();
  const cards = (group: TaskItem[]) => (
    <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' } }}>
      {group.map((task) => (
        <TaskCard
          key={task.name}
          task={task}
          errors={errors[task.name] ?? {}}
          onToggle={(active) => onToggle(task.name, active)}
          onValue={(key, value) => onValue(task.name, key, value)}
          onBlur={(key) => onBlur?.(task.name, key)}
        />
      ))}
    </Box>
  );
  const outcomeTasks = tasks.filter((t) => isOutcomeTask(t.name));
  return (
    <Stack spacing={1}>
      {generalError ? <FormHelperText error>{generalError}</FormHelperText> : null}
      {cards(tasks.filter((t) => !isOutcomeTask(t.name)))}
      {outcomeTasks.length ? (
        <Stack spacing={1} component="section" aria-labelledby="outcome-tasks-title" sx={{ pt: 1.5 }}>
          <Typography variant="subtitle2" id="outcome-tasks-title">
            {translate('rules.editor.outcome_tasks')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('rules.editor.outcome_tasks_help')}
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="website-leads-note">
            {translate('rules.editor.website_leads_note')}
          </Typography>
          {cards(outcomeTasks)}
        </Stack>
      ) : null}
    </Stack>
  );
}
