/** What a condition compares its metric with: a number, or another metric. */
import { MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ConditionDraft } from './conditionDraft';
import { conditionFieldSx } from './conditionFieldSx';

type Against = ConditionDraft['against'];

export function AgainstSelect({ value, onChange }: { value: Against; onChange: (against: Against) => void }) {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      label={translate('conditions.against')}
      value={value}
      onChange={(e) => onChange(e.target.value as Against)}
      sx={conditionFieldSx(140)}
    >
      {(['number', 'metric'] as const).map((a) => (
        <MenuItem key={a} value={a}>
          {translate(`conditions.against_options.${a}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
