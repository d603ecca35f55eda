/** A window select, and the number of days beside it for Last N days; show-up metrics are fixed at Lifetime. */
import { MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { WINDOW_PRESETS, type MetricKey } from '../../../../shared/ruleConditions';
import { isLifetimeOnly, type WindowDraft } from './conditionDraft';
import { conditionFieldSx } from './conditionFieldSx';

const WINDOW_CHOICES = [...WINDOW_PRESETS.filter((w) => w !== 'lifetime'), 'last_n', 'lifetime'] as const;

export function WindowFields({
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
        sx={conditionFieldSx(140)}
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
          sx={conditionFieldSx(80)}
        />
      ) : null}
    </>
  );
}
