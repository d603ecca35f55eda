/** A campaign as GET /api/campaigns/ answers it (docs/contract.md#entities). */
import type { ObjectStateDto } from '../../../shared/ads';

export interface CampaignAccount {
  account_name: string;
  ad_account_id: string;
  /** A number, or a string when too large for one. */
  ad_account_id_int: number | string;
  timezone_name: string;
  currency: string;
}

export interface CampaignRecord {
  id: string;
  campaign_id: string;
  campaign_name: string;
  status: string | null;
  effective_status: string | null;
  /** On, or why not (who or what turned it off). */
  state?: ObjectStateDto;
  meta_ad_account: CampaignAccount;
  campaignextension: {
    topic: string | null;
    is_webinar: boolean | null;
    event_date: string | null;
    event_time: string | null;
  };
  /** The start of the webinar date chosen by hand when the name gives none. */
  chosen_event_at?: string | null;
  spend: number | null;
  leads: number | null;
  actions?: { action_type: string; value: string }[];
  cpl: number | null;
  ctr: number | null;
  cpc: number | null;
  end_date: string | null;
  updated_at: string | null;
  /** What the leads became at the campaign's webinar dates; null (N/A) before one happened. */
  registrations?: number | null;
  attendees?: number | null;
  /** 0–1 */
  show_up_rate?: number | null;
  cost_per_attendee?: number | null;
}

/** Filter names, as the API's query parameters (docs/contract.md#calls). */
export interface CampaignFilters {
  campaign_name?: string;
  meta_ad_account?: string;
  is_webinar?: 'true' | 'false';
  event_type__in?: string[];
  campaign_id__in?: string;
  event_date_after?: string;
  event_date_before?: string;
  end_date_after?: string;
  end_date_before?: string;
  spend_range_min?: string;
  spend_range_max?: string;
  cpl_annotation_min?: string;
  cpl_annotation_max?: string;
  ctr_annotation_min?: string;
  ctr_annotation_max?: string;
  cpc_annotation_min?: string;
  cpc_annotation_max?: string;
  show_up_rate_min?: string;
  show_up_rate_max?: string;
  cost_per_attendee_min?: string;
  cost_per_attendee_max?: string;
}
