/**
 * A row's actions (SPEC §2, both need add_edit_campaigns): open the campaign in Ads Manager in a
 * new tab, and refresh it from the ad platform with a spinner on the row while it runs.
 */
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import RefreshIcon from '@mui/icons-material/Refresh';
import { CircularProgress, IconButton, Stack, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { paths } from '../../providers/apiPaths';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpErrors';
import { usePermission } from '../../providers/usePermissions';
import { adsManagerUrl } from './format';
import type { CampaignRecord } from './types';
import { useCampaignNotify } from './useCampaignNotify';
import type { CellProps } from './CampaignFields';

export function CampaignRowActions(_: CellProps) {
  const record = useRecordContext<CampaignRecord>();
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const notify = useCampaignNotify();
  const allowed = usePermission('add_edit_campaigns');
  const [running, setRunning] = useState(false);
  if (!record || !allowed) return null;

  const refreshCampaign = async () => {
    setRunning(true);
    try {
      const answer = await dataProvider.call<{ detail?: string }>(paths.campaignUpdate(record.campaign_id), { method: 'POST' });
      notify(answer?.detail || translate('campaigns.updated'));
      refresh();
    } catch (error) {
      notify(errorMessages(error).join(' ') || translate('ra.notification.http_error'), 'error');
    } finally {
      setRunning(false);
    }
  };

  const openLabel = translate('campaigns.actions.open');
  const refreshLabel = translate(running ? 'campaigns.actions.refreshing' : 'campaigns.actions.refresh');
  return (
    <Stack direction="row" spacing={0.5} alignItems="center">
      <Tooltip title={openLabel}>
        <IconButton size="small" aria-label={openLabel} href={adsManagerUrl(record)} target="_blank" rel="noopener noreferrer" component="a">
          <OpenInNewIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={refreshLabel}>
        <span>
          <IconButton size="small" aria-label={refreshLabel} onClick={refreshCampaign} disabled={running} aria-busy={running}>
            {running ? <CircularProgress size={18} aria-label={refreshLabel} /> : <RefreshIcon fontSize="small" />}
          </IconButton>
        </span>
      </Tooltip>
    </Stack>
  );
}
