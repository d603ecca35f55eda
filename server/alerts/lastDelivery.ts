/**
 * Each alert destination's last delivery, kept on its row for the destinations screen: when, what
 * it was (an alert's source, or `test`), the answer's status, the problem when it did not get
 * through, and how many deliveries failed in a row since the last one that did. Written after
 * every attempt the delivery queue makes and after every Send a test; ALERT_WEBHOOK_URL has no row
 * and keeps nothing. The row is the alert destinations resource's (the generic resource store adds,
 * edits and deletes it, and never writes these read-only columns); these columns are this file's.
 */
import { eq, sql } from 'drizzle-orm';
import { table as alertDestinations } from '../../shared/resources/alertDestinations';
import type { Database } from '../db/client';

export interface DeliveryOutcome {
  /** The alert's source (digest, held_run, health) or 'test'. */
  source: string;
  at: Date;
  /** The remote's HTTP status, when it answered. */
  answerCode: number | null;
  /** Why it did not get through; null when it did. */
  error: string | null;
}

export async function recordLastDelivery(db: Database, destinationId: number, outcome: DeliveryOutcome) {
  const failed = outcome.error !== null;
  await db
    .update(alertDestinations)
    .set({
      last_delivery_at: outcome.at,
      last_delivery_source: outcome.source,
      last_answer_code: outcome.answerCode,
      last_delivery_error: outcome.error,
      consecutive_failures: failed ? sql`${alertDestinations.consecutive_failures} + 1` : 0,
    })
    .where(eq(alertDestinations.id, destinationId));
}
