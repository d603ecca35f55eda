/**
 * What the "Try on history" dialog says about its job: the server's problems (with Fill history
 * when the account has none), the progress while it runs, and how it ended (cancelled, failed, or
 * its result).
 */
import { Alert, Box, Button, LinearProgress, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { BacktestJob } from '../../../shared/backtest';
import { BacktestResultView } from './BacktestResultView';

export function BacktestProblems({
  problems,
  noHistory,
  filling,
  onFill,
}: {
  problems: string[];
  /** The account has no history yet: the alert offers to fill it. */
  noHistory: boolean;
  filling: boolean;
  onFill: () => void;
}) {
  const translate = useTranslate();
  if (!problems.length) return null;
  return (
    <Alert
      severity="warning"
      action={
        noHistory ? (
          <Button color="inherit" size="small" onClick={onFill} loading={filling}>
            {translate('backtest.fill')}
          </Button>
        ) : undefined
      }
    >
      {problems.map((p) => (
        <div key={p}>{p}</div>
      ))}
    </Alert>
  );
}

export function BacktestProgress({ job }: { job: BacktestJob | null }) {
  const translate = useTranslate();
  if (job?.state !== 'running') return null;
  const { done, total } = job.progress;
  return (
    <Box>
      <LinearProgress variant="determinate" value={total ? (done / total) * 100 : 0} />
      <Typography variant="caption">{translate('backtest.running', { done, total })}</Typography>
    </Box>
  );
}

export function BacktestOutcome({ job }: { job: BacktestJob | null }) {
  const translate = useTranslate();
  if (job?.state === 'cancelled') return <Alert severity="info">{translate('backtest.cancelled')}</Alert>;
  if (job?.state === 'failed')
    return <Alert severity="error">{translate('backtest.failed', { error: job.error })}</Alert>;
  if (job?.state === 'done' && job.result) return <BacktestResultView jobId={job.id} result={job.result} />;
  return null;
}
