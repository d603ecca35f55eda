/** The factor the other metric is multiplied by (× after it). */
import { InputAdornment, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { conditionFieldSx } from './conditionFieldSx';

export function FactorField({
  conditionName,
  value,
  error,
  onChange,
}: {
  /** The condition's name ("Condition 2"), which the field's accessible name starts with. */
  conditionName: string;
  value: string;
  error?: string;
  onChange: (factor: string) => void;
}) {
  const translate = useTranslate();
  const factorLabel = translate('conditions.factor');
  return (
    <TextField
      size="small"
      label={factorLabel}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(error)}
      helperText={error}
      slotProps={{
        htmlInput: { inputMode: 'decimal', 'aria-label': `${conditionName}: ${factorLabel}` },
        input: { endAdornment: <InputAdornment position="end">×</InputAdornment> },
      }}
      sx={conditionFieldSx(90)}
    />
  );
}
