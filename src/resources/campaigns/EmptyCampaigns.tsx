/** "No campaigns found" with a Refresh button (add_edit_campaigns) that syncs campaigns now. */
import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, CircularProgress, Typography } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';
import { useCampaignSync } from './useCampaignSync';

export function EmptyCampaigns() {
  const translate = useTranslate();
  const { filterValues } = useListContext();
  const { allowed, running, syncCampaigns } = useCampaignSync();
  const filtered = Object.keys(filterValues ?? {}).length > 0;
  const hint = filtered
    ? 'campaigns.empty.filtered_hint'
    : allowed
      ? 'campaigns.empty.refresh_hint'
      : 'campaigns.empty.hint';

  return (
    <Box sx={{ textAlign: 'center', py: 6 }} role="status">
      <Typography variant="h6" color="text.secondary">
        {translate('campaigns.empty.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 2 }}>
        {translate(hint)}
      </Typography>
      {allowed ? (
        <Button
          variant="contained"
          onClick={syncCampaigns}
          disabled={running}
          startIcon={
            running ? <CircularProgress size={16} aria-label={translate('campaigns.empty.refresh')} /> : <RefreshIcon />
          }
        >
          {translate('campaigns.empty.refresh')}
        </Button>
      ) : null}
    </Box>
  );
}
