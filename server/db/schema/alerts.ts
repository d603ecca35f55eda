import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, instantNow, serialId } from './columns';

/**
 * One row per (alert, webhook destination): the once-only bookkeeping of webhook delivery and the
 * delivery queue's state (server/alerts/deliveryQueue.ts). `source` names the alert kind (digest,
 * held_run, health) and `source_key` the alert itself (its activity entry, or the health alert's
 * id); the destination is named by a key (never its URL, which is a secret), found again at each
 * attempt among the destinations of `folder_id`. The message is stored with the claim, so a retry
 * sends what the first attempt would have. state: pending | retrying | sent | failed | refused;
 * `answer_code` is the remote's HTTP status (its body is never kept).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serialId(),
    source: text('source').notNull(),
    sourceKey: text('source_key').notNull(),
    destination: text('destination').notNull(),
    /** The alert destination's row (null: ALERT_WEBHOOK_URL) and its name when queued, for display. */
    destinationId: integer('destination_id'),
    destinationName: text('destination_name'),
    folderId: integer('folder_id'),
    message: jsonb('message').$type<Record<string, unknown>>().notNull(),
    state: text('state').notNull().default('pending'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    answerCode: integer('answer_code'),
    lastAttemptAt: instant('last_attempt_at'),
    createdAt: instantNow('created_at'),
    sentAt: instant('sent_at'),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_once').on(t.source, t.sourceKey, t.destination),
    index('webhook_deliveries_destination_idx').on(t.destinationId, t.id),
  ],
);
