/**
 * The rule editor's Runs panel: the rule's last runs, newest first, 10 a page (when, why, outcome,
 * counts); a row opens to the run's detail. `?run={id}` in the address (Activity's link to a run)
 * opens that run and brings the panel into view.
 */
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  Alert,
  Box,
  Chip,
  Collapse,
  IconButton,
  LinearProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
  type ChipProps,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Fragment, useEffect, useRef, useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import type { RunOutcome } from '../../../shared/contracts';
import { formatDateTime } from '../../layout/dateFormat';
import { StackedDateTime } from '../../layout/list';
import { useNarrowScreen } from '../../layout/RowActions';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpClient';
import { queryKeys } from '../../providers/queryKeys';
import type { RuleRun } from '../../../shared/ruleRuns';
import { RunDetail } from './RunDetail';
import { countsText } from '../../layout/runs/runText';

export const RUNS_PAGE_SIZE = 10;

const OUTCOME_COLOR: Record<RunOutcome, ChipProps['color']> = {
  done: 'success',
  held: 'warning',
  failed: 'error',
  partly_failed: 'error',
  notify_only: 'info',
  skipped: 'default',
  running: 'default',
  unhealthy: 'warning',
};

/** A held run reads as what became of it once someone decided: approved or dismissed, not still held. */
function OutcomeChip({ run }: { run: RuleRun }) {
  const translate = useTranslate();
  const outcome = run.outcome ?? 'done';
  const decided = outcome === 'held' && (run.decision === 'approved' || run.decision === 'dismissed');
  const status = decided ? `held_${run.decision}` : outcome;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={decided ? (run.decision === 'approved' ? 'success' : 'default') : OUTCOME_COLOR[outcome]}
      label={translate(`rules.editor.runs.outcomes.${status}`, { _: outcome })}
    />
  );
}

function RunRow({ run, open, onToggle, phone }: { run: RuleRun; open: boolean; onToggle: () => void; phone: boolean }) {
  const translate = useTranslate();
  const why = translate(`rules.editor.runs.triggers.${run.trigger ?? 'schedule'}`, { _: run.trigger });
  const label = translate(open ? 'rules.editor.runs.close' : 'rules.editor.runs.open', { id: run.id });
  return (
    <Fragment>
      <TableRow hover onClick={onToggle} sx={{ cursor: 'pointer', '& > td': { borderBottom: open ? 0 : undefined } }}>
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-label={label}
            aria-expanded={open}
            onClick={(event) => {
              event.stopPropagation();
              onToggle();
            }}
          >
            {open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
          </IconButton>
        </TableCell>
        <TableCell>
          <StackedDateTime value={formatDateTime(run.started_at)} />
          {phone ? (
            <Typography variant="caption" component="div" color="text.secondary">
              {why}
            </Typography>
          ) : null}
        </TableCell>
        {phone ? null : <TableCell>{why}</TableCell>}
        <TableCell>
          <OutcomeChip run={run} />
        </TableCell>
        <TableCell>
          <Typography variant="body2">{countsText(run.counts, translate)}</Typography>
        </TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={phone ? 4 : 5} sx={{ py: 0, ...(open ? {} : { borderBottom: 0 }) }}>
          <Collapse in={open} unmountOnExit>
            <RunDetail runId={run.id} />
          </Collapse>
        </TableCell>
      </TableRow>
    </Fragment>
  );
}

export function RunsPanel({ ruleId }: { ruleId: number }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [searchParams] = useSearchParams();
  const linked = Number(searchParams.get('run')) || null;
  const [opened, setOpened] = useState<number | null>(linked);
  const [page, setPage] = useState(0);
  const panel = useRef<HTMLDivElement>(null);
  // On a phone the trigger goes under the time, so the table fits the screen.
  const phone = useNarrowScreen();
  const runs = useQuery({
    queryKey: queryKeys.runPages(ruleId, page * RUNS_PAGE_SIZE),
    queryFn: ({ signal }) =>
      dataProvider.getRuleRuns(ruleId, { limit: RUNS_PAGE_SIZE, offset: page * RUNS_PAGE_SIZE, signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });

  useEffect(() => {
    if (linked) panel.current?.scrollIntoView?.({ block: 'start' });
  }, [linked]);

  const results = runs.data?.results ?? [];
  // A run linked from Activity that is not on this page still opens, above the list.
  const openedElsewhere = opened !== null && runs.data && !results.some((r) => r.id === opened);
  return (
    <Box ref={panel} sx={{ scrollMarginTop: 120 }}>
      {runs.error ? <Alert severity="error">{errorMessages(runs.error).join(' ')}</Alert> : null}
      {runs.isPending ? <LinearProgress aria-label={translate('rules.editor.runs.loading')} /> : null}
      {openedElsewhere ? (
        <Paper variant="outlined" sx={{ px: 2, mb: 1 }}>
          <Typography variant="subtitle2" sx={{ pt: 1 }}>
            {translate('rules.editor.runs.open', { id: opened })}
          </Typography>
          <RunDetail runId={opened} />
        </Paper>
      ) : null}
      {runs.data && !runs.data.count ? (
        <Typography variant="body2" color="text.secondary">
          {translate('rules.editor.runs.empty')}
        </Typography>
      ) : null}
      {results.length ? (
        <>
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label={translate('rules.editor.runs.title')}>
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox" />
                  <TableCell>{translate('rules.editor.runs.when')}</TableCell>
                  {phone ? null : <TableCell>{translate('rules.editor.runs.why')}</TableCell>}
                  <TableCell>{translate('rules.editor.runs.outcome')}</TableCell>
                  <TableCell>{translate('rules.editor.runs.counts')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {results.map((run) => (
                  <RunRow
                    key={run.id}
                    run={run}
                    phone={phone}
                    open={opened === run.id}
                    onToggle={() => setOpened((current) => (current === run.id ? null : run.id))}
                  />
                ))}
              </TableBody>
            </Table>
          </Box>
          {runs.data && runs.data.count > RUNS_PAGE_SIZE ? (
            <TablePagination
              component="div"
              count={runs.data.count}
              page={page}
              rowsPerPage={RUNS_PAGE_SIZE}
              rowsPerPageOptions={[RUNS_PAGE_SIZE]}
              onPageChange={(_event, next) => setPage(next)}
            />
          ) : null}
        </>
      ) : null}
    </Box>
  );
}
