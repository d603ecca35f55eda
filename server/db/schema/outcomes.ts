import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, instantNow, serialId } from './columns';
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
  ],
);
