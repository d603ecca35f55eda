import { sql } from 'drizzle-orm';
import { doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { adAccountId, instant, instantNow, serialId } from './columns';

/**
 * Every time an ad or campaign was turned off or back on, as far as the product knows: by a rule,
 * an undo, a revive, an approval, or by hand on the platform (seen as an object on again after a
 * turn-off). The on/off history rules read for the cool-down and the flapping alert; a backtest
 * replays it. `follows_id` is the switch this one undoes: a platform turn-on is recorded once
 * whoever notices it first.
 */
export const objectSwitches = pgTable(
  'object_switches',
  {
    id: serialId(),
    adAccountId: adAccountId().notNull(),
    objectId: text('object_id').notNull(),
    /** off | on */
    turned: text('turned').notNull(),
    /** rule | undo | revive | approval | platform */
    source: text('source').notNull(),
    ruleId: integer('rule_id'),
    at: instantNow('at'),
    followsId: integer('follows_id'),
    /** The object's lifetime leads and spend when it was switched (a revive names what arrived since). */
    leads: doublePrecision('leads'),
    spend: doublePrecision('spend'),
  },
  (t) => [
    index('object_switches_object_idx').on(t.objectId, t.at),
    index('object_switches_at_idx').on(t.at),
    uniqueIndex('object_switches_follows_once').on(t.followsId),
  ],
);

/**
 * The platform's health as the last sync saw it, one row per (ad account, check); the token's
 * checks use the account id '*'. A problem is alerted once: `alerted_at` is claimed by the first
 * process that mails it and cleared when the problem goes.
 */
export const accountHealth = pgTable(
  'account_health',
  {
    adAccountId: adAccountId().notNull(),
    /** token | token_expiry | api_version | access | lead_tracking | webinar_key */
    check: text('check').notNull(),
    /** ok | problem | warning */
    state: text('state').notNull(),
    detail: text('detail').notNull().default(''),
    since: instantNow('since'),
    checkedAt: instantNow('checked_at'),
    alertedAt: instant('alerted_at'),
  },
  (t) => [
    primaryKey({ columns: [t.adAccountId, t.check] }),
    index('account_health_problem_idx').on(t.state).where(sql`state <> 'ok'`),
  ],
);

/**
 * An ad account's daily totals as read at a given age of the day (hours after the day ended in the
 * account's zone; negative while the day runs): the first reading of each hour is kept. How a day's
 * leads kept arriving after the day gives the account's measured lead lag; today's readings against
 * the past days' rate tell whether lead tracking broke.
 */
export const accountDayReadings = pgTable(
  'account_day_readings',
  {
    adAccountId: adAccountId().notNull(),
    day: text('day').notNull(),
    ageHours: integer('age_hours').notNull(),
    readAt: instant('read_at').notNull(),
    spend: doublePrecision('spend').notNull(),
    clicks: doublePrecision('clicks').notNull(),
    leads: doublePrecision('leads').notNull(),
    /** Of those, website (pixel) leads: the ones that arrive late, whose lag the allowance is measured on. */
    websiteLeads: doublePrecision('website_leads').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.adAccountId, t.day, t.ageHours] })],
);
