/**
 * The "Try on history" dialog's state and flow: the folder's history coverage, the span asked for,
 * the backtest job (started with the editor's settings, polled while it runs, cancelled on demand),
 * filling the account's history when it has none, and the problems the server answered on the way.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider } from 'react-admin';
import type { BacktestJob } from '../../../shared/backtest';
import type { RuleJudging } from '../../../shared/judging';
import type { RuleAction } from '../../../shared/ruleActions';
import type { ConditionGroup } from '../../../shared/ruleConditions';
import type { EditorValues } from '../../../shared/ruleEditor';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpClient';
import { queryKeys } from '../../providers/queryKeys';
import type { BacktestRequestBody } from '../../providers/ruleMethods';

const POLL_MS = 400;

/** The rule a backtest tries: its saved ids and judging, and the editor's current settings. */
export interface BacktestSubject {
  ruleId: number;
  folderId: number;
  /** The rule's saved judging settings (they save on their own card). */
  judging: RuleJudging;
  values: Pick<EditorValues, 'name' | 'filters' | 'tasks' | 'schedule' | 'timezone'>;
  /** The editor's conditions and action (null: none); absent: the server tries the saved rule's. */
  conditions?: ConditionGroup | null;
  action?: RuleAction | null;
}

/** The request that tries the subject over the last `days` days. */
function backtestRequest(
  { ruleId, folderId, judging, values, conditions, action }: BacktestSubject,
  days: number,
): BacktestRequestBody {
  const conditionsAndAction = conditions !== undefined ? { conditions, action: action ?? null } : {};
  return {
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
  };
}

/** The job the dialog follows, as the server last told it: asked again every POLL_MS while it runs. */
function useFollowedJob() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [jobId, setJobId] = useState<string | null>(null);
  const jobQuery = useQuery({
    queryKey: queryKeys.backtest(jobId ?? ''),
    queryFn: ({ signal }) => dataProvider.getBacktest(jobId!, signal),
    enabled: jobId !== null,
    retry: false,
    refetchInterval: (query) => (query.state.data?.state === 'running' ? POLL_MS : false),
  });
  const job: BacktestJob | null = jobId === null ? null : (jobQuery.data ?? null);
  /** Follows the job the server answered with (started or cancelled). */
  const show = (answer: BacktestJob) => {
    queryClient.setQueryData(queryKeys.backtest(answer.id), answer);
    setJobId(answer.id);
  };
  return { job, error: jobQuery.error, show, forget: () => setJobId(null) };
}

export function useBacktestJob(subject: BacktestSubject) {
  const { folderId } = subject;
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [days, setDays] = useState<number>(7);
  const [problems, setProblems] = useState<string[]>([]);
  const [noHistory, setNoHistory] = useState(false);
  const [filling, setFilling] = useState(false);
  const coverageKey = ['history', folderId];
  const coverage = useQuery({
    queryKey: coverageKey,
    queryFn: ({ signal }) => dataProvider.getHistoryCoverage(folderId, signal),
    retry: false,
  });
  const followed = useFollowedJob();
  const { job } = followed;

  const run = async () => {
    setProblems([]);
    setNoHistory(false);
    followed.forget();
    try {
      followed.show(await dataProvider.startBacktest(backtestRequest(subject, days)));
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
    if (job) followed.show(await dataProvider.cancelBacktest(job.id));
  };

  return {
    days,
    setDays,
    coverage: coverage.data,
    job,
    running: job?.state === 'running',
    problems: followed.error ? [...problems, ...errorMessages(followed.error)] : problems,
    noHistory,
    filling,
    run,
    fill,
    cancel,
  };
}
