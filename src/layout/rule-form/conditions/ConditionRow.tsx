/**
 * One condition of the Conditions card: metric, window (Last N days with its N; show-up metrics
 * fixed at Lifetime), comparison, and a number ($ or % by the metric's kind) or another metric
 * times a factor — whose (this object, its ad set, its campaign, the account), which, over which
 * window. The fields wrap, so a phone shows the row as a few lines.
 */
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { IconButton, InputAdornment, MenuItem, Stack, TextField, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import {
  COMPARE_SCOPES,
  COMPARISONS,
  CONDITION_METRICS,
  WINDOW_PRESETS,
  metricSpec,
  type Comparison,
  type MetricKey,
} from '../../../../shared/ruleConditions';
import { isLifetimeOnly, withMetric, type ConditionDraft, type FieldErrors, type WindowDraft } from './conditionDraft';

const OP_SYMBOL: Record<Comparison, string> = { '>': '>', '>=': '≥', '<': '<', '<=': '≤' };
const WINDOW_CHOICES = [...WINDOW_PRESETS.filter((w) => w !== 'lifetime'), 'last_n', 'lifetime'] as const;

const fieldSx = (least: number) => ({ flex: `1 1 ${least}px`, minWidth: least });

function MetricSelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: MetricKey;
  onChange: (metric: MetricKey) => void;
}) {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value as MetricKey)}
      sx={fieldSx(150)}
    >
      {CONDITION_METRICS.map((m) => (
        <MenuItem key={m.key} value={m.key}>
          {translate(`conditions.metrics.${m.key}`, { _: m.label })}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** A window select, and the number of days beside it for Last N days. */
function WindowFields({
  label,
  side,
  metric,
  errors,
  onChange,
}: {
  label: string;
  side: WindowDraft;
  metric: MetricKey;
  errors: { window?: string };
  onChange: (next: WindowDraft) => void;
}) {
  const translate = useTranslate();
  const lifetimeOnly = isLifetimeOnly(metric);
  const daysLabel = translate('conditions.days');
  return (
    <>
      <TextField
        select
        size="small"
        label={label}
        value={side.window}
        disabled={lifetimeOnly}
        onChange={(e) => onChange({ ...side, window: e.target.value as WindowDraft['window'] })}
        error={Boolean(errors.window) && side.window !== 'last_n'}
        helperText={
          side.window !== 'last_n'
            ? (errors.window ?? (lifetimeOnly ? translate('conditions.lifetime_only') : undefined))
            : undefined
        }
        sx={fieldSx(140)}
      >
        {WINDOW_CHOICES.map((w) => (
          <MenuItem key={w} value={w}>
            {translate(`conditions.windows.${w}`)}
          </MenuItem>
        ))}
      </TextField>
      {side.window === 'last_n' ? (
        <TextField
          size="small"
          label={daysLabel}
          value={side.days}
          onChange={(e) => onChange({ ...side, days: e.target.value })}
          error={Boolean(errors.window)}
          helperText={errors.window}
          slotProps={{ htmlInput: { inputMode: 'numeric', 'aria-label': `${label}: ${daysLabel}` } }}
          sx={fieldSx(80)}
        />
      ) : null}
    </>
  );
}

export function ConditionRow({
  condition,
  number,
  path,
  errors,
  onChange,
  onRemove,
}: {
  condition: ConditionDraft;
  /** Its number in the card, counted from 1, for its name ("Condition 2"). */
  number: number;
  /** "conditions.conditions.0": where the server's errors about it are keyed. */
  path: string;
  errors: FieldErrors;
  onChange: (next: ConditionDraft) => void;
  onRemove: () => void;
}) {
  const translate = useTranslate();
  const c = condition;
  const at = (field: string) => errors[`${path}.${field}`];
  const kind = metricSpec(c.metric)?.kind;
  const name = translate('conditions.condition_label', { n: number });
  const valueLabel = translate('conditions.value');
  const factorLabel = translate('conditions.factor');
  const ownError = errors[path];
  return (
    <Stack
      role="group"
      aria-label={name}
      direction="row"
      spacing={1}
      useFlexGap
      flexWrap="wrap"
      alignItems="flex-start"
      data-testid={`condition-${number}`}
    >
      <MetricSelect
        label={translate('conditions.metric')}
        value={c.metric}
        onChange={(metric) => onChange(withMetric(c, metric))}
      />
      <WindowFields
        label={translate('conditions.window')}
        side={c}
        metric={c.metric}
        errors={{ window: at('window') }}
        onChange={(next) => onChange({ ...c, ...next })}
      />
      <TextField
        select
        size="small"
        label={translate('conditions.op')}
        value={c.op}
        onChange={(e) => onChange({ ...c, op: e.target.value as Comparison })}
        error={Boolean(at('op'))}
        helperText={at('op')}
        // Wide enough for its label, "Comparison", once shrunk above the value.
        sx={fieldSx(96)}
      >
        {COMPARISONS.map((op) => (
          <MenuItem key={op} value={op}>
            {OP_SYMBOL[op]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={translate('conditions.against')}
        value={c.against}
        onChange={(e) => onChange({ ...c, against: e.target.value as ConditionDraft['against'] })}
        sx={fieldSx(140)}
      >
        {(['number', 'metric'] as const).map((a) => (
          <MenuItem key={a} value={a}>
            {translate(`conditions.against_options.${a}`)}
          </MenuItem>
        ))}
      </TextField>
      {c.against === 'number' ? (
        <TextField
          size="small"
          label={valueLabel}
          value={c.value}
          onChange={(e) => onChange({ ...c, value: e.target.value })}
          error={Boolean(at('value') ?? ownError)}
          helperText={at('value') ?? ownError}
          slotProps={{
            htmlInput: { inputMode: 'decimal', 'aria-label': `${name}: ${valueLabel}` },
            input: {
              ...(kind === 'money' ? { startAdornment: <InputAdornment position="start">$</InputAdornment> } : {}),
              ...(kind === 'percent' ? { endAdornment: <InputAdornment position="end">%</InputAdornment> } : {}),
            },
          }}
          sx={fieldSx(110)}
        />
      ) : (
        <>
          <TextField
            size="small"
            label={factorLabel}
            value={c.other.factor}
            onChange={(e) => onChange({ ...c, other: { ...c.other, factor: e.target.value } })}
            error={Boolean(at('compare_to.factor'))}
            helperText={at('compare_to.factor')}
            slotProps={{
              htmlInput: { inputMode: 'decimal', 'aria-label': `${name}: ${factorLabel}` },
              input: { endAdornment: <InputAdornment position="end">×</InputAdornment> },
            }}
            sx={fieldSx(90)}
          />
          <TextField
            select
            size="small"
            label={translate('conditions.whose')}
            value={c.other.of}
            onChange={(e) =>
              onChange({ ...c, other: { ...c.other, of: e.target.value as ConditionDraft['other']['of'] } })
            }
            error={Boolean(at('compare_to.of') ?? at('compare_to'))}
            helperText={at('compare_to.of') ?? at('compare_to')}
            sx={fieldSx(140)}
          >
            {COMPARE_SCOPES.map((of) => (
              <MenuItem key={of} value={of}>
                {translate(`conditions.scopes.${of}`)}
              </MenuItem>
            ))}
          </TextField>
          <MetricSelect
            label={translate('conditions.other_metric')}
            value={c.other.metric}
            onChange={(metric) => onChange({ ...c, other: withMetric(c.other, metric) })}
          />
          <WindowFields
            label={translate('conditions.other_window')}
            side={c.other}
            metric={c.other.metric}
            errors={{ window: at('compare_to.window') }}
            onChange={(next) => onChange({ ...c, other: { ...c.other, ...next } })}
          />
        </>
      )}
      <Tooltip title={translate('conditions.remove_condition', { n: number })}>
        <IconButton aria-label={translate('conditions.remove_condition', { n: number })} onClick={onRemove}>
          <DeleteOutlineIcon />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}
