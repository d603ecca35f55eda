/** The Campaigns table's cells (docs/screens.md display rules). Each reads the row's record. */
import { Box, Chip, Tooltip, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { topicName } from '../../../shared/campaignName';
import { StackedDateTime } from '../../layout/list/DateTimeField';
import { useNarrowScreen } from '../../layout/RowActions';
import {
  formatMoney,
  formatPercent,
  formatTime,
  formatTimeAt,
  formatUsDate,
  formatUsDayAt,
  formatUsDateTime,
  NOT_AVAILABLE,
  resultCount,
} from './format';
import type { CampaignRecord } from './types';
import { StateText } from '../ads/AdState';

/** Props react-admin's Datagrid reads from its children (labels, sort keys). */
export interface CellProps {
  source?: string;
  label?: string;
  sortBy?: string;
  sortable?: boolean;
}

const useCampaign = () => useRecordContext<CampaignRecord>();

function Text({ children, muted = false }: { children: string; muted?: boolean }) {
  const na = children === NOT_AVAILABLE;
  return (
    <Typography
      variant="body2"
      component="span"
      color={na || muted ? 'text.secondary' : undefined}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {children}
    </Typography>
  );
}

/**
 * Long text cut to `lines` lines (the table must fit a 1280 px screen): at least `minWidth` wide,
 * wider when the screen has room. The whole text stays in the cell for search and copy, and shows
 * in a tooltip.
 */
function TruncatedText({ text, minWidth, lines = 2 }: { text: string; minWidth: number; lines?: number }) {
  return (
    <Tooltip title={text} placement="bottom-start" enterDelay={400}>
      <Typography
        variant="body2"
        component="span"
        sx={{
          display: '-webkit-box',
          WebkitBoxOrient: 'vertical',
          WebkitLineClamp: lines,
          overflow: 'hidden',
          minWidth,
          fontSize: 'inherit',
          overflowWrap: 'anywhere',
        }}
      >
        {text}
      </Typography>
    </Tooltip>
  );
}

export function CampaignNameCell(_: CellProps) {
  const record = useCampaign();
  const phone = useNarrowScreen();
  const name = record?.campaign_name;
  return (
    <>
      {name ? <TruncatedText text={name} minWidth={172} /> : <Text>{NOT_AVAILABLE}</Text>}
      {/* A phone has no room for the Status column: the state stays beside the name it belongs to. */}
      {phone && record?.state ? (
        <Box sx={{ mt: 0.25 }}>
          <StateText state={record.state} dense />
        </Box>
      ) : null}
    </>
  );
}

/** On, or why not: turned off by which rule and when (with its run record), paused by Meta or a person. */
export function StatusCell(_: CellProps) {
  const state = useCampaign()?.state;
  if (!state) return <Text>{NOT_AVAILABLE}</Text>;
  return (
    <Box sx={{ minWidth: state.on ? undefined : 150 }}>
      <StateText state={state} dense />
    </Box>
  );
}

export function AdAccountCell(_: CellProps) {
  const name = useCampaign()?.meta_ad_account?.account_name;
  return name ? <TruncatedText text={name} minWidth={100} /> : <Text>{NOT_AVAILABLE}</Text>;
}

export function TopicCell(_: CellProps) {
  const code = useCampaign()?.campaignextension?.topic;
  if (!code) return <Text>{NOT_AVAILABLE}</Text>;
  return (
    <Tooltip title={topicName(code) ?? code}>
      <Typography variant="body2" component="span">
        {code}
      </Typography>
    </Tooltip>
  );
}

export function EventTypeCell(_: CellProps) {
  const translate = useTranslate();
  const isWebinar = useCampaign()?.campaignextension?.is_webinar;
  if (isWebinar === true)
    return <Chip size="small" color="success" label={translate('campaigns.event_type.webinar')} />;
  if (isWebinar === false)
    return <Chip size="small" color="warning" label={translate('campaigns.event_type.seminar')} />;
  return <Text>{NOT_AVAILABLE}</Text>;
}

/** A date chosen by hand for a name that gives none, in the ad account's zone, marked as such. */
function ChosenText({ children }: { children: string }) {
  const translate = useTranslate();
  return (
    <Tooltip title={translate('campaigns.event_date.chosen_hint')}>
      <Typography variant="body2" component="span" sx={{ whiteSpace: 'nowrap', fontStyle: 'italic' }}>
        {children}
      </Typography>
    </Tooltip>
  );
}

export function EventDateCell(_: CellProps) {
  const record = useCampaign();
  const named = record?.campaignextension?.event_date;
  if (named || !record?.chosen_event_at) return <Text>{formatUsDate(named)}</Text>;
  return <ChosenText>{formatUsDayAt(record.chosen_event_at, record.meta_ad_account?.timezone_name)}</ChosenText>;
}

export function EventTimeCell(_: CellProps) {
  const record = useCampaign();
  const extension = record?.campaignextension;
  if (extension?.event_date || !record?.chosen_event_at) return <Text>{formatTime(extension?.event_time)}</Text>;
  return <ChosenText>{formatTimeAt(record.chosen_event_at, record.meta_ad_account?.timezone_name)}</ChosenText>;
}

export function MoneyCell({ source }: CellProps & { source: 'spend' | 'cpl' | 'cpc' | 'cost_per_attendee' }) {
  const record = useCampaign();
  return <Text>{formatMoney(record?.[source], record?.meta_ad_account?.currency || 'USD')}</Text>;
}

export function PercentCell({ source }: CellProps & { source: 'ctr' }) {
  return <Text>{formatPercent(useCampaign()?.[source])}</Text>;
}

/** Registrations or attendees: N/A before the campaign's event happened. */
export function CountCell({ source }: CellProps & { source: 'registrations' | 'attendees' }) {
  const value = useCampaign()?.[source];
  return <Text>{value === null || value === undefined ? NOT_AVAILABLE : String(value)}</Text>;
}

/** The show-up rate (0–1 in the record) as a percentage. */
export function ShowUpCell(_: CellProps) {
  const rate = useCampaign()?.show_up_rate;
  return <Text>{formatPercent(rate === null || rate === undefined ? null : rate * 100)}</Text>;
}

export function ResultCell(_: CellProps) {
  const record = useCampaign();
  return <Text>{record ? String(resultCount(record)) : NOT_AVAILABLE}</Text>;
}

/** The end date is the campaign's own: shown in its ad account's time zone. */
export function EndDateCell(_: CellProps) {
  const record = useCampaign();
  return (
    <StackedDateTime value={formatUsDateTime(record?.end_date, record?.meta_ad_account?.timezone_name || undefined)} />
  );
}

/** When this app last read the campaign: the viewer's time zone. */
export function SyncDateCell(_: CellProps) {
  return <StackedDateTime muted value={formatUsDateTime(useCampaign()?.updated_at)} />;
}
