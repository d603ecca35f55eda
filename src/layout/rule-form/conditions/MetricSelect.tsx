/** A condition's metric (or the other metric it is compared with), by its translated name. */
import { MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { CONDITION_METRICS, type MetricKey } from '../../../../shared/ruleConditions';
import { conditionFieldSx } from './conditionFieldSx';

export function MetricSelect({
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
      sx={conditionFieldSx(150)}
    >
      {CONDITION_METRICS.map((m) => (
        <MenuItem key={m.key} value={m.key}>
          {translate(`conditions.metrics.${m.key}`, { _: m.label })}
        </MenuItem>
      ))}
    </TextField>
  );
}
