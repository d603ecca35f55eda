/**
 * Campaigns (/campaigns, SPEC §2): the synced campaigns with the filter panel, the Source Campaign
 * Name column group, row actions and the empty state. Filters, sort, page and page size live in the
 * address, so a filtered view can be bookmarked and shared.
 */
import { Box, Card, Chip, Stack, Typography } from '@mui/material';
import { Datagrid, ListBase, Pagination, TextField, useListContext, useTranslate } from 'react-admin';
import { CAMPAIGN_PAGE_SIZES } from '../../domain/constants';
import { PageTitle } from '../../layout/pageTitle';
import { CampaignFilterPanel } from './CampaignFilterPanel';
import { CampaignHeader } from './CampaignHeader';
import {
  AdAccountCell,
  EndDateCell,
  EventDateCell,
  EventTimeCell,
  EventTypeCell,
  MoneyCell,
  PercentCell,
  ResultCell,
  SyncDateCell,
  TopicCell,
} from './CampaignFields';
import { CampaignRowActions } from './CampaignRowActions';
import { EmptyCampaigns } from './EmptyCampaigns';

function CampaignTable() {
  const { isPending, total } = useListContext();
  if (!isPending && total === 0) return <EmptyCampaigns />;
  return (
    <>
      {/* The table scrolls sideways inside the page rather than widening it. */}
      <Card variant="outlined" sx={{ overflowX: 'auto', maxWidth: 'calc(100vw - 32px)', '& .MuiTableCell-root': { px: 1 }, '& .column-campaign_name': { minWidth: 200 } }}>
        <Datagrid header={CampaignHeader} bulkActionButtons={false} rowClick={false} size="small">
          <TextField source="campaign_id" />
          <TextField source="campaign_name" />
          <AdAccountCell source="meta_ad_account" />
          <TopicCell source="topic" />
          <EventTypeCell source="is_webinar" />
          <EventDateCell source="event_date" />
          <EventTimeCell source="event_time" />
          <MoneyCell source="spend" />
          <ResultCell source="result" />
          <MoneyCell source="cpl" />
          <PercentCell source="ctr" />
          <MoneyCell source="cpc" />
          <EndDateCell source="end_date" />
          <SyncDateCell source="updated_at" />
          <CampaignRowActions source="actions" sortable={false} />
        </Datagrid>
      </Card>
      <Pagination rowsPerPageOptions={[...CAMPAIGN_PAGE_SIZES]} />
    </>
  );
}

export function CampaignList() {
  const translate = useTranslate();
  return (
    <ListBase resource="campaigns" perPage={CAMPAIGN_PAGE_SIZES[0]} sort={{ field: 'campaign_id', order: 'DESC' }}>
      <PageTitle title="app.page.campaigns" />
      <Stack direction="row" spacing={1} alignItems="center" sx={{ py: 1 }}>
        <Typography variant="h6" component="h1">
          {translate('app.page.campaigns')}
        </Typography>
        <Chip size="small" color="secondary" label={translate('campaigns.alpha')} />
      </Stack>
      <CampaignFilterPanel />
      <Box>
        <CampaignTable />
      </Box>
    </ListBase>
  );
}

export default CampaignList;
