/**
 * "Try on history" in the rule editor: the editor's current settings — saved or not — replayed over
 * the last 7, 14 or 30 days of the folder's metric history (POST /api/backtests/), with a progress
 * bar and Cancel while it runs, then its result. Nothing is changed on the ad platform.
 */
import ScienceIcon from '@mui/icons-material/Science';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { BacktestControls } from './BacktestControls';
import { BacktestOutcome, BacktestProblems, BacktestProgress } from './BacktestStatus';
import { HistoryCoverage } from './HistoryCoverage';
import { type BacktestSubject, useBacktestJob } from './useBacktestJob';

interface Props extends BacktestSubject {
  /** What the dialog names: the rule (as on screen), its folder and the folder's ad account. */
  ruleName: string;
  folderName: string;
  accountName?: string | null;
}

function BacktestDialog({ ruleName, folderName, accountName, onClose, ...subject }: Props & { onClose: () => void }) {
  const translate = useTranslate();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const backtest = useBacktestJob(subject);
  return (
    <Dialog open onClose={onClose} fullScreen={phone} fullWidth maxWidth="lg" aria-labelledby="backtest-title">
      <DialogTitle id="backtest-title">{translate('backtest.title')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {translate('backtest.subject', { rule: ruleName, folder: folderName })}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('backtest.help')}
          </Typography>
          <HistoryCoverage
            coverage={backtest.coverage}
            accountName={accountName}
            filling={backtest.filling}
            onFill={backtest.fill}
          />
          <BacktestControls
            days={backtest.days}
            onDays={backtest.setDays}
            running={backtest.running}
            onRun={backtest.run}
            onCancel={backtest.cancel}
          />
          <BacktestProblems
            problems={backtest.problems}
            noHistory={backtest.noHistory}
            filling={backtest.filling}
            onFill={backtest.fill}
          />
          <BacktestProgress job={backtest.job} />
          <BacktestOutcome job={backtest.job} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button component={RouterLink} to={`/impact?scope=rule&id=${subject.ruleId}`}>
          {translate('backtest.impact')}
        </Button>
        <Button onClick={onClose}>{translate('backtest.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

export function TryOnHistory(props: Props) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button startIcon={<ScienceIcon />} onClick={() => setOpen(true)}>
        {translate('backtest.open')}
      </Button>
      {open ? <BacktestDialog {...props} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
