/**
 * How the Campaigns screen writes values (docs/screens.md): money with two decimals, CTR with two decimals
 * and a percent sign, US dates, 12-hour times, N/A for anything missing. Pure functions.
 */
import { formatEventTime } from '../../../shared/campaignName';
import { formatDateTime, formatDay, formatDayAt, formatTimeAt } from '../../layout/dateFormat';
import { formatMoney, formatPercent, NOT_AVAILABLE } from '../../layout/numberFormat';
import type { CampaignRecord } from './types';

export { formatMoney, formatPercent, NOT_AVAILABLE };

/** Leads from the record (0 when none). */
export function resultCount(record: Pick<CampaignRecord, 'leads' | 'actions'>): number {
  if (typeof record.leads === 'number') return record.leads;
  const lead = record.actions?.find((a) => a.action_type === 'lead');
  return lead ? Number(lead.value) || 0 : 0;
}

/** '2026-03-14' → '3/14/2026' (a calendar day: no time zone shifts it). The app's one date format (src/layout/dateFormat.ts). */
export const formatUsDate = formatDay;

/** An instant → '3/14/2026, 6:30 PM' in `timeZone` (the browser's when not given). */
export const formatUsDateTime = formatDateTime;

/** An instant's calendar day in `timeZone`: '3/14/2026'. */
export const formatUsDayAt = formatDayAt;

export { formatTimeAt };

export function formatTime(time: string | null | undefined): string {
  return formatEventTime(time) ?? NOT_AVAILABLE;
}

/** The campaign in Meta's Ads Manager. */
export function adsManagerUrl(record: Pick<CampaignRecord, 'campaign_id' | 'meta_ad_account'>): string {
  const url = new URL('https://adsmanager.facebook.com/adsmanager/manage/campaigns');
  url.searchParams.set('act', String(record.meta_ad_account?.ad_account_id_int ?? '').replace(/^act_/, ''));
  url.searchParams.set('selected_campaign_ids', record.campaign_id);
  return url.toString();
}

/** Numbers only: digits, one dot, a leading minus. */
export const isNumberText = (text: string) => text === '' || /^-?\d*\.?\d*$/.test(text);
export const isCompleteNumber = (text: string) =>
  text === '' || (/^-?(\d+\.?\d*|\.\d+)$/.test(text) && Number.isFinite(Number(text)));
/** Campaign IDs, comma separated. */
export const isIdListText = (text: string) => /^[\d,\s]*$/.test(text);
