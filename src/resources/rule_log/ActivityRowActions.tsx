/**
 * Row actions of the Activity list (create_update_rules): Undo a turn-off (turn it back on and
 * exempt it from that rule), and on the undo's entry, remove the exemption again.
 */
import UndoIcon from '@mui/icons-material/Undo';
import ReplayIcon from '@mui/icons-material/Replay';
import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { Confirm, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { SNACKBAR_TIMEOUT_MS } from '../../domain/constants';
import { errorMessages } from '../../providers/httpClient';
import type { AppDataProvider } from '../../providers/dataProvider';
import { usePermission } from '../../providers/usePermissions';
import { isUndoable, type ActivityEntry } from './types';

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
  return (
    <>
      <Button
        size="small"
        startIcon={<UndoIcon />}
        aria-label={translate('activity.undo.label', { id })}
        disabled={busy}
        onClick={() => setOpen(true)}
      >
        {translate('activity.undo.button')}
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title={translate('activity.undo.title', { id })}
        content={translate('activity.undo.content', {
          object: entry.object_type ?? 'ad',
          rule: entry.rule?.name ?? '',
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

export function ActivityRowActions(_props: { label?: string; sortable?: boolean }) {
  const entry = useRecordContext<ActivityEntry>();
  const allowed = usePermission('create_update_rules');
  if (!entry || !allowed) return null;
  const isUndoEntry = entry.action === 'turn_on_ad' || entry.action === 'turn_on_campaign';
  return (
    <Stack direction="row" spacing={1}>
      {isUndoable(entry) ? <UndoButton entry={entry} /> : null}
      {isUndoEntry && entry.exempt && entry.rule && entry.ad_id ? <RemoveExemptionButton entry={entry} /> : null}
    </Stack>
  );
}
