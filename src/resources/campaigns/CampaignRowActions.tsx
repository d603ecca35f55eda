/**
 * A row's actions (docs/screens.md, all need add_edit_campaigns): open the campaign in Ads Manager in a
 * new tab, refresh it from the ad platform with a spinner on the row while it runs, and, for a name
 * without a date, set its event date by hand (EventDateDialog.tsx; create_update_rules too); its ads
 * in the ads list (view_logs).
 */
import AdsClickIcon from '@mui/icons-material/AdsClick';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import RefreshIcon from '@mui/icons-material/Refresh';
import { CircularProgress, IconButton, Stack, Tooltip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { usePermission } from '../../providers/usePermissions';
import { EventDateAction } from './EventDateDialog';
import { adsManagerUrl } from './format';
import type { CampaignRecord } from './types';
import { useCampaignSync } from './useCampaignSync';
import type { CellProps } from './CampaignFields';

export function CampaignRowActions(_: CellProps) {
  const record = useRecordContext<CampaignRecord>();
  const translate = useTranslate();
  const { allowed, running, refreshCampaign: refresh } = useCampaignSync();
  const mayListAds = usePermission('view_logs');
  if (!record || !allowed) return null;

  const refreshCampaign = () => refresh(record.campaign_id);

  const openLabel = translate('campaigns.actions.open');
  const refreshLabel = translate(running ? 'campaigns.actions.refreshing' : 'campaigns.actions.refresh');
  return (
    <Stack direction="row" alignItems="center">
      <Tooltip title={openLabel}>
        <IconButton
          size="small"
          aria-label={openLabel}
          href={adsManagerUrl(record)}
          target="_blank"
          rel="noopener noreferrer"
          component="a"
        >
          <OpenInNewIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={refreshLabel}>
        <span>
          <IconButton
            size="small"
            aria-label={refreshLabel}
            onClick={refreshCampaign}
            disabled={running}
            aria-busy={running}
          >
            {running ? <CircularProgress size={18} aria-label={refreshLabel} /> : <RefreshIcon fontSize="small" />}
          </IconButton>
        </span>
      </Tooltip>
      <EventDateAction />
      {mayListAds ? (
        <Tooltip title={translate('campaigns.actions.ads')}>
          <IconButton
            size="small"
            aria-label={translate('campaigns.actions.ads')}
            component={RouterLink}
            to={`/ads?campaign_id=${record.campaign_id}`}
          >
            <AdsClickIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
    </Stack>
  );
}
