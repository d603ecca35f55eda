/** API shapes of docs/contract.md#entities: the campaign (with its meta_ad_account and campaignextension) and the ad account option. */
import type { ObjectStateDto } from '../../shared/ads';
import type { campaigns, metaAdAccounts } from '../db/schema/index';

type CampaignRow = typeof campaigns.$inferSelect;
type AccountRow = Pick<typeof metaAdAccounts.$inferSelect, 'adAccountId' | 'accountName' | 'timezoneName' | 'currency'>;

const num = (value: string | null) => (value === null ? null : Number(value));

/** 'act_123' → 123 (a string when too large for a JSON number). */
export function adAccountIdInt(adAccountId: string): number | string {
  const digits = adAccountId.replace(/^act_/, '');
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : digits;
}

export function adAccountDto(a: AccountRow) {
  return {
    account_name: a.accountName,
    ad_account_id: a.adAccountId,
    ad_account_id_int: adAccountIdInt(a.adAccountId),
    timezone_name: a.timezoneName,
    currency: a.currency,
  };
}

/**
 * `state`: on, or why not (server/ads/states.ts); `chosenEventAt`: the start of the Demio date chosen
 * by hand for a name that gives none.
 */
export function campaignDto(c: CampaignRow, account: AccountRow, state: ObjectStateDto, chosenEventAt?: Date) {
  const id = c.campaignId.toString();
  return {
    id,
    campaign_id: id,
    campaign_name: c.campaignName,
    status: c.status,
    effective_status: c.effectiveStatus,
    state,
    meta_ad_account: adAccountDto(account),
    campaignextension: {
      topic: c.topic,
      is_webinar: c.isWebinar,
      event_date: c.eventDate,
      event_time: c.eventTime,
    },
    chosen_event_at: chosenEventAt ? chosenEventAt.toISOString() : null,
    spend: Number(c.spend),
    leads: c.leads,
    website_leads: c.websiteLeads,
    actions: c.actions,
    impressions: c.impressions,
    clicks: c.clicks,
    link_clicks: c.linkClicks,
    cpl: num(c.cpl),
    ctr: num(c.ctr),
    cpc: num(c.cpc),
    end_date: c.endDate ? c.endDate.toISOString() : null,
    updated_at: c.updatedAt.toISOString(),
    registrations: c.registrations,
    attendees: c.attendees,
    show_up_rate: num(c.showUpRate),
    cost_per_attendee: num(c.costPerAttendee),
  };
}

export type CampaignDto = ReturnType<typeof campaignDto>;
