import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, date, text } from 'drizzle-orm/pg-core';
import { adAccountId, instant } from './columns';

/** A metric's cells as text, generated from its array (history_cells: migration 0047). */
const cellsText = (column: string) =>
  text(`${column}_text`)
    .notNull()
    .generatedAlwaysAs(sql.raw(`history_cells(${column})`));

/**
 * Metric history as the platform reported it (server/history/): one row per ad and UTC day, each
 * metric a 24-element array of cumulative (lifetime) values, element h for the reading kept in UTC
 * hour h. At most one reading per ad and hour is kept: the first one, unless it was a backfilled
 * value, which any live reading replaces. Money is in minor units (cents).
 *
 * read_mask bit h: hour h holds a reading. settled_mask bit h: it was filled afterwards from the
 * platform's daily and hourly breakdowns ("settled numbers, not as known then"). on_mask /
 * campaign_on_mask bit h: the ad / its campaign was delivering at that reading.
 * Each metric's `<column>_text` is its array written out ('1,2,,4'; blank: not reported), kept by the
 * database on every write: a backtest reads tens of millions of these numbers, and writing them out
 * at read time was most of a fleet preview's time on the embedded database.
 * Pruned after HISTORY_DAYS.
 */
export const adMetricHistory = pgTable(
  'ad_metric_history',
  {
    adAccountId: adAccountId().notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    adId: text('ad_id').notNull(),
    campaignId: text('campaign_id').notNull(),
    spendCents: integer('spend_cents').array(),
    impressions: integer('impressions').array(),
    clicks: integer('clicks').array(),
    linkClicks: integer('link_clicks').array(),
    leads: integer('leads').array(),
    websiteLeads: integer('website_leads').array(),
    readMask: integer('read_mask').notNull().default(0),
    settledMask: integer('settled_mask').notNull().default(0),
    onMask: integer('on_mask').notNull().default(0),
    campaignOnMask: integer('campaign_on_mask').notNull().default(0),
    spendCentsText: cellsText('spend_cents'),
    impressionsText: cellsText('impressions'),
    clicksText: cellsText('clicks'),
    linkClicksText: cellsText('link_clicks'),
    leadsText: cellsText('leads'),
    websiteLeadsText: cellsText('website_leads'),
  },
  (t) => [primaryKey({ columns: [t.adAccountId, t.day, t.adId] }), index('ad_metric_history_day_idx').on(t.day)],
);

/**
 * The names (and campaign budget, optimisation goal) last read for each ad of the history: what a
 * backtest shows, and whether it judges the ad's leads as able to arrive late (server/judgement/lateData.ts).
 */
export const adHistoryNames = pgTable(
  'ad_history_names',
  {
    adId: text('ad_id').primaryKey(),
    adAccountId: adAccountId().notNull(),
    adName: text('ad_name').notNull(),
    campaignId: text('campaign_id').notNull(),
    campaignName: text('campaign_name').notNull(),
    /** The campaign's daily budget in minor units, when it has one. */
    campaignDailyBudget: integer('campaign_daily_budget'),
    /** The ad set's optimization_goal as the insights reported it (LEAD_GENERATION: instant-form leads); null when not reported. */
    optimizationGoal: text('optimization_goal'),
    readAt: instant('read_at').notNull(),
  },
  (t) => [index('ad_history_names_account_idx').on(t.adAccountId)],
);
