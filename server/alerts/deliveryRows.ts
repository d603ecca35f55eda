/**
 * The alert deliveries' rows (`webhook_deliveries`): one per (alert, destination), claimed once,
 * with its state, attempts, the answer's status and the time of the last attempt.
 */
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { webhookDeliveries } from '../db/schema/index';
import type { WebhookDestination } from './destinations';
import type { WebhookMessage } from './webhook';

export type AlertSource = 'digest' | 'held_run' | 'health';

export interface WebhookAlert {
  source: AlertSource;
  /** Identifies the alert within its source (the activity entry's id, the health alert's id). */
  sourceKey: string;
  /** The folder the alert is about (its own destinations join the global ones); null: global only. */
  folderId: number | null;
  message: WebhookMessage;
}

/** Claims a row per destination for the alert, once per (alert, destination); answers the ids not yet sent. */
export async function claimDeliveries(
  db: Database,
  alert: WebhookAlert,
  targets: WebhookDestination[],
): Promise<number[]> {
  await db
    .insert(webhookDeliveries)
    .values(
      targets.map((destination) => ({
        source: alert.source,
        sourceKey: alert.sourceKey,
        destination: destination.key,
        destinationId: destination.id,
        destinationName: destination.name,
        folderId: alert.folderId,
        message: { ...alert.message },
      })),
    )
    .onConflictDoNothing();
  const unsent = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.source, alert.source),
        eq(webhookDeliveries.sourceKey, alert.sourceKey),
        inArray(
          webhookDeliveries.destination,
          targets.map((destination) => destination.key),
        ),
        ne(webhookDeliveries.state, 'sent'),
      ),
    );
  return unsent.map((row) => row.id);
}

/** The rows still to be sent (pending or retrying). */
export async function unfinishedDeliveries(db: Database): Promise<number[]> {
  const left = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.state, ['pending', 'retrying']));
  return left.map((row) => row.id);
}

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export async function deliveryRow(db: Database, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}

/** An attempt's outcome on its row: the values given, one attempt more, and its time. */
export async function recordAttempt(db: Database, id: number, values: Partial<typeof webhookDeliveries.$inferInsert>) {
  await db
    .update(webhookDeliveries)
    .set({ ...values, attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: new Date() })
    .where(eq(webhookDeliveries.id, id));
}
