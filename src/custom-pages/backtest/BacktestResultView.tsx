/**
 * A finished backtest: totals, pauses per day, and the table of its pauses with what followed, a
 * page at a time (the job's answer carries the first page; the others are asked for).
 */
import { Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { BacktestResult } from '../../../shared/backtest';
import { BacktestBudgetChanges } from './BacktestBudgetChanges';
import { BacktestPauses } from './BacktestPauses';
import { BacktestTimeline } from './BacktestTimeline';
import { BacktestTotals } from './BacktestTotals';

export function BacktestResultView({ jobId, result }: { jobId: string; result: BacktestResult }) {
  const translate = useTranslate();
  return (
    <Stack spacing={2}>
      <BacktestTotals result={result} />
      <Typography variant="body2" color="text.secondary">
        {translate('backtest.estimate_note')}
      </Typography>
      <BacktestBudgetChanges result={result} />
      <BacktestTimeline result={result} />
      <BacktestPauses jobId={jobId} result={result} />
    </Stack>
  );
}
