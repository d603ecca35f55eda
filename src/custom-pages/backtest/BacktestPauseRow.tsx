/**
 * One pause of a backtest: when (in the result's time zone), the ad or ad set (with its campaign or
 * id), the task and condition values that triggered it (flagged when on settled numbers), what
 * followed, and the verdict.
 */
import { Chip, TableCell, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { BacktestPause, PauseVerdict } from '../../../shared/backtest';
import { itemLabel } from '../../../shared/rules';
import { formatDateTime } from '../../layout/dateFormat';
import { formatMoney } from '../impact/DailyBars';

const VERDICT_COLOR: Record<PauseVerdict, 'success' | 'error' | 'info' | 'default'> = {
  stopped_waste: 'success',
  paused_converter: 'error',
  goal_reached: 'info',
  held: 'default',
};

function PauseTrigger({ pause }: { pause: BacktestPause }) {
  const translate = useTranslate();
  return (
    <>
      <Typography variant="caption" component="div" color="text.secondary">
        {itemLabel(pause.task)}
      </Typography>
      {Object.entries(pause.reason)
        .filter(([key]) => key !== 'Campaign' && key !== 'Ad')
        .map(([key, value]) => (
          <Typography key={key} variant="body2">{`${key}: ${value}`}</Typography>
        ))}
      {pause.settled_numbers ? (
        <Chip size="small" variant="outlined" label={translate('backtest.settled_flag')} />
      ) : null}
    </>
  );
}

export function BacktestPauseRow({
  pause,
  currency,
  timezone,
}: {
  pause: BacktestPause;
  currency: string;
  timezone: string;
}) {
  const translate = useTranslate();
  const money = (n: number) => formatMoney(n, currency);
  return (
    <TableRow>
      <TableCell data-label={translate('backtest.col.when')} sx={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(pause.at, timezone)}
      </TableCell>
      <TableCell data-label={translate('backtest.col.object')}>
        <Typography variant="body2">{pause.name}</Typography>
        <Typography variant="caption" color="text.secondary">
          {pause.object_type === 'ad' ? pause.campaign_name : pause.object_id}
        </Typography>
      </TableCell>
      <TableCell data-label={translate('backtest.col.trigger')}>
        <PauseTrigger pause={pause} />
      </TableCell>
      <TableCell data-label={translate('backtest.col.after')}>
        {translate('backtest.after', {
          spend: money(pause.spend_after),
          leads: translate('backtest.leads', { smart_count: pause.leads_after }),
          cpl: pause.final_cpl === null ? '—' : money(pause.final_cpl),
        })}
      </TableCell>
      <TableCell data-label={translate('backtest.col.verdict')}>
        <Chip
          size="small"
          color={VERDICT_COLOR[pause.verdict]}
          label={translate(`backtest.verdict.${pause.verdict}`)}
        />
      </TableCell>
    </TableRow>
  );
}
