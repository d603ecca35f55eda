import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { adAccountId, instant, instantNow, serialId } from './columns';
import { folders } from './rules';

/**
 * What a folder's leads became, one row per fact: registered or attended a webinar date (from
 * Demio) or reached a CRM stage (LEAD_STAGES in server/outcomes/quality.ts, uploaded or posted).
 * A lead is named only by its e-mail's SHA-256 (server/webinar/emailHash.ts) or its Meta lead id:
 * nothing personal is stored. `source_ref` makes a fact recorded twice land once: for Demio rows
 * the event date id, for CRM rows the upload's or caller's reference ('' when none).
 */
export const leadOutcomes = pgTable(
  'lead_outcomes',
  {
    id: serialId(),
    folderId: integer('folder_id')
      .notNull()
      .references(() => folders.id, { onDelete: 'cascade' }),
    /** The lead's e-mail SHA-256 (64 hex characters) or its Meta lead id. */
    leadKey: text('lead_key').notNull(),
    /** registered | attended | a CRM stage (qualified, booked, attended, won). */
    kind: text('kind').notNull(),
    occurredAt: instant('occurred_at').notNull(),
    /** demio | crm */
    source: text('source').notNull(),
    sourceRef: text('source_ref').notNull().default(''),
    /** The ad a website registration's UTM names (null when the lead is matched by e-mail or id). */
    adId: text('ad_id'),
    recordedAt: instantNow('recorded_at'),
  },
  (t) => [
    uniqueIndex('lead_outcomes_once').on(t.folderId, t.source, t.leadKey, t.kind, t.sourceRef),
    index('lead_outcomes_folder_lead_idx').on(t.folderId, t.leadKey),
    index('lead_outcomes_folder_occurred_idx').on(t.folderId, t.occurredAt),
    // The retention's pruning (server/outcomes/retention.ts).
    index('lead_outcomes_occurred_idx').on(t.occurredAt),
  ],
);

/**
 * The form leads of the ads of folders with webinar credentials, as read from Meta's lead
 * retrieval (server/outcomes/sync.ts): only the e-mail's SHA-256 is kept, never the e-mail.
 */
export const leadPeople = pgTable(
  'lead_people',
  {
    leadId: text('lead_id').primaryKey(),
    adAccountId: adAccountId().notNull(),
    adId: text('ad_id').notNull(),
    campaignId: text('campaign_id').notNull(),
    formId: text('form_id'),
    /** The normalised e-mail's SHA-256 (server/webinar/emailHash.ts); null when the lead gave none. */
    emailSha256: text('email_sha256'),
    createdTime: instant('created_time').notNull(),
    readAt: instantNow('read_at'),
  },
  (t) => [
    index('lead_people_ad_idx').on(t.adAccountId, t.adId, t.createdTime),
    index('lead_people_email_idx').on(t.adAccountId, t.emailSha256),
    index('lead_people_created_idx').on(t.createdTime),
  ],
);

/**
 * The Demio event dates a campaign advertises: read from its name ('name', server/webinar/
 * eventMatching.ts) or chosen by a person when the name gives no date ('chosen').
 * `participants_read_at`: when the date's participants were read (once, after it happened).
 * The campaigns list shows the chosen dates: a change empties its kept pages (trigger, migration 0039).
 */
export const campaignEvents = pgTable(
  'campaign_events',
  {
    id: serialId(),
    folderId: integer('folder_id')
      .notNull()
      .references(() => folders.id, { onDelete: 'cascade' }),
    adAccountId: adAccountId().notNull(),
    campaignId: text('campaign_id').notNull(),
    eventId: integer('event_id').notNull(),
    dateId: integer('date_id').notNull(),
    startsAt: instant('starts_at').notNull(),
    /** name | chosen */
    source: text('source').notNull(),
    participantsReadAt: instant('participants_read_at'),
    updatedAt: instantNow('updated_at'),
  },
  (t) => [
    uniqueIndex('campaign_events_once').on(t.folderId, t.campaignId, t.dateId),
    index('campaign_events_account_idx').on(t.adAccountId, t.startsAt),
    // A page of the campaigns list reads its campaigns' chosen dates.
    index('campaign_events_campaign_idx').on(t.campaignId),
  ],
);
