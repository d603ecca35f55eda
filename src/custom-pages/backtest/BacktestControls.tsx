/** The "Try on history" dialog's controls: the span (7, 14 or 30 days), Run, and Cancel while a job runs. */
import ScienceIcon from '@mui/icons-material/Science';
import { Button, Stack, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useTranslate } from 'react-admin';
import { BACKTEST_SPANS } from '../../../shared/backtest';

export function BacktestControls({
  days,
  onDays,
  running,
  onRun,
  onCancel,
}: {
  days: number;
  onDays: (days: number) => void;
  running: boolean;
  onRun: () => void;
  onCancel: () => void;
}) {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap">
      <ToggleButtonGroup
        exclusive
        size="small"
        value={days}
        onChange={(_e, value: number | null) => value && onDays(value)}
        aria-label={translate('backtest.title')}
      >
        {BACKTEST_SPANS.map((span) => (
          <ToggleButton key={span} value={span}>
            {translate('backtest.days', { days: span })}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Button variant="contained" onClick={onRun} disabled={running} startIcon={<ScienceIcon />}>
        {translate('backtest.run')}
      </Button>
      {running ? <Button onClick={onCancel}>{translate('backtest.cancel')}</Button> : null}
    </Stack>
  );
}
