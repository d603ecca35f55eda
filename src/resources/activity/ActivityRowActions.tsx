/**
 * Row actions of the Activity list: Undo a turn-off (turn it back on and exempt it from that rule),
 * on the undo's entry remove the exemption again (both create_update_rules); a held run's Approve /
 * Dismiss or its decision; a link to the run that wrote the entry, in the rule editor's Runs panel;
 * and an ad's entry's link to the ad as it is now, in the ads list.
 */
import UndoIcon from '@mui/icons-material/Undo';
import ReplayIcon from '@mui/icons-material/Replay';
import ManageSearchIcon from '@mui/icons-material/ManageSearch';
import { Button, IconButton, Stack, Tooltip } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Confirm, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import { errorMessages } from '../../providers/httpClient';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';
import { usePermission } from '../../providers/usePermissions';
import { heldMoneyLines } from '../../layout/runs/runText';
import { HeldRunDecision } from '../../layout/runs/HeldRunDecision';
import { EntryAdLink } from '../../layout/AdsLinks';
import { entryObjectName, isUndoable } from '../../layout/runs/activityEntries';
import type { ActivityEntry } from '../../../shared/ruleRuns';

function useAction() {
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  /** `done` is a message key; the server's own words are shown as they are. */
  const run = async (call: (provider: AppDataProvider) => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await call(dataProvider);
      notify(done, { type: 'success', autoHideDuration: SNACKBAR_TIMEOUT_MS });
      refresh();
    } catch (error) {
      const text = errorMessages(error).join(' ');
      notify(text, { type: 'error', autoHideDuration: SNACKBAR_TIMEOUT_MS, messageArgs: { _: text } });
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

function UndoButton({ entry }: { entry: ActivityEntry }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const { busy, run } = useAction();
  const id = entry.ad_id ?? '';
  const object = entry.object_type ?? 'ad';
  // The ad (or campaign) by its name, the id beside it for Ads Manager; the id alone when unnamed.
  const named = entryObjectName(entry);
  const name = named ? `“${named}”` : `${object} ${id}`;
  return (
    <>
      <Button
        size="small"
        startIcon={<UndoIcon />}
        aria-label={translate('activity.undo.label', { name })}
        disabled={busy}
        onClick={() => setOpen(true)}
      >
        {translate('activity.undo.button')}
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title={translate('activity.undo.title', { name })}
        content={translate('activity.undo.content', {
          object,
          what: named ? `“${named}” (${id})` : id,
          rule: entry.rule?.name ?? '',
          folder: entry.rule?.folder.name ?? '',
        })}
        confirm={translate('activity.undo.confirm')}
        cancel={translate('activity.cancel')}
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          setOpen(false);
          await run((provider) => provider.undoRuleAction(entry.id), 'activity.undo.done');
        }}
      />
    </>
  );
}

function RemoveExemptionButton({ entry }: { entry: ActivityEntry }) {
  const translate = useTranslate();
  const { busy, run } = useAction();
  const label = translate('activity.exemption.label', { id: entry.ad_id ?? '', rule: entry.rule?.name ?? '' });
  return (
    <Button
      size="small"
      startIcon={<ReplayIcon />}
      aria-label={label}
      title={label}
      disabled={busy}
      onClick={() =>
        run((provider) => provider.removeRuleExemption(entry.rule!.id, entry.ad_id!), 'activity.exemption.done')
      }
    >
      {translate('activity.exemption.button')}
    </Button>
  );
}

/**
 * A held run's entry: its buttons while pending, the approval asking with the money the run would
 * move; once decided, who decided (read from the run).
 */
function HeldEntryDecision({ entry, runId }: { entry: ActivityEntry; runId: number }) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const translate = useTranslate();
  const canReadRules = usePermission('read_rules');
  const canDecide = usePermission('create_update_rules');
  const decision = entry.decision ?? 'pending';
  // Runs are read_rules: without it the row says "Approved" without the name.
  const run = useQuery({
    queryKey: queryKeys.run(runId),
    queryFn: ({ signal }) => dataProvider.getRuleRun(runId, signal),
    enabled: canReadRules && (decision !== 'pending' || canDecide),
    retry: false,
  });
  return (
    <HeldRunDecision
      runId={runId}
      decision={decision}
      decidedBy={run.data?.decided_by}
      stake={run.data ? heldMoneyLines(run.data, translate) : []}
    />
  );
}

function OpenRunLink({ ruleId, runId }: { ruleId: number; runId: number }) {
  const translate = useTranslate();
  const label = translate('activity.open_run_label', { id: runId });
  return (
    <Tooltip title={label}>
      <IconButton size="small" component={RouterLink} to={`/edit-rule/${ruleId}?run=${runId}`} aria-label={label}>
        <ManageSearchIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

export function ActivityRowActions(_props: { label?: string; sortable?: boolean }) {
  const entry = useRecordContext<ActivityEntry>();
  const allowed = usePermission('create_update_rules');
  const canReadRules = usePermission('read_rules');
  if (!entry) return null;
  const isUndoEntry = entry.action === 'turn_on_ad' || entry.action === 'turn_on_campaign';
  const runId = entry.run_id ?? null;
  return (
    <Stack direction="row" spacing={1} alignItems="center" justifyContent="flex-end">
      {entry.action === 'run_held' && runId !== null && entry.decision ? (
        <HeldEntryDecision entry={entry} runId={runId} />
      ) : null}
      {allowed && isUndoable(entry) ? <UndoButton entry={entry} /> : null}
      {allowed && isUndoEntry && entry.exempt && entry.rule && entry.ad_id ? (
        <RemoveExemptionButton entry={entry} />
      ) : null}
      {entry.ad_id && entry.object_type === 'ad' ? <EntryAdLink adId={entry.ad_id} /> : null}
      {canReadRules && runId !== null && entry.rule ? <OpenRunLink ruleId={entry.rule.id} runId={runId} /> : null}
    </Stack>
  );
}
