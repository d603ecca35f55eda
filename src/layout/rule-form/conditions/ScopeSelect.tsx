/** Whose the other metric is: this object's, its ad set's, its campaign's or the account's. */
import { MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { COMPARE_SCOPES, type CompareScope } from '../../../../shared/ruleConditions';
import { conditionFieldSx } from './conditionFieldSx';

export function ScopeSelect({
  value,
  error,
  onChange,
}: {
  value: CompareScope;
  error?: string;
  onChange: (of: CompareScope) => void;
}) {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      label={translate('conditions.whose')}
      value={value}
      onChange={(e) => onChange(e.target.value as CompareScope)}
      error={Boolean(error)}
      helperText={error}
      sx={conditionFieldSx(140)}
    >
      {COMPARE_SCOPES.map((of) => (
        <MenuItem key={of} value={of}>
          {translate(`conditions.scopes.${of}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
