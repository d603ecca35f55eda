/**
 * One run opened in the Runs panel (`GET /api/rule_runs/{id}/`): its note or error, for a held run
 * the limits it crossed with Approve / Dismiss (or who decided), the problems that kept a task from
 * checking, and every ad or campaign the name filters matched with the metrics read and what each
 * active task decided about it, in words.
 */
import {
  Alert,
  Box,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { RunObjectDto, RunVerdict } from '../../domain/contracts';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpClient';
import { queryKeys } from '../../providers/queryKeys';
import { HeldRunDecision } from '../../resources/rule_log/HeldRunDecision';
import type { RuleRun } from '../../resources/rule_log/types';
import { metricsText } from './runText';

/** An acted verdict is the rule doing its job, not an error; the darker shades keep AA contrast. */
const VERDICT_COLOR: Partial<Record<RunVerdict, string>> = {
  acted: 'success.dark',
  held: 'warning.dark',
  would_act: 'info.dark',
};

function Verdicts({ verdicts }: { verdicts: RunObjectDto['verdicts'] }) {
  const translate = useTranslate();
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {Object.entries(verdicts).map(([task, verdict]) => (
        <Typography component="li" variant="caption" key={task} sx={{ display: 'block' }}>
          <Box component="span" sx={{ fontWeight: 600, color: VERDICT_COLOR[verdict] }}>
            {translate(`rules.editor.runs.verdicts.${verdict}`, { _: verdict })}
          </Box>
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {' — '}
            {translate(`activity.tasks.${task}`, { _: task })}
          </Box>
        </Typography>
      ))}
    </Box>
  );
}

function ObjectsTable({ objects }: { objects: RunObjectDto[] }) {
  const translate = useTranslate();
  if (!objects.length) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('rules.editor.runs.no_objects')}
      </Typography>
    );
  }
  return (
    <Table size="small" aria-label={translate('rules.editor.runs.object')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('rules.editor.runs.object')}</TableCell>
          <TableCell>{translate('rules.editor.runs.metrics')}</TableCell>
          <TableCell>{translate('rules.editor.runs.verdict')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {objects.map((object) => (
          <TableRow key={`${object.type}-${object.id}`} data-testid={`run-object-${object.id}`}>
            <TableCell sx={{ maxWidth: 280 }}>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {object.name}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {object.type} {object.id}
              </Typography>
            </TableCell>
            <TableCell sx={{ maxWidth: 260 }}>
              <Typography variant="caption">
                {metricsText(object.metrics, translate) ?? translate('rules.editor.runs.no_metrics')}
              </Typography>
            </TableCell>
            <TableCell>
              <Verdicts verdicts={object.verdicts} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function HeldLimits({ run }: { run: RuleRun }) {
  const translate = useTranslate();
  const limits = run.limits;
  return (
    <Alert
      severity="warning"
      action={<HeldRunDecision runId={run.id} decision={run.decision ?? 'pending'} decidedBy={run.decided_by} />}
    >
      {limits
        ? translate('rules.editor.runs.limits', {
            affected: limits.affected,
            delivering: limits.delivering,
            actions: limits.actions,
            share: Math.round(limits.max_share * 100),
            max: limits.max_actions,
          })
        : run.note}
    </Alert>
  );
}

export function RunDetail({ runId }: { runId: number }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const run = useQuery({
    queryKey: queryKeys.run(runId),
    queryFn: ({ signal }) => dataProvider.getRuleRun(runId, signal),
    retry: false,
  });
  if (run.error) return <Alert severity="error">{errorMessages(run.error).join(' ')}</Alert>;
  if (!run.data) return <LinearProgress />;
  const data = run.data;
  return (
    <Stack spacing={1} sx={{ py: 1 }} data-testid={`run-detail-${runId}`}>
      {data.outcome === 'held' ? (
        <HeldLimits run={data} />
      ) : data.note ? (
        <Typography variant="body2" color="text.secondary">
          {translate('rules.editor.runs.note', { note: data.note })}
        </Typography>
      ) : null}
      {data.error ? (
        <Alert severity="error">{translate('rules.editor.runs.error', { error: data.error })}</Alert>
      ) : null}
      {data.problems?.length ? (
        <Alert severity="warning">
          {translate('rules.editor.runs.problems', { problems: data.problems.join('; ') })}
        </Alert>
      ) : null}
      <ObjectsTable objects={data.objects ?? []} />
    </Stack>
  );
}
