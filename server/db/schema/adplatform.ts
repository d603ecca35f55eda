import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Ad accounts as last synced from the ad platform (`/me/adaccounts`). */
export const metaAdAccounts = pgTable(
  'meta_ad_accounts',
  {
    adAccountId: text('ad_account_id').primaryKey(),
    accountName: text('account_name').notNull(),
    timezoneName: text('timezone_name').notNull().default('UTC'),
    currency: text('currency').notNull().default('USD'),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('meta_ad_accounts_name_idx').on(sql`lower(${t.accountName})`)],
);

/** Campaigns with their lifetime metrics and the parsed name (the "campaign extension"). */
export const campaigns = pgTable(
  'campaigns',
  {
    campaignId: bigint('campaign_id', { mode: 'bigint' }).primaryKey(),
    adAccountId: text('ad_account_id').notNull(),
    campaignName: text('campaign_name').notNull(),
    status: text('status'),
    effectiveStatus: text('effective_status'),
    topic: text('topic'),
    isWebinar: boolean('is_webinar'),
    eventDate: date('event_date'),
    eventTime: text('event_time'),
    spend: numeric('spend', { precision: 14, scale: 2 }),
    leads: integer('leads').notNull().default(0),
    impressions: bigint('impressions', { mode: 'number' }),
    clicks: bigint('clicks', { mode: 'number' }),
    linkClicks: bigint('link_clicks', { mode: 'number' }),
    cpl: numeric('cpl', { precision: 14, scale: 2 }),
    ctr: numeric('ctr', { precision: 10, scale: 4 }),
    cpc: numeric('cpc', { precision: 14, scale: 4 }),
    endDate: timestamp('end_date', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('campaigns_account_idx').on(t.adAccountId),
    index('campaigns_topic_idx').on(t.topic),
    index('campaigns_event_date_idx').on(t.eventDate),
    index('campaigns_end_date_idx').on(t.endDate),
    index('campaigns_spend_idx').on(t.spend),
    index('campaigns_cpl_idx').on(t.cpl),
  ],
);
