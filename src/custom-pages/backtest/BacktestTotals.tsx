/** A finished backtest's totals: pauses, converters paused (warned when any), spend stopped, leads lost, and held when any. */
import { useTranslate } from 'react-admin';
import type { BacktestResult } from '../../../shared/backtest';
import { formatMoney, Totals } from '../impact/DailyBars';

export function BacktestTotals({ result }: { result: BacktestResult }) {
  const translate = useTranslate();
  const { totals } = result;
  return (
    <Totals
      items={[
        { label: translate('backtest.totals.pauses'), value: String(totals.pauses) },
        {
          label: translate('backtest.totals.converters'),
          value: String(totals.converters_paused),
          warn: totals.converters_paused > 0,
        },
        {
          label: translate('backtest.totals.spend_stopped'),
          value: formatMoney(totals.spend_stopped, result.account.currency),
        },
        { label: translate('backtest.totals.leads_lost'), value: String(totals.leads_lost) },
        ...(totals.held ? [{ label: translate('backtest.totals.held'), value: String(totals.held) }] : []),
      ]}
    />
  );
}
