/** The number a condition compares its metric with: $ before it for money metrics, % after it for percentages. */
import { InputAdornment, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { metricSpec, type MetricKey } from '../../../../shared/ruleConditions';
import { conditionFieldSx } from './conditionFieldSx';

export function ConditionValueField({
  conditionName,
  metric,
  value,
  error,
  onChange,
}: {
  /** The condition's name ("Condition 2"), which the field's accessible name starts with. */
  conditionName: string;
  metric: MetricKey;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const translate = useTranslate();
  const kind = metricSpec(metric)?.kind;
  const valueLabel = translate('conditions.value');
  return (
    <TextField
      size="small"
      label={valueLabel}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(error)}
      helperText={error}
      slotProps={{
        htmlInput: { inputMode: 'decimal', 'aria-label': `${conditionName}: ${valueLabel}` },
        input: {
          ...(kind === 'money' ? { startAdornment: <InputAdornment position="start">$</InputAdornment> } : {}),
          ...(kind === 'percent' ? { endAdornment: <InputAdornment position="end">%</InputAdornment> } : {}),
        },
      }}
      sx={conditionFieldSx(110)}
    />
  );
}
