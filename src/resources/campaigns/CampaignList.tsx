/**
 * Campaigns (/campaigns, docs/screens.md): the synced campaigns with the filter panel, the Source Campaign
 * Name column group, row actions and the empty state. Filters, sort, page and page size live in the
 * address, so a filtered view can be bookmarked and shared. On a phone each campaign is a card with
 * its name and state, ad account, spend, CPL, result, event date and outcomes (registrations,
 * attendees, show-up, cost per attendee), and its actions.
 */
import { Box, Card, CardContent, Chip, Stack, Typography, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import { Datagrid, ListBase, RecordContextProvider, TextField, useListContext, useTranslate } from 'react-admin';
import { CAMPAIGN_PAGE_SIZES } from '../../../shared/constants';
import { CappedPagination, ListErrors, listErrorsQueryOptions } from '../../layout/list';
import { PageTitle } from '../../layout/pageTitle';
import { useNarrowScreen } from '../../layout/RowActions';
import { CampaignFilterPanel } from './CampaignFilterPanel';
import { CampaignHeader } from './CampaignHeader';
import {
  AdAccountCell,
  CampaignNameCell,
  EndDateCell,
  EventDateCell,
  EventTimeCell,
  EventTypeCell,
  CountCell,
  MoneyCell,
  ShowUpCell,
  PercentCell,
  ResultCell,
  StatusCell,
  SyncDateCell,
  TopicCell,
} from './CampaignFields';
import { CampaignRowActions } from './CampaignRowActions';
import { EmptyCampaigns } from './EmptyCampaigns';
import type { CampaignRecord } from './types';

const CAMPAIGN_TABLE_SX = {
  overflowX: 'auto',
  maxWidth: 'calc(100vw - 32px)',
  '& .MuiTableCell-root': { px: '5px', py: 0.5, fontSize: '0.8125rem' },
  '& .MuiTableCell-root:first-of-type': { pl: 1.5 },
  '& .MuiTableCell-root:last-of-type': { pr: 0.5 },
  // Headers may wrap ("Cost / Attendee" on two lines): the grouped header is two rows tall anyway.
  '& .MuiTableCell-head': { lineHeight: 1.3, py: 0.75 },
  '& .MuiTableCell-head.column-show_up_rate': { whiteSpace: 'nowrap' }, // not "Show-" over "up"
  // The name stays in view while the table scrolls sideways to the columns after it (the outcome
  // columns on a phone, or on a 1280 px screen), so every number keeps its campaign beside it.
  '& .column-campaign_name': {
    position: 'sticky',
    left: 0,
    zIndex: 1,
    bgcolor: 'background.paper',
    boxShadow: (theme: Theme) => `inset -1px 0 0 ${theme.palette.divider}`,
  },
  // Only the sorted column shows its arrow: an invisible arrow on every column would cost ~250 px.
  '& .MuiTableSortLabel-root:not(.Mui-active) .MuiTableSortLabel-icon': { display: 'none' },
  '& .MuiTableSortLabel-icon': { fontSize: 16, mx: 0.25 },
  '& .MuiTableCell-body .MuiTypography-body2, & .MuiTableCell-body .MuiTypography-caption': { fontSize: 'inherit' },
  '& .MuiTableCell-body .MuiChip-root': { height: 22, fontSize: '0.75rem' },
  '& .MuiTableCell-body .MuiChip-label': { px: 0.75 },
  // On a phone the state shows under the campaign's name (CampaignNameCell), not in its column.
  '& .column-state': { display: { xs: 'none', sm: 'table-cell' } },
} as const;

/** A figure on a campaign's card: its column's name over its value. */
function Figure({ source, children }: { source: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {translate(`resources.campaigns.fields.${source}`)}
      </Typography>
      {children}
    </Box>
  );
}

/** The list on a phone: a card per campaign with the columns a media buyer looks for. */
function CampaignCards() {
  const translate = useTranslate();
  const { data } = useListContext<CampaignRecord>();
  return (
    <Stack
      component="ul"
      spacing={1}
      sx={{ p: 0, m: 0, listStyle: 'none' }}
      aria-label={translate('app.page.campaigns')}
    >
      {(data ?? []).map((record) => (
        <RecordContextProvider key={record.id} value={record}>
          <Card component="li" variant="outlined" data-testid={`campaign-card-${record.campaign_id}`}>
            <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1 } }}>
              <Stack spacing={1}>
                <Box sx={{ typography: 'subtitle2' }}>
                  <CampaignNameCell source="campaign_name" />
                </Box>
                <Typography variant="caption" color="text.secondary" component="div">
                  {record.meta_ad_account?.account_name} · {record.campaign_id}
                </Typography>
                <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, 1fr)', gap: 1 }}>
                  <Figure source="spend">
                    <MoneyCell source="spend" />
                  </Figure>
                  <Figure source="cpl">
                    <MoneyCell source="cpl" />
                  </Figure>
                  <Figure source="result">
                    <ResultCell source="result" />
                  </Figure>
                  <Figure source="event_date">
                    <EventDateCell source="event_date" />
                  </Figure>
                  <Figure source="registrations">
                    <CountCell source="registrations" />
                  </Figure>
                  <Figure source="attendees">
                    <CountCell source="attendees" />
                  </Figure>
                  <Figure source="show_up_rate">
                    <ShowUpCell source="show_up_rate" />
                  </Figure>
                  <Figure source="cost_per_attendee">
                    <MoneyCell source="cost_per_attendee" />
                  </Figure>
                </Box>
                <Box sx={{ ml: -1 }}>
                  <CampaignRowActions source="actions" />
                </Box>
              </Stack>
            </CardContent>
          </Card>
        </RecordContextProvider>
      ))}
    </Stack>
  );
}

function CampaignTable() {
  const { isPending, total, error } = useListContext();
  const phone = useNarrowScreen();
  if (error) return null; // ListErrors above says what failed
  if (!isPending && total === 0) return <EmptyCampaigns />;
  if (phone)
    return (
      <>
        <CampaignCards />
        <CappedPagination rowsPerPageOptions={[...CAMPAIGN_PAGE_SIZES]} />
      </>
    );
  return (
    <>
      {/*
        Tight cells, a slightly smaller type, long names cut to two lines. Where the columns do not
        fit (a 1280 px screen no longer holds them all since the outcome columns), the table scrolls
        sideways inside the page rather than widening it.
      */}
      <Card variant="outlined" sx={CAMPAIGN_TABLE_SX}>
        <Datagrid header={CampaignHeader} bulkActionButtons={false} rowClick={false} size="small">
          <TextField source="campaign_id" />
          <CampaignNameCell source="campaign_name" />
          <StatusCell source="state" sortable={false} />
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
          <CountCell source="registrations" />
          <CountCell source="attendees" />
          <ShowUpCell source="show_up_rate" />
          <MoneyCell source="cost_per_attendee" />
          <EndDateCell source="end_date" />
          <SyncDateCell source="updated_at" />
          <CampaignRowActions source="actions" sortable={false} />
        </Datagrid>
      </Card>
      <CappedPagination rowsPerPageOptions={[...CAMPAIGN_PAGE_SIZES]} />
    </>
  );
}

export function CampaignList() {
  const translate = useTranslate();
  return (
    <ListBase
      resource="campaigns"
      perPage={CAMPAIGN_PAGE_SIZES[0]}
      sort={{ field: 'campaign_id', order: 'DESC' }}
      queryOptions={listErrorsQueryOptions}
    >
      <PageTitle title="app.page.campaigns" />
      <CampaignFilterPanel
        heading={
          <Stack direction="row" spacing={1} alignItems="center" sx={{ mr: 1 }}>
            <Typography variant="h6" component="h1">
              {translate('app.page.campaigns')}
            </Typography>
            <Chip size="small" color="secondary" label={translate('campaigns.alpha')} />
          </Stack>
        }
      />
      <ListErrors />
      <Box>
        <CampaignTable />
      </Box>
    </ListBase>
  );
}

export default CampaignList;
