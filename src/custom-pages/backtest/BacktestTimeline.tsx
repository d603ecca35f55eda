/** A finished backtest's pauses per day, the converters among them, with each day's spend stopped in its title. */
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { BacktestResult } from '../../../shared/backtest';
import { formatDay } from '../../layout/dateFormat';
import { DailyBars, formatMoney } from '../impact/DailyBars';

export function BacktestTimeline({ result }: { result: BacktestResult }) {
  const translate = useTranslate();
  return (
    <Box>
      <Typography variant="subtitle2" component="h3">
        {translate('backtest.timeline')}
      </Typography>
      <DailyBars
        summary={result.by_day.map((d) => `${formatDay(d.date)}: ${d.pauses}`).join(', ')}
        legend={{
          bar: translate('backtest.legend.bar'),
          part: translate('backtest.legend.part'),
          count: translate('backtest.legend.count'),
        }}
        days={result.by_day.map((d) => ({
          date: d.date,
          value: d.pauses,
          part: d.converters_paused,
          label: d.pauses ? String(d.pauses) : '',
          title: translate('backtest.day_title', {
            date: formatDay(d.date),
            pauses: translate('backtest.pauses', { smart_count: d.pauses }),
            converters: translate('backtest.converters', { smart_count: d.converters_paused }),
            stopped: formatMoney(d.spend_stopped, result.account.currency),
          }),
        }))}
      />
    </Box>
  );
}
