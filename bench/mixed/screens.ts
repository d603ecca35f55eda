/** What the screens can send: their page sizes (shared/constants.ts), sort columns and search words. */
export { CAMPAIGN_PAGE_SIZES, LOG_PAGE_SIZES, TEAM_PAGE_SIZES } from '../../shared/constants';
export const LOG_SORTS = ['timestamp', 'actor', 'ad_account', 'action', 'rule_name'];
export const ACTIVITY_SORTS = ['created_at', 'client_account', 'action', 'rule', 'ad_id'];
export const CAMPAIGN_SORTS = [
  'campaign_id',
  'campaign_name',
  'meta_ad_account',
  'topic',
  'is_webinar',
  'event_date',
  'event_time',
  'spend',
  'result',
  'cpl',
  'ctr',
  'cpc',
  'end_date',
  'updated_at',
];
export const TEAM_SORTS = ['id', 'last_name', 'email', 'is_active', 'date_joined'];
/** Words the Activity's reasons and ads hold (its search covers ad id, action and reason). */
export const ACTIVITY_WORDS = ['image', 'video', 'CPL', 'Leads', 'turn_off', 'Carousel'];
export const MONTHS = ['2024-01', '2024-06', '2024-11', '2025-03', '2025-08'];
