/**
 * The Campaigns filter panel's draft: every filter as typed (strings; the topics a list), converted
 * from the list's filter values and back to the filter the list sends. Pure.
 */
import { isCompleteNumber } from './format';
import type { CampaignFilters } from './types';

export type FilterDraft = Required<{
  [K in keyof CampaignFilters]: K extends 'event_type__in' ? string[] : string;
}>;

export const EMPTY_FILTER_DRAFT: FilterDraft = {
  campaign_name: '',
  meta_ad_account: '',
  is_webinar: '',
  event_type__in: [],
  campaign_id__in: '',
  event_date_after: '',
  event_date_before: '',
  end_date_after: '',
  end_date_before: '',
  spend_range_min: '',
  spend_range_max: '',
  cpl_annotation_min: '',
  cpl_annotation_max: '',
  ctr_annotation_min: '',
  ctr_annotation_max: '',
  cpc_annotation_min: '',
  cpc_annotation_max: '',
  show_up_rate_min: '',
  show_up_rate_max: '',
  cost_per_attendee_min: '',
  cost_per_attendee_max: '',
} as FilterDraft;

/** The number filters, each with its label's key under campaigns.filters. */
export const NUMBER_FIELDS = [
  ['spend_range_min', 'min_spend'],
  ['spend_range_max', 'max_spend'],
  ['cpl_annotation_min', 'min_cpl'],
  ['cpl_annotation_max', 'max_cpl'],
  ['ctr_annotation_min', 'min_ctr'],
  ['ctr_annotation_max', 'max_ctr'],
  ['cpc_annotation_min', 'min_cpc'],
  ['cpc_annotation_max', 'max_cpc'],
  ['show_up_rate_min', 'min_show_up_rate'],
  ['show_up_rate_max', 'max_show_up_rate'],
  ['cost_per_attendee_min', 'min_cost_per_attendee'],
  ['cost_per_attendee_max', 'max_cost_per_attendee'],
] as const;

/** The date filters, each with its label's key under campaigns.filters. */
export const DATE_FIELDS = [
  ['event_date_after', 'event_date_from'],
  ['event_date_before', 'event_date_to'],
  ['end_date_after', 'end_date_from'],
  ['end_date_before', 'end_date_to'],
] as const;

export function toDraft(values: Record<string, unknown>): FilterDraft {
  const draft = { ...EMPTY_FILTER_DRAFT };
  for (const key of Object.keys(EMPTY_FILTER_DRAFT) as (keyof FilterDraft)[]) {
    const value = values[key];
    if (key === 'event_type__in')
      draft.event_type__in = Array.isArray(value)
        ? value.map(String)
        : typeof value === 'string' && value
          ? value.split(',')
          : [];
    else if (value !== undefined && value !== null) (draft as Record<string, unknown>)[key] = String(value);
  }
  return draft;
}

/** The filter the list sends: empty values dropped, incomplete numbers and ID lists held back. */
export function toFilter(draft: FilterDraft): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(draft)) {
    if (Array.isArray(value) ? value.length === 0 : value.trim() === '') continue;
    if (NUMBER_FIELDS.some(([name]) => name === key) && !isCompleteNumber(String(value).trim())) continue;
    filter[key] = Array.isArray(value) ? value : key === 'campaign_id__in' ? value.replace(/\s+/g, '') : value.trim();
  }
  return filter;
}

/** One string per distinct filter, whatever the order or empty values. */
export const filterKey = (values: Record<string, unknown>) =>
  JSON.stringify(Object.entries(toFilter(toDraft(values))).sort(([a], [b]) => a.localeCompare(b)));
