/**
 * Choosing a campaign's webinar date by hand (docs/screens.md, Campaigns): a campaign whose name
 * gives no date has a "Set event date" action (or "Change event date" once one is chosen) for those
 * who edit rules. Its dialog offers the Demio dates of the campaign's folder, in the ad account's
 * time zone (the zone the server reads campaign names in), posts the one chosen — or clears it —
 * and the list reloads so the row shows it.
 */
import EditCalendarIcon from '@mui/icons-material/EditCalendar';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  LinearProgress,
  MenuItem,
  TextField,
  Tooltip,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { CampaignEventDates, ChosenEventDate } from '../../../shared/campaignEventDates';
import { ErrorList } from '../../layout/ErrorList';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpErrors';
import { queryKeys } from '../../providers/queryKeys';
import { usePermission } from '../../providers/usePermissions';
import { formatUsDateTime } from './format';
import type { CampaignRecord } from './types';
import { useCampaignNotify } from './useCampaignNotify';

/** An option's value in the select: its event and date ids. */
const optionKey = (o: { event_id: number; date_id: number }) => `${o.event_id}:${o.date_id}`;

function chosenOf(answer: CampaignEventDates | undefined) {
  return answer?.dates.find((d) => d.source === 'chosen');
}

function EventDateDialog({ campaign, onClose }: { campaign: CampaignRecord; onClose: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  const notify = useCampaignNotify();
  const zone = campaign.meta_ad_account?.timezone_name || 'UTC';
  const when = (iso: string) => formatUsDateTime(iso, zone);
  const dates = useQuery({
    queryKey: queryKeys.campaignEventDates(campaign.campaign_id),
    queryFn: ({ signal }) => dataProvider.getCampaignEventDates(campaign.campaign_id, signal),
    retry: false,
  });
  const chosen = chosenOf(dates.data);
  const options = dates.data?.options ?? [];
  const [picked, setPicked] = useState<string | null>(null);
  // The chosen date preselected while Demio still offers it.
  const selected = picked ?? options.map(optionKey).find((key) => chosen && key === optionKey(chosen)) ?? '';
  const save = useMutation({
    mutationFn: (choice: ChosenEventDate) => dataProvider.chooseCampaignEventDate(campaign.campaign_id, choice),
    onSuccess: (answer, choice) => {
      queryClient.setQueryData(queryKeys.campaignEventDates(campaign.campaign_id), answer);
      notify(translate(choice.date_id === null ? 'campaigns.event_date.cleared' : 'campaigns.event_date.saved'));
      refresh();
      onClose();
    },
  });
  const option = options.find((o) => optionKey(o) === selected);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="event-date-title">
      <DialogTitle id="event-date-title">
        {translate('campaigns.event_date.title')}
        <DialogContentText component="div" variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {campaign.campaign_name}
        </DialogContentText>
      </DialogTitle>
      <DialogContent>
        {dates.isPending ? (
          <LinearProgress aria-label={translate('campaigns.event_date.loading')} sx={{ my: 2 }} />
        ) : null}
        <ErrorList errors={[...errorMessages(dates.error), ...errorMessages(save.error)]} />
        {dates.data?.name_has_date ? (
          <Alert severity="info">{translate('campaigns.event_date.name_has_date')}</Alert>
        ) : dates.data && !options.length ? (
          <Alert severity="info">{translate('campaigns.event_date.none')}</Alert>
        ) : dates.data ? (
          <>
            <DialogContentText variant="body2" sx={{ mb: 2 }}>
              {translate('campaigns.event_date.help')}
            </DialogContentText>
            {chosen ? (
              <DialogContentText variant="body2" sx={{ mb: 2 }}>
                {translate('campaigns.event_date.current', { when: when(chosen.starts_at) })}
              </DialogContentText>
            ) : null}
            <TextField
              select
              fullWidth
              label={translate('campaigns.event_date.label')}
              value={selected}
              onChange={(event) => setPicked(event.target.value)}
              helperText={translate('campaigns.event_date.zone', { zone })}
            >
              {options.map((o) => (
                <MenuItem key={optionKey(o)} value={optionKey(o)} sx={{ whiteSpace: 'normal' }}>
                  {translate('campaigns.event_date.option', { when: when(o.starts_at), event: o.event_name })}
                </MenuItem>
              ))}
            </TextField>
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        {chosen ? (
          <Button
            color="warning"
            disabled={save.isPending}
            onClick={() => save.mutate({ event_id: null, date_id: null })}
          >
            {translate('campaigns.event_date.clear')}
          </Button>
        ) : null}
        <Button
          variant="contained"
          disabled={!option || save.isPending || (chosen !== undefined && optionKey(chosen) === selected)}
          onClick={() => option && save.mutate({ event_id: option.event_id, date_id: option.date_id })}
        >
          {translate('campaigns.event_date.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The row's action: only for a name without a date, and only for those who edit rules (as the server checks). */
export function EventDateAction() {
  const campaign = useRecordContext<CampaignRecord>();
  const translate = useTranslate();
  const allowed = usePermission('create_update_rules');
  const [open, setOpen] = useState(false);
  if (!campaign || !allowed || campaign.campaignextension?.event_date) return null;
  const label = translate(campaign.chosen_event_at ? 'campaigns.event_date.change' : 'campaigns.event_date.set');
  return (
    <>
      <Tooltip title={label}>
        <IconButton size="small" aria-label={label} onClick={() => setOpen(true)}>
          <EditCalendarIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {open ? <EventDateDialog campaign={campaign} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
