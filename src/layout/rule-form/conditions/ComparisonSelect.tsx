/** A condition's comparison (>, ≥, <, ≤). */
import { MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { COMPARISONS, type Comparison } from '../../../../shared/ruleConditions';
import { conditionFieldSx } from './conditionFieldSx';

const OP_SYMBOL: Record<Comparison, string> = { '>': '>', '>=': '≥', '<': '<', '<=': '≤' };

export function ComparisonSelect({
  value,
  error,
  onChange,
}: {
  value: Comparison;
  error?: string;
  onChange: (op: Comparison) => void;
}) {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      label={translate('conditions.op')}
      value={value}
      onChange={(e) => onChange(e.target.value as Comparison)}
      error={Boolean(error)}
      helperText={error}
      // Wide enough for its label, "Comparison", once shrunk above the value.
      sx={conditionFieldSx(96)}
    >
      {COMPARISONS.map((op) => (
        <MenuItem key={op} value={op}>
          {OP_SYMBOL[op]}
        </MenuItem>
      ))}
    </TextField>
  );
}
