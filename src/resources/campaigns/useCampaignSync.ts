/**
 * A call that brings campaigns over from the ad platform now (one row's refresh, or the empty
 * state's sync): running while it runs, the answer's detail or a fallback in the Campaigns
 * snackbar, then the list reloads. Both need add_edit_campaigns (docs/screens.md).
 */
import { useState } from 'react';
import { useDataProvider, useRefresh, useTranslate } from 'react-admin';
import type { SyncAnswer } from '../../providers/campaignMethods';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpErrors';
import { usePermission } from '../../providers/usePermissions';
import { useCampaignNotify } from './useCampaignNotify';

export function useCampaignSync() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const notify = useCampaignNotify();
  const allowed = usePermission('add_edit_campaigns');
  const [running, setRunning] = useState(false);

  /** Runs `call`; `doneMessage` is the message key shown when the answer has no detail. */
  const sync = async (call: () => Promise<SyncAnswer>, doneMessage: string) => {
    setRunning(true);
    try {
      const answer = await call();
      notify(answer?.detail || translate(doneMessage));
    } catch (error) {
      notify(errorMessages(error).join(' ') || translate('ra.notification.http_error'), 'error');
    } finally {
      setRunning(false);
      refresh();
    }
  };

  return {
    allowed,
    running,
    refreshCampaign: (campaignId: string) => sync(() => dataProvider.refreshCampaign(campaignId), 'campaigns.updated'),
    syncCampaigns: () => sync(() => dataProvider.syncCampaigns(), 'campaigns.empty.synced'),
  };
}
