/** "No campaigns found" with a Refresh button (add_edit_campaigns) that syncs campaigns now. */
import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, CircularProgress, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { paths } from '../../providers/apiPaths';
import { useCampaignSync } from './useCampaignSync';

export function EmptyCampaigns() {
  const translate = useTranslate();
  const { allowed, running, sync } = useCampaignSync();

  return (
    <Box sx={{ textAlign: 'center', py: 6 }}>
      <Typography variant="h6" color="text.secondary" gutterBottom>
        {translate('campaigns.empty.title')}
      </Typography>
      {allowed ? (
        <Button variant="contained" onClick={() => sync(paths.campaignsSync, 'campaigns.empty.synced')} disabled={running} startIcon={running ? <CircularProgress size={16} /> : <RefreshIcon />}>
          {translate('campaigns.empty.refresh')}
        </Button>
      ) : null}
    </Box>
  );
}
