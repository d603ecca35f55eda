import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { adAccountId, instant, instantNow } from './columns';

/**
 * Ad accounts as last synced from the ad platform (`/me/adaccounts`).
 * ad_account_id is the Graph object id, 'act_<digits>'; rows are never deleted by a sync.
 */
export const metaAdAccounts = pgTable(
  'meta_ad_accounts',
  {
    adAccountId: adAccountId().primaryKey(),
    accountName: text('account_name').notNull(),
    timezoneName: text('timezone_name').notNull().default('UTC'),
    currency: text('currency').notNull().default('USD'),
    accountStatus: integer('account_status'),
    syncedAt: instantNow('synced_at'),
    /** When the account's campaigns were last synced in full, and why the last attempt failed (null: it did not). */
    campaignsSyncedAt: instant('campaigns_synced_at'),
    campaignSyncError: text('campaign_sync_error'),
  },
  (t) => [
    index('meta_ad_accounts_name_idx').on(sql`lower(${t.accountName})`),
    index('meta_ad_accounts_account_name_idx').on(t.accountName, t.adAccountId),
  ],
);

/** The Graph action list as synced: `[{action_type, value}]`, values as strings. */
export type StoredActions = { action_type: string; value: string }[];

/**
 * Campaigns with their lifetime metrics and the parsed name (the "campaign extension").
 * Every sortable column of the Campaigns screen has an index ending in campaign_id, the
 * tie-breaker of every ordering, so a sorted page of 100,000 campaigns is an index scan. Missing
 * values sort last both ways, so a nullable column has a second, descending index.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    campaignId: bigint('campaign_id', { mode: 'bigint' }).primaryKey(),
    adAccountId: adAccountId()
      .notNull()
      .references(() => metaAdAccounts.adAccountId),
    campaignName: text('campaign_name').notNull(),
    status: text('status'),
    effectiveStatus: text('effective_status'),
    topic: text('topic'),
    isWebinar: boolean('is_webinar'),
    eventDate: date('event_date'),
    eventTime: text('event_time'),
    spend: numeric('spend', { precision: 14, scale: 2 }).notNull().default('0'),
    leads: integer('leads').notNull().default(0),
    websiteLeads: integer('website_leads').notNull().default(0),
    actions: jsonb('actions').$type<StoredActions>().notNull().default([]),
    impressions: bigint('impressions', { mode: 'number' }),
    clicks: bigint('clicks', { mode: 'number' }),
    linkClicks: bigint('link_clicks', { mode: 'number' }),
    cpl: numeric('cpl', { precision: 14, scale: 2 }),
    ctr: numeric('ctr', { precision: 10, scale: 4 }),
    cpc: numeric('cpc', { precision: 14, scale: 4 }),
    endDate: instant('end_date'),
    /** When the metrics were last read from the ad platform (the screen's Sync Date). */
    updatedAt: instantNow('updated_at'),
    /**
     * What its ads' leads became (server/outcomes/, written by the outcome sync, never by the
     * campaign sync): null (N/A) until an event date the campaign advertises has happened.
     */
    registrations: integer('registrations'),
    attendees: integer('attendees'),
    showUpRate: numeric('show_up_rate', { precision: 10, scale: 4 }),
    costPerAttendee: numeric('cost_per_attendee', { precision: 14, scale: 2 }),
  },
  (t) => [
    index('campaigns_account_idx').on(t.adAccountId, t.campaignId),
    index('campaigns_name_idx').on(t.campaignName, t.campaignId),
    index('campaigns_topic_idx').on(t.topic, t.campaignId),
    index('campaigns_is_webinar_idx').on(t.isWebinar, t.campaignId),
    index('campaigns_event_date_idx').on(t.eventDate, t.campaignId),
    index('campaigns_event_time_idx').on(t.eventTime, t.campaignId),
    index('campaigns_end_date_idx').on(t.endDate, t.campaignId),
    index('campaigns_spend_idx').on(t.spend, t.campaignId),
    index('campaigns_leads_idx').on(t.leads, t.campaignId),
    index('campaigns_cpl_idx').on(t.cpl, t.campaignId),
    index('campaigns_ctr_idx').on(t.ctr, t.campaignId),
    index('campaigns_cpc_idx').on(t.cpc, t.campaignId),
    index('campaigns_updated_idx').on(t.updatedAt, t.campaignId),
    index('campaigns_show_up_rate_idx').on(t.showUpRate, t.campaignId),
    index('campaigns_cost_per_attendee_idx').on(t.costPerAttendee, t.campaignId),
    ...(
      [
        'topic',
        'isWebinar',
        'eventDate',
        'eventTime',
        'endDate',
        'cpl',
        'ctr',
        'cpc',
        'showUpRate',
        'costPerAttendee',
      ] as const
    ).map((key) => index(`campaigns_${t[key].name}_desc_idx`).on(t[key].desc().nullsLast(), t.campaignId.desc())),
  ],
);

/**
 * One row per sync job (ad accounts, campaigns): a lease so that only one process of a
 * scaled-out deployment runs it at a time, and the outcome of the last run.
 */
export const syncState = pgTable('sync_state', {
  name: text('name').primaryKey(),
  leaseUntil: instant('lease_until'),
  lastStartedAt: instant('last_started_at'),
  lastFinishedAt: instant('last_finished_at'),
  lastSuccessAt: instant('last_success_at'),
  lastError: text('last_error'),
});
