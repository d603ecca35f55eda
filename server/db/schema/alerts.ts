import { jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, instantNow, serialId } from './columns';

/**
 * One row per (alert, webhook destination): the once-only bookkeeping of webhook delivery, like
 * the claimed activity entry of an alert mail. `source` names the alert kind (digest, held_run,
 * health) and `source_key` the alert itself (its activity entry, or the health alert's id); the
 * destination is named by a key (never its URL, which is a secret). The message is stored with the
 * claim, so a retry sends what the first attempt would have. state: pending | sent | failed.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serialId(),
    source: text('source').notNull(),
    sourceKey: text('source_key').notNull(),
    destination: text('destination').notNull(),
    message: jsonb('message').$type<Record<string, unknown>>().notNull(),
    state: text('state').notNull().default('pending'),
    error: text('error'),
    createdAt: instantNow('created_at'),
    sentAt: instant('sent_at'),
  },
  (t) => [uniqueIndex('webhook_deliveries_once').on(t.source, t.sourceKey, t.destination)],
);
