/** "No campaigns found" with a Refresh button (add_edit_campaigns) that syncs campaigns now. */
import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, CircularProgress, Typography } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useRefresh, useTranslate } from 'react-admin';
import { paths } from '../../providers/apiPaths';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpErrors';
import { usePermission } from '../../providers/usePermissions';
import { useCampaignNotify } from './useCampaignNotify';

export function EmptyCampaigns() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const notify = useCampaignNotify();
  const allowed = usePermission('add_edit_campaigns');
  const [running, setRunning] = useState(false);

  const sync = async () => {
    setRunning(true);
    try {
      const answer = await dataProvider.call<{ detail?: string }>(paths.campaignsSync, { method: 'POST' });
      notify(answer?.detail || translate('campaigns.empty.synced'));
    } catch (error) {
      notify(errorMessages(error).join(' '), 'error');
    } finally {
      setRunning(false);
      refresh();
    }
  };

  return (
    <Box sx={{ textAlign: 'center', py: 6 }}>
      <Typography variant="h6" color="text.secondary" gutterBottom>
        {translate('campaigns.empty.title')}
      </Typography>
      {allowed ? (
        <Button variant="contained" onClick={sync} disabled={running} startIcon={running ? <CircularProgress size={16} /> : <RefreshIcon />}>
          {translate('campaigns.empty.refresh')}
        </Button>
      ) : null}
    </Box>
  );
}
