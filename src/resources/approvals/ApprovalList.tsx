/**
 * Approvals (/approvals): every held run waiting for a decision that the signed-in person may
 * decide, most money at stake first. On a desktop a table, on a phone a card per run; Approve and
 * Dismiss in place (the Activity's HeldRunDecision: Approve asks first), Approve disabled with the
 * reason when the run releases more a day than the person's group may approve.
 */
import { Box, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import {
  Datagrid,
  ListBase,
  Pagination,
  RecordContextProvider,
  useListContext,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { perDayText, waitedText, type ApprovalDto } from '../../../shared/approvals';
import { ListEmpty, ListErrors, listErrorsQueryOptions, UnlessListFailed } from '../../layout/list';
import { formatDateTime } from '../../layout/dateFormat';
import { PageTitle } from '../../layout/pageTitle';
import { useNarrowScreen } from '../../layout/RowActions';
import { HeldRunDecision } from '../../layout/runs/HeldRunDecision';

const text = (key: string) => `resources.approvals.${key}`;

/** "$1,240/day at stake" over what it is made of. */
function MoneyField(_props: { label?: string }) {
  const translate = useTranslate();
  const run = useRecordContext<ApprovalDto>();
  if (!run) return null;
  const amount = (n: number) => perDayText(n, run.currency).replace(/\/day$/, '');
  const parts = [
    run.spend_stopped_per_day > 0 || !run.budget_added_per_day
      ? translate(text(run.spend_estimated ? 'spend_stopped_estimated' : 'spend_stopped'), {
          amount: amount(run.spend_stopped_per_day),
        })
      : null,
    run.budget_added_per_day > 0 ? translate(text('budget_added'), { amount: amount(run.budget_added_per_day) }) : null,
  ].filter(Boolean);
  return (
    <Box sx={{ minWidth: 190 }}>
      <Typography variant="body2" fontWeight={600}>
        {translate(text('money'), { amount: amount(run.money_at_stake_per_day) })}
      </Typography>
      {parts.map((part) => (
        <Typography key={part} variant="caption" color="text.secondary" component="div">
          {part}
        </Typography>
      ))}
    </Box>
  );
}

/** The rule (a link to the run in the rule editor) over its folder and ad account. */
function RuleFolderField(_props: { label?: string }) {
  const translate = useTranslate();
  const run = useRecordContext<ApprovalDto>();
  if (!run) return null;
  return (
    <Box sx={{ minWidth: 160 }}>
      <Link
        component={RouterLink}
        to={`/edit-rule/${run.rule_id}?run=${run.id}`}
        variant="body2"
        aria-label={translate(text('open_run'), { id: run.id, rule: run.rule_name })}
      >
        {run.rule_name}
      </Link>
      <Typography variant="caption" color="text.secondary" component="div">
        {run.folder_name} · {run.ad_account_name}
      </Typography>
    </Box>
  );
}

/** How many objects, the first few named with what would happen to each, and why it was held. */
function ObjectsField({ shown = 3 }: { label?: string; shown?: number }) {
  const translate = useTranslate();
  const run = useRecordContext<ApprovalDto>();
  if (!run) return null;
  const listed = run.objects.slice(0, shown);
  const more = run.object_count - listed.length;
  return (
    <Box sx={{ minWidth: 180, maxWidth: 420 }}>
      <Typography variant="body2">{translate(text('objects'), { smart_count: run.object_count })}</Typography>
      {listed.map((o) => (
        <Typography
          key={`${o.change}-${o.id}`}
          variant="caption"
          color="text.secondary"
          component="div"
          sx={{ overflowWrap: 'anywhere' }}
        >
          {translate(text(`changes.${o.change}`), { _: o.change.replaceAll('_', ' ') })}: {o.name}
          {o.name === o.id ? '' : ` (${o.id})`}
        </Typography>
      ))}
      {more > 0 ? (
        <Typography variant="caption" color="text.secondary" component="div">
          {translate(text('more_objects'), { smart_count: more })}
        </Typography>
      ) : null}
      {run.held_because ? (
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 0.5 }}>
          {translate(text('held_because'), { reason: run.held_because })}
        </Typography>
      ) : null}
    </Box>
  );
}

function WaitedField(_props: { label?: string }) {
  const translate = useTranslate();
  const run = useRecordContext<ApprovalDto>();
  if (!run) return null;
  return (
    <Box sx={{ whiteSpace: 'nowrap' }}>
      <Typography variant="body2">{translate(text('waited'), { time: waitedText(run.waited_seconds) })}</Typography>
      <Typography variant="caption" color="text.secondary" component="div">
        {formatDateTime(run.held_at)}
      </Typography>
    </Box>
  );
}

function DecisionField(_props: { label?: string }) {
  const translate = useTranslate();
  const run = useRecordContext<ApprovalDto>();
  if (!run) return null;
  const stake = translate(text('money'), {
    amount: perDayText(run.money_at_stake_per_day, run.currency).replace(/\/day$/, ''),
  });
  return <HeldRunDecision runId={run.id} decision="pending" stake={[`${stake}.`]} refusal={run.approve_refusal} />;
}

function NothingWaiting() {
  const translate = useTranslate();
  return <ListEmpty message={text('empty')} detail={translate(text('about'))} />;
}

/** A phone's list: one card per held run, its money first. */
function ApprovalCards() {
  const translate = useTranslate();
  const { data, isPending } = useListContext<ApprovalDto>();
  if (isPending) return null;
  if (!data?.length)
    return (
      <Card variant="outlined">
        <NothingWaiting />
      </Card>
    );
  return (
    <Stack spacing={1.5} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={translate(text('page'))}>
      {data.map((run) => (
        <RecordContextProvider key={run.id} value={run}>
          <Card variant="outlined" component="li">
            <CardContent sx={{ '&:last-child': { pb: 2 } }}>
              <Stack spacing={1.25}>
                <Stack direction="row" justifyContent="space-between" alignItems="flex-start" spacing={1}>
                  <MoneyField />
                  <WaitedField />
                </Stack>
                <RuleFolderField />
                <ObjectsField shown={2} />
                <DecisionField />
              </Stack>
            </CardContent>
          </Card>
        </RecordContextProvider>
      ))}
    </Stack>
  );
}

export default function ApprovalList() {
  const phone = useNarrowScreen();
  return (
    <ListBase resource="approvals" perPage={25} queryOptions={listErrorsQueryOptions} disableSyncWithLocation>
      <PageTitle title={text('page')} />
      <ListErrors />
      <UnlessListFailed>
        {phone ? (
          <ApprovalCards />
        ) : (
          <Card variant="outlined">
            <Datagrid bulkActionButtons={false} rowClick={false} empty={<NothingWaiting />}>
              <MoneyField label={text('fields.money')} />
              <RuleFolderField label={text('fields.rule')} />
              <ObjectsField label={text('fields.objects')} />
              <WaitedField label={text('fields.waited')} />
              <DecisionField label={text('fields.decision')} />
            </Datagrid>
          </Card>
        )}
        <Pagination rowsPerPageOptions={[25, 50, 100]} />
      </UnlessListFailed>
    </ListBase>
  );
}
