/**
 * One run opened in the Runs panel (`GET /api/rule_runs/{id}/`): its note or error, for a held run
 * the limits it crossed and the money it would move with Approve / Dismiss (or who decided), the
 * problems that kept a task from checking, the budget changes it made (or would make) with their
 * money line, and every ad or campaign the name filters matched — by name, with its campaign, the
 * value that crossed, the metrics read, its conditions as judged and what each active task decided
 * about it, in words.
 */
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  Alert,
  Box,
  Button,
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
import { Fragment, useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import type { RunObjectDto, RunVerdict } from '../../../shared/contracts';
import type { AppDataProvider } from '../../providers/dataProvider';
import { useNarrowScreen } from '../../layout/RowActions';
import { errorMessages } from '../../providers/httpClient';
import { queryKeys } from '../../providers/queryKeys';
import { BudgetChangesSection } from '../../layout/runs/BudgetChanges';
import { ConditionValues } from '../../layout/runs/ConditionValues';
import { HeldRunDecision } from '../../layout/runs/HeldRunDecision';
import { RunAdsLinks } from '../../layout/AdsLinks';
import type { RuleRun } from '../../../shared/ruleRuns';
import { heldMoneyLines, metricsText } from '../../layout/runs/runText';

/** An acted verdict is the rule doing its job, not an error; the darker shades keep AA contrast. */
const VERDICT_COLOR: Partial<Record<RunVerdict, string>> = {
  acted: 'success.dark',
  held: 'warning.dark',
  would_act: 'info.dark',
};

type Decision = RuleRun['decision'];

/** A held object's verdict once a person decided the run: what happened, not "Held" forever. */
const shownVerdict = (verdict: RunVerdict, decision: Decision) =>
  verdict === 'held' && (decision === 'approved' || decision === 'dismissed') ? (`held_${decision}` as const) : verdict;

const DECIDED_COLOR = { held_approved: 'success.dark', held_dismissed: 'text.secondary' } as const;

function Verdicts({ verdicts, decision }: { verdicts: RunObjectDto['verdicts']; decision: Decision }) {
  const translate = useTranslate();
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {Object.entries(verdicts).map(([task, verdict]) => {
        const shown = shownVerdict(verdict, decision);
        const color = shown === verdict ? VERDICT_COLOR[verdict] : DECIDED_COLOR[shown as keyof typeof DECIDED_COLOR];
        return (
          <Typography component="li" variant="caption" key={task} sx={{ display: 'block' }}>
            <Box component="span" sx={{ fontWeight: 600, color }}>
              {translate(`rules.editor.runs.verdicts.${shown}`, { _: shown })}
            </Box>
            <Box component="span" sx={{ color: 'text.secondary' }}>
              {' — '}
              {translate(`activity.tasks.${task}`, { _: task })}
            </Box>
          </Typography>
        );
      })}
    </Box>
  );
}

/** Verdicts that mean the rule acted (or would have): those objects lead the list. */
const ACTING = new Set<RunVerdict>(['acted', 'held', 'would_act', 'revived']);
const acting = (object: RunObjectDto) => Object.values(object.verdicts).some((v) => ACTING.has(v));

/** The object's name, then its campaign's, then its id: what a person recognises first. */
function ObjectName({ object }: { object: RunObjectDto }) {
  const translate = useTranslate();
  return (
    <>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere', fontWeight: 500 }}>
        {object.name}
      </Typography>
      {object.type === 'ad' && object.campaign_name ? (
        <Typography variant="caption" component="div" sx={{ overflowWrap: 'anywhere' }}>
          {translate('rules.editor.runs.in_campaign', { name: object.campaign_name })}
        </Typography>
      ) : null}
      <Typography variant="caption" component="div" color="text.secondary">
        {translate(`rules.editor.runs.object_id.${object.type}`, { id: object.id })}
      </Typography>
    </>
  );
}

/**
 * What crossed the threshold: each comparison (or a 0 the task looks for: "Leads 0") in bold, what
 * stands beside it (the raw CPL, how many registrants came) in plain type, every part kept whole on
 * its line as the cell wraps.
 */
function Crossed({ text }: { text: string }) {
  return (
    <Typography variant="body2">
      {text.split(' · ').map((part, index) => (
        <Fragment key={part}>
          {index ? ' · ' : null}
          <Box component="span" sx={{ display: 'inline-block', fontWeight: /[<>≤≥]| 0$/.test(part) ? 600 : undefined }}>
            {part}
          </Box>
        </Fragment>
      ))}
    </Typography>
  );
}

/** What crossed the threshold, then the metrics read. */
function ObjectMetrics({ object }: { object: RunObjectDto }) {
  const translate = useTranslate();
  const metrics = metricsText(object.metrics, translate);
  return (
    <>
      {object.crossed ? <Crossed text={object.crossed} /> : null}
      {/* An ad set or campaign judged by conditions has their values for metrics. */}
      {metrics || !object.conditions?.length ? (
        <Typography variant="caption" component="div">
          {metrics ?? translate('rules.editor.runs.no_metrics')}
        </Typography>
      ) : null}
      <ConditionValues values={object.conditions} />
    </>
  );
}

function ObjectRows({ objects, phone, decision }: { objects: RunObjectDto[]; phone: boolean; decision: Decision }) {
  return objects.map((object) => (
    <TableRow key={`${object.type}-${object.id}`} data-testid={`run-object-${object.id}`}>
      {phone ? (
        <TableCell sx={{ px: 1 }}>
          <Stack spacing={0.5}>
            <Box>
              <ObjectName object={object} />
            </Box>
            <Box>
              <ObjectMetrics object={object} />
            </Box>
            <Verdicts verdicts={object.verdicts} decision={decision} />
          </Stack>
        </TableCell>
      ) : (
        <>
          <TableCell sx={{ maxWidth: 280 }}>
            <ObjectName object={object} />
          </TableCell>
          <TableCell sx={{ maxWidth: 260 }}>
            <ObjectMetrics object={object} />
          </TableCell>
          <TableCell>
            <Verdicts verdicts={object.verdicts} decision={decision} />
          </TableCell>
        </>
      )}
    </TableRow>
  ));
}

/**
 * The objects the run looked at: those it acted on first; those without data folded behind their
 * count (an account holds many ads that did not deliver). On a phone each object is one cell.
 */
function ObjectsTable({ objects, decision }: { objects: RunObjectDto[]; decision: Decision }) {
  const translate = useTranslate();
  const phone = useNarrowScreen();
  const [showEmpty, setShowEmpty] = useState(false);
  if (!objects.length) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('rules.editor.runs.no_objects')}
      </Typography>
    );
  }
  const withData = objects.filter((o) => o.metrics !== null || acting(o));
  const sorted = [...withData.filter(acting), ...withData.filter((o) => !acting(o))];
  const withoutData = objects.filter((o) => !withData.includes(o));
  const onlyAds = withoutData.every((o) => o.type === 'ad');
  return (
    <Box>
      <Table size="small" aria-label={translate('rules.editor.runs.object')}>
        <TableHead>
          <TableRow>
            <TableCell sx={phone ? { px: 1 } : undefined}>{translate('rules.editor.runs.object')}</TableCell>
            {phone ? null : <TableCell>{translate('rules.editor.runs.metrics')}</TableCell>}
            {phone ? null : <TableCell>{translate('rules.editor.runs.verdict')}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          <ObjectRows objects={sorted} phone={phone} decision={decision} />
          {showEmpty ? <ObjectRows objects={withoutData} phone={phone} decision={decision} /> : null}
        </TableBody>
      </Table>
      {withoutData.length ? (
        <Button
          size="small"
          sx={{ mt: 0.5 }}
          aria-expanded={showEmpty}
          startIcon={showEmpty ? <ExpandLessIcon /> : <ExpandMoreIcon />}
          onClick={() => setShowEmpty((shown) => !shown)}
        >
          {translate(`rules.editor.runs.${showEmpty ? 'hide' : 'show'}_without_data.${onlyAds ? 'ads' : 'objects'}`, {
            smart_count: withoutData.length,
          })}
        </Button>
      ) : null}
    </Box>
  );
}

function HeldLimits({ run }: { run: RuleRun }) {
  const translate = useTranslate();
  const limits = run.limits;
  const money = heldMoneyLines(run, translate);
  // A run held for the money it adds turns nothing off: the turn-off count would only mislead.
  const heldForMoney = money.length > 0 && limits?.affected === 0;
  return (
    // The decision sits under the text, not beside it, so a phone shows Approve and Dismiss whole.
    <Alert severity="warning">
      {heldForMoney
        ? null
        : limits
          ? translate('rules.editor.runs.limits', {
              affected: limits.affected,
              delivering: limits.delivering,
              actions: limits.actions,
              share: Math.round(limits.max_share * 100),
              max: limits.max_actions,
            })
          : run.note}
      {money.map((line, index) => (
        <Typography
          key={line}
          variant="body2"
          sx={{ fontWeight: index ? undefined : 700, mt: index || heldForMoney ? 0 : 0.5 }}
        >
          {line}
        </Typography>
      ))}
      <Box sx={{ mt: 1 }}>
        <HeldRunDecision runId={run.id} decision={run.decision ?? 'pending'} decidedBy={run.decided_by} stake={money} />
      </Box>
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
      <BudgetChangesSection changes={data.budget_changes} money={data.money} />
      <RunAdsLinks runId={runId} ruleId={data.rule_id} />
      {/* An approval judges nothing (it carries out the held run's plan): no "matched nothing" under its changes. */}
      {data.objects?.length || (data.trigger !== 'approval' && !data.budget_changes?.length) ? (
        <ObjectsTable objects={data.objects ?? []} decision={data.decision} />
      ) : null}
    </Stack>
  );
}
