/**
 * Preview and Run now for one rule (create_update_rules), in the rule editor and on the general
 * view's rule rows. Preview is a dry run through the engine's evaluator: what the rule would turn
 * off right now and why (a budget rule: the changes it would make and the money they move, each
 * object's conditions as judged), changing nothing. Run now asks first — with Preview's answer: how
 * many ads and campaigns it would turn off (or budgets change), by name, and whether the
 * blast-radius limit would hold the run for approval — then runs, and shows what it turned off.
 * On a phone (below MUI's sm) the dialog takes the whole screen and lists the objects as cards
 * (action, name with campaign and id beneath, task, reasons) instead of the four-column table.
 */
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { errorMessages } from '../../providers/httpClient';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';
import { usePermission } from '../../providers/usePermissions';
import { RowAction, useNarrowScreen } from '../RowActions';
import { BudgetChangesSection } from './BudgetChanges';
import { PreviewConditions } from './ConditionValues';
import { ReasonList } from './ReasonList';
import { RunPlan } from './RunPlan';
import { actionText, entryObjectName } from './activityEntries';
import type { PreviewResult, RunNowResult } from '../../../shared/ruleRuns';

type Step =
  | { step: 'closed' }
  | { step: 'previewing' }
  | { step: 'preview'; preview: PreviewResult }
  /** Run now asks Preview what the run would do before asking for the go-ahead. */
  | { step: 'checking' }
  | { step: 'confirm'; plan: PreviewResult | null; problem?: string }
  | { step: 'running' }
  | { step: 'ran'; result: RunNowResult }
  | { step: 'failed'; messages: string[] };

interface Row {
  key: string;
  action: string;
  id: string;
  /** The ad's (or campaign's) name and its campaign's, shown before the id. */
  name?: string;
  campaign?: string;
  task?: string;
  reason: Record<string, string>;
}

/** Names first, the id beneath for whoever needs to find it in Ads Manager. */
function ObjectCell({ row }: { row: Row }) {
  return (
    <TableCell sx={{ minWidth: 160, overflowWrap: 'anywhere' }}>
      {row.name ? <Typography variant="body2">{row.name}</Typography> : null}
      <Typography variant="caption" color="text.secondary" component="div">
        {[row.campaign, row.id].filter(Boolean).join(' · ')}
      </Typography>
    </TableCell>
  );
}

/** A reason without the names the object's cell already shows. */
const withoutNames = ({ Ad: _ad, Campaign: _campaign, ...rest }: Record<string, string>) => rest;

/** The object's name, and its campaign and id beneath, on a phone's card. */
function ObjectLines({ row }: { row: Row }) {
  return (
    <Box sx={{ overflowWrap: 'anywhere' }}>
      {row.name ? (
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {row.name}
        </Typography>
      ) : null}
      <Typography variant="caption" color="text.secondary" component="div">
        {[row.campaign, row.id].filter(Boolean).join(' · ')}
      </Typography>
    </Box>
  );
}

/**
 * What the rule would do (or the run did): a table of action, object, task and reasons where there
 * is room; on a phone, a list of cards with the same, one per object.
 */
function ResultTable({ rows, withTask, label }: { rows: Row[]; withTask: boolean; label: string }) {
  const translate = useTranslate();
  const phone = useNarrowScreen();
  const actionOf = (row: Row) => translate(`activity.actions.${row.action}`, { _: actionText(row.action) });
  const taskOf = (row: Row) => translate(`activity.tasks.${row.task}`, { _: row.task });
  const reasonOf = (row: Row) => (row.name ? withoutNames(row.reason) : row.reason);
  if (phone) {
    return (
      <List aria-label={translate(label)} disablePadding sx={{ display: 'grid', gap: 1 }}>
        {rows.map((row) => (
          <ListItem key={row.key} disablePadding sx={{ display: 'block' }}>
            <Paper variant="outlined" sx={{ p: 1.5 }}>
              <Stack spacing={0.5}>
                <Typography variant="subtitle2" component="div">
                  {actionOf(row)}
                </Typography>
                <ObjectLines row={row} />
                {withTask && row.task ? (
                  <Typography variant="caption" component="div">
                    {translate('activity.preview.card_task', { task: taskOf(row) })}
                  </Typography>
                ) : null}
                <ReasonList reason={reasonOf(row)} />
              </Stack>
            </Paper>
          </ListItem>
        ))}
      </List>
    );
  }
  return (
    <Table size="small" aria-label={translate('activity.preview.columns.info')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('activity.preview.columns.action')}</TableCell>
          <TableCell>{translate('activity.preview.columns.id')}</TableCell>
          {withTask ? <TableCell>{translate('activity.preview.columns.task')}</TableCell> : null}
          <TableCell>{translate('activity.preview.columns.info')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.key}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{actionOf(row)}</TableCell>
            <ObjectCell row={row} />
            {withTask ? <TableCell>{taskOf(row)}</TableCell> : null}
            <TableCell>
              <ReasonList reason={reasonOf(row)} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function PreviewBody({ preview }: { preview: PreviewResult }) {
  const translate = useTranslate();
  const rows = preview.results.map((r) => ({
    key: `${r.action}-${r.ad_id}`,
    action: r.action,
    id: r.ad_id,
    name: r.ad_name,
    campaign: r.action === 'turn_off_ad' ? r.campaign_name : undefined,
    task: r.task,
    reason: r.reason,
  }));
  return (
    <Stack spacing={2}>
      {/* A budget rule that turns nothing off leads with its money line instead. */}
      {rows.length || !preview.budget_changes ? (
        <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
          {translate('activity.preview.total', { count: preview.count, delivering: preview.delivering })}
        </Typography>
      ) : null}
      <Typography variant="body2">
        {translate(
          rows.length || !preview.budget_changes ? 'activity.preview.intro' : 'activity.preview.intro_budget',
          {
            account: preview.account.account_name,
          },
        )}
      </Typography>
      {preview.hold?.held ? (
        <Alert severity="warning">{translate('activity.run.plan_held', { summary: preview.hold.summary })}</Alert>
      ) : null}
      <BudgetChangesSection changes={preview.budget_changes} money={preview.money} />
      {rows.length ? (
        <ResultTable rows={rows} withTask label="activity.preview.cards" />
      ) : preview.budget_changes?.length ? null : (
        <Alert severity="success">{translate('activity.preview.nothing')}</Alert>
      )}
      {preview.conditions?.length ? <PreviewConditions objects={preview.conditions} /> : null}
      {preview.exempt.length ? (
        <Alert severity="info">{translate('activity.preview.exempt', { ids: preview.exempt.join(', ') })}</Alert>
      ) : null}
      {preview.problems.length ? (
        <Alert severity="warning">
          {translate('activity.preview.problems', { problems: preview.problems.join('; ') })}
        </Alert>
      ) : null}
    </Stack>
  );
}

function RunBody({ result }: { result: RunNowResult }) {
  const translate = useTranslate();
  if (result.status === 'in_progress') return <Alert severity="info">{translate('activity.run.busy')}</Alert>;
  if (result.status === 'notify_only' || result.status === 'held') {
    return (
      <Alert severity={result.status === 'held' ? 'warning' : 'info'}>
        {translate(`activity.run.${result.status}`)}
        <Typography variant="caption" component="div">
          {result.detail}
        </Typography>
      </Alert>
    );
  }
  const rows = result.results.map((e) => ({
    key: String(e.id),
    action: e.action,
    id: e.ad_id ?? '',
    name: entryObjectName(e),
    campaign: e.object_type === 'campaign' ? undefined : e.reason.Campaign,
    reason: e.reason,
  }));
  return (
    <Stack spacing={2}>
      {result.turned_off ? (
        <Alert severity="success">{translate('activity.run.result', { smart_count: result.turned_off })}</Alert>
      ) : null}
      {result.failed ? (
        <Alert severity="error">{translate('activity.run.result_failed', { smart_count: result.failed })}</Alert>
      ) : null}
      {!result.turned_off && !result.failed ? (
        <Alert severity="success">{translate('activity.run.nothing')}</Alert>
      ) : null}
      {rows.length ? <ResultTable rows={rows} withTask={false} label="activity.run.cards" /> : null}
    </Stack>
  );
}

function Trigger({
  compact,
  label,
  text,
  icon,
  onClick,
}: {
  compact: boolean;
  label: string;
  text: string;
  icon: ReactNode;
  onClick: () => void;
}) {
  if (compact) return <RowAction label={label} icon={icon} onClick={onClick} />;
  return (
    <Button
      startIcon={icon}
      aria-label={label}
      onClick={(event: MouseEvent) => {
        event.stopPropagation();
        onClick();
      }}
    >
      {text}
    </Button>
  );
}

export function RuleRunActions({
  ruleId,
  name,
  compact = false,
  changes = false,
}: {
  ruleId: number;
  name: string;
  compact?: boolean;
  /** The rule's action changes budgets or turns things on: Preview says "would change", not "would turn off". */
  changes?: boolean;
}) {
  const translate = useTranslate();
  const allowed = usePermission('create_update_rules');
  // On a phone the dialog takes the whole screen, its results as cards.
  const fullScreen = useNarrowScreen();
  const [state, setState] = useState<Step>({ step: 'closed' });
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  // A run writes Activity entries and a run record: both lists load again when shown.
  const runNow = useMutation({
    mutationFn: () => dataProvider.runRuleNow(ruleId),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.activity }),
        queryClient.invalidateQueries({ queryKey: queryKeys.runs }),
      ]),
  });

  useEffect(() => {
    if (state.step !== 'previewing' && state.step !== 'checking') return undefined;
    const forRun = state.step === 'checking';
    const controller = new AbortController();
    dataProvider
      .previewRule(ruleId, controller.signal)
      .then((preview) => setState(forRun ? { step: 'confirm', plan: preview } : { step: 'preview', preview }))
      .catch((error) => {
        if (controller.signal.aborted) return;
        const messages = errorMessages(error);
        // Run now stays possible when the check fails: the confirmation says it could not tell.
        setState(forRun ? { step: 'confirm', plan: null, problem: messages.join(' ') } : { step: 'failed', messages });
      });
    return () => controller.abort();
  }, [state.step, ruleId, dataProvider]);

  if (!allowed) return null;

  const run = async () => {
    setState({ step: 'running' });
    try {
      setState({ step: 'ran', result: await runNow.mutateAsync() });
    } catch (error) {
      setState({ step: 'failed', messages: errorMessages(error) });
    }
  };
  const close = () => setState({ step: 'closed' });
  const busy = state.step === 'previewing' || state.step === 'checking' || state.step === 'running';
  const isRun =
    state.step === 'checking' || state.step === 'confirm' || state.step === 'running' || state.step === 'ran';
  const title = translate(
    state.step === 'ran' ? 'activity.run.done_title' : isRun ? 'activity.run.title' : 'activity.preview.title',
    { name },
  );

  return (
    <>
      <Trigger
        compact={compact}
        label={translate(changes ? 'activity.preview.label_changes' : 'activity.preview.label', { name })}
        text={translate('activity.preview.button')}
        icon={<VisibilityOutlinedIcon fontSize={compact ? 'small' : 'medium'} />}
        onClick={() => setState({ step: 'previewing' })}
      />
      <Trigger
        compact={compact}
        label={translate('activity.run.label', { name })}
        text={translate('activity.run.button')}
        icon={<PlayArrowIcon fontSize={compact ? 'small' : 'medium'} />}
        onClick={() => setState({ step: 'checking' })}
      />
      <Dialog
        open={state.step !== 'closed'}
        onClose={busy ? undefined : close}
        onClick={(e) => e.stopPropagation()}
        maxWidth="md"
        fullWidth
        fullScreen={fullScreen}
      >
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          {busy ? (
            <Stack spacing={1}>
              <Typography variant="body2">
                {translate(
                  state.step === 'running'
                    ? 'activity.run.running'
                    : state.step === 'checking'
                      ? 'activity.run.checking'
                      : 'activity.preview.loading',
                )}
              </Typography>
              <LinearProgress />
            </Stack>
          ) : null}
          {state.step === 'preview' ? <PreviewBody preview={state.preview} /> : null}
          {state.step === 'confirm' ? <RunPlan plan={state.plan} problem={state.problem} /> : null}
          {state.step === 'ran' ? <RunBody result={state.result} /> : null}
          {state.step === 'failed' ? (
            <Alert severity="error">
              {state.messages.map((m) => (
                <div key={m}>{m}</div>
              ))}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          {state.step === 'ran' ? (
            <Button component={RouterLink} to={`/activity?rule_id=${ruleId}`} onClick={close}>
              {translate('activity.run.open_activity')}
            </Button>
          ) : null}
          <Button onClick={close} disabled={busy}>
            {translate(state.step === 'confirm' || state.step === 'checking' ? 'activity.cancel' : 'activity.close')}
          </Button>
          {state.step === 'confirm' ||
          (state.step === 'preview' && (state.preview.count > 0 || Boolean(state.preview.budget_changes?.length))) ? (
            <Button variant="contained" startIcon={<PlayArrowIcon />} onClick={run}>
              {translate('activity.run.confirm')}
            </Button>
          ) : null}
        </DialogActions>
      </Dialog>
    </>
  );
}
