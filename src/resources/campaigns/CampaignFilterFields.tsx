/** The Campaigns filters, on a card in a grid: one column on a phone, two on a tablet, four wider. */
import { Box, Card, CardContent, TextField } from '@mui/material';
import type { AdAccountOption } from '../../providers/ruleMethods';
import { AdAccountFilter, EventTypeFilter, TopicFilter } from './CampaignChoiceFilters';
import type { FilterDraft } from './campaignFilterDraft';
import { DateFilters, NumberFilters } from './CampaignRangeFilters';
import { isIdListText } from './format';
import { useFilterLabel } from './useFilterLabel';

export function CampaignFilterFields({
  draft,
  accounts,
  dateBounds,
  onChange,
}: {
  draft: FilterDraft;
  accounts: AdAccountOption[];
  dateBounds: { min: string; max: string };
  onChange: (patch: Partial<FilterDraft>) => void;
}) {
  const label = useFilterLabel();
  return (
    <Card variant="outlined" id="campaign-filters" role="region" aria-label={label('title')} sx={{ mb: 1.5 }}>
      <CardContent>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' },
          }}
        >
          <TextField
            size="small"
            label={label('campaign_name')}
            value={draft.campaign_name}
            onChange={(e) => onChange({ campaign_name: e.target.value })}
          />
          <AdAccountFilter
            accounts={accounts}
            value={draft.meta_ad_account}
            onChange={(meta_ad_account) => onChange({ meta_ad_account })}
          />
          <EventTypeFilter value={draft.is_webinar} onChange={(is_webinar) => onChange({ is_webinar })} />
          <TopicFilter value={draft.event_type__in} onChange={(event_type__in) => onChange({ event_type__in })} />
          <TextField
            size="small"
            label={label('campaign_ids')}
            helperText={label('campaign_ids_help')}
            value={draft.campaign_id__in}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            onChange={(e) => isIdListText(e.target.value) && onChange({ campaign_id__in: e.target.value })}
          />
          <DateFilters draft={draft} bounds={dateBounds} onChange={onChange} />
          <NumberFilters draft={draft} onChange={onChange} />
        </Box>
      </CardContent>
    </Card>
  );
}
