/**
 * "Try on history" in the rule editor: the editor's current settings — saved or not — replayed over
 * the last 7, 14 or 30 days of the folder's metric history (POST /api/backtests/), with a progress
 * bar and Cancel while it runs, then its result. Nothing is changed on the ad platform.
 */
import ScienceIcon from '@mui/icons-material/Science';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { BACKTEST_SPANS, type BacktestJob } from '../../../shared/backtest';
import { formatDay } from '../../layout/dateFormat';
import type { RuleJudging } from '../../../shared/judging';
import type { RuleAction } from '../../../shared/ruleActions';
import type { ConditionGroup } from '../../../shared/ruleConditions';
import type { EditorValues } from '../../../shared/ruleEditor';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpClient';
import { queryKeys } from '../../providers/queryKeys';
import { BacktestResultView } from './BacktestResultView';

const POLL_MS = 400;

interface Props {
  ruleId: number;
  folderId: number;
  /** What the dialog names: the rule (as on screen), its folder and the folder's ad account. */
  ruleName: string;
  folderName: string;
  accountName?: string | null;
  /** The rule's saved judging settings (they save on their own card). */
  judging: RuleJudging;
  values: Pick<EditorValues, 'name' | 'filters' | 'tasks' | 'schedule' | 'timezone'>;
  /** The editor's conditions and action (null: none); absent: the server tries the saved rule's. */
  conditions?: ConditionGroup | null;
  action?: RuleAction | null;
}

function BacktestDialog({
  ruleId,
  folderId,
  ruleName,
  folderName,
  accountName,
  judging,
  values,
  conditions,
  action,
  onClose,
}: Props & { onClose: () => void }) {
  const translate = useTranslate();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [days, setDays] = useState<number>(7);
  const [jobId, setJobId] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [noHistory, setNoHistory] = useState(false);
  const [filling, setFilling] = useState(false);
  const coverageKey = ['history', folderId];
  const coverage = useQuery({
    queryKey: coverageKey,
    queryFn: ({ signal }) => dataProvider.getHistoryCoverage(folderId, signal),
    retry: false,
  });
  // The job as the server last told it: asked again every POLL_MS while it runs.
  const jobQuery = useQuery({
    queryKey: queryKeys.backtest(jobId ?? ''),
    queryFn: ({ signal }) => dataProvider.getBacktest(jobId!, signal),
    enabled: jobId !== null,
    retry: false,
    refetchInterval: (query) => (query.state.data?.state === 'running' ? POLL_MS : false),
  });
  const job: BacktestJob | null = jobId === null ? null : (jobQuery.data ?? null);
  const shownJob = (answer: BacktestJob) => {
    queryClient.setQueryData(queryKeys.backtest(answer.id), answer);
    setJobId(answer.id);
  };
  const running = job?.state === 'running';
  const allProblems = jobQuery.error ? [...problems, ...errorMessages(jobQuery.error)] : problems;

  const run = async () => {
    setProblems([]);
    setNoHistory(false);
    setJobId(null);
    const conditionsAndAction = conditions !== undefined ? { conditions, action: action ?? null } : {};
    try {
      shownJob(
        await dataProvider.startBacktest({
          folder: folderId,
          rule_id: ruleId,
          days,
          rule: {
            name: values.name,
            rule_filter: values.filters,
            rule_task: values.tasks,
            rule_schedule: { schedule: values.schedule, timezone: values.timezone },
            judging,
            ...conditionsAndAction,
          },
        }),
      );
    } catch (error) {
      // The account has no history yet (400 with a detail): the dialog offers to fill it.
      setNoHistory((error as { status?: number }).status === 400 && !coverage.data?.readings);
      setProblems(errorMessages(error));
    }
  };
  const fill = async () => {
    setFilling(true);
    try {
      await dataProvider.fillHistory(folderId);
      setNoHistory(false);
      setProblems([]);
      await queryClient.invalidateQueries({ queryKey: coverageKey });
    } catch (error) {
      setProblems(errorMessages(error));
    } finally {
      setFilling(false);
    }
  };
  const cancel = async () => {
    if (job) shownJob(await dataProvider.cancelBacktest(job.id));
  };

  const c = coverage.data;
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
          {c ? (
            <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap">
              <Typography variant="body2">
                {c.readings
                  ? translate('backtest.coverage', {
                      account: accountName ? `${accountName} (${c.ad_account_id})` : c.ad_account_id,
                      first: formatDay(c.first),
                      last: formatDay(c.last),
                      ads: c.ads,
                      settled: Math.round((c.settled_readings / c.readings) * 100),
                    })
                  : translate('backtest.no_history')}
              </Typography>
              {/* A partly recorded account (an ad added since, a day the product did not read) is
                  filled in on demand; hours already recorded keep their readings. */}
              {c.readings ? (
                <Button size="small" onClick={fill} loading={filling}>
                  {translate('backtest.refill')}
                </Button>
              ) : null}
            </Stack>
          ) : null}
          <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap">
            <ToggleButtonGroup
              exclusive
              size="small"
              value={days}
              onChange={(_e, value: number | null) => value && setDays(value)}
              aria-label={translate('backtest.title')}
            >
              {BACKTEST_SPANS.map((span) => (
                <ToggleButton key={span} value={span}>
                  {translate('backtest.days', { days: span })}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
            <Button variant="contained" onClick={run} disabled={running} startIcon={<ScienceIcon />}>
              {translate('backtest.run')}
            </Button>
            {running ? <Button onClick={cancel}>{translate('backtest.cancel')}</Button> : null}
          </Stack>
          {allProblems.length ? (
            <Alert
              severity="warning"
              action={
                noHistory ? (
                  <Button color="inherit" size="small" onClick={fill} loading={filling}>
                    {translate('backtest.fill')}
                  </Button>
                ) : undefined
              }
            >
              {allProblems.map((p) => (
                <div key={p}>{p}</div>
              ))}
            </Alert>
          ) : null}
          {running ? (
            <Box>
              <LinearProgress
                variant="determinate"
                value={job.progress.total ? (job.progress.done / job.progress.total) * 100 : 0}
              />
              <Typography variant="caption">
                {translate('backtest.running', { done: job.progress.done, total: job.progress.total })}
              </Typography>
            </Box>
          ) : null}
          {job?.state === 'cancelled' ? <Alert severity="info">{translate('backtest.cancelled')}</Alert> : null}
          {job?.state === 'failed' ? (
            <Alert severity="error">{translate('backtest.failed', { error: job.error })}</Alert>
          ) : null}
          {job?.state === 'done' && job.result ? <BacktestResultView jobId={job.id} result={job.result} /> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button component={RouterLink} to={`/impact?scope=rule&id=${ruleId}`}>
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
