/**
 * The ads list's bulk action: turn the selected ads back on where a rule turned them off, each exempt
 * from that rule from now on (the Activity's Undo, per ad, on the server). Asks first; says how many
 * were turned on and why the others were left. `SelectedAdsBar` is the bar it sits in, above the
 * table while rows are selected. The rows are selected with `SelectCell` and `SelectAllBox`, checkboxes
 * named for what they select (react-admin's own put their names on the wrong element for a screen
 * reader, and its floating bar would be clipped by the scrolling card).
 */
import PowerSettingsNewIcon from '@mui/icons-material/PowerSettingsNew';
import { Button, Checkbox, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import {
  Confirm,
  useDataProvider,
  useListContext,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import type { AdDto } from '../../../shared/ads';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpClient';

export function TurnBackOnButton() {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { selectedIds, data, onUnselectItems } = useListContext<AdDto>();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const selected = (data ?? []).filter((ad) => selectedIds.includes(ad.id));
  const byRule = selected.filter((ad) => ad.state.reason === 'rule');

  const turnOn = async () => {
    setOpen(false);
    setBusy(true);
    try {
      const answer = await dataProvider.turnAdsOn(selected.map((ad) => ad.id));
      const failed = answer.results.filter((r) => r.result === 'failed').map((r) => `${r.ad_id}: ${r.detail}`);
      const text = [answer.detail, ...failed].join(' ');
      notify(text, {
        type: failed.length ? 'warning' : 'success',
        autoHideDuration: SNACKBAR_TIMEOUT_MS,
        messageArgs: { _: text },
      });
      onUnselectItems();
      refresh();
    } catch (error) {
      const text = errorMessages(error).join(' ');
      notify(text, { type: 'error', autoHideDuration: SNACKBAR_TIMEOUT_MS, messageArgs: { _: text } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        size="small"
        startIcon={<PowerSettingsNewIcon />}
        disabled={busy}
        onClick={() =>
          byRule.length
            ? setOpen(true)
            : notify('ads.turn_on.none', { type: 'info', autoHideDuration: SNACKBAR_TIMEOUT_MS })
        }
      >
        {translate('ads.turn_on.button')}
      </Button>
      <Confirm
        isOpen={open}
        loading={busy}
        title={translate('ads.turn_on.title', { smart_count: byRule.length })}
        content={translate('ads.turn_on.content')}
        confirm={translate('ads.turn_on.button')}
        cancel={translate('ads.turn_on.cancel')}
        onClose={() => setOpen(false)}
        onConfirm={turnOn}
      />
    </>
  );
}

export function SelectedAdsBar() {
  const translate = useTranslate();
  const { selectedIds, onUnselectItems } = useListContext();
  if (!selectedIds.length) return null;
  return (
    <Stack
      direction="row"
      spacing={1}
      alignItems="center"
      useFlexGap
      flexWrap="wrap"
      sx={{ px: 1.5, py: 0.5, mb: 1, bgcolor: 'action.selected', borderRadius: 1 }}
    >
      <Typography variant="body2" sx={{ mr: 1 }}>
        {translate('ads.selected', { smart_count: selectedIds.length })}
      </Typography>
      <TurnBackOnButton />
      <Button size="small" onClick={() => onUnselectItems()}>
        {translate('ads.unselect')}
      </Button>
    </Stack>
  );
}

/** A row's checkbox, named for its ad. */
export function SelectCell(_props: { label?: unknown; source?: string; sortable?: boolean }) {
  const translate = useTranslate();
  const ad = useRecordContext<AdDto>();
  const { selectedIds, onToggleItem } = useListContext();
  if (!ad) return null;
  return (
    <Checkbox
      size="small"
      checked={selectedIds.includes(ad.id)}
      onChange={() => onToggleItem(ad.id)}
      slotProps={{ input: { 'aria-label': translate('ads.select', { name: ad.name, id: ad.ad_id }) } }}
    />
  );
}

/** The header's checkbox: every ad of the page, or none. */
export function SelectAllBox() {
  const translate = useTranslate();
  const { data, selectedIds, onSelect, onUnselectItems } = useListContext<AdDto>();
  const ids = (data ?? []).map((ad) => ad.id);
  const all = ids.length > 0 && ids.every((id) => selectedIds.includes(id));
  return (
    <Checkbox
      size="small"
      checked={all}
      indeterminate={!all && ids.some((id) => selectedIds.includes(id))}
      onChange={() => (all ? onUnselectItems() : onSelect(ids))}
      slotProps={{ input: { 'aria-label': translate('ads.select_all') } }}
    />
  );
}
