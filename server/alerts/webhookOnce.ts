/**
 * Webhook delivery sent once per (alert, destination), like the alert mail (engine/mailOnce.ts):
 * the delivery row is claimed with the message before the POST, then marked sent. A later call
 * for the same alert finds it: sent → nothing to do; pending or failed → the stored message goes
 * again (a webhook has no message id to deduplicate on, so only a crash between the POST and the
 * mark can repeat one). A destination that fails does not stop the others, nor the mail.
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { webhookDeliveries } from '../db/schema/index';
import type { WebhookDestinations } from './destinations';
import type { SendWebhook, WebhookMessage } from './webhook';

export type AlertSource = 'digest' | 'held_run' | 'health';

export interface WebhookAlert {
  source: AlertSource;
  /** Identifies the alert within its source (the activity entry's id, the health alert's id). */
  sourceKey: string;
  /** The folder the alert is about (its own destinations join the global ones); null: global only. */
  folderId: number | null;
  message: WebhookMessage;
}

export interface WebhookDelivery {
  db: Database;
  send: SendWebhook;
  destinations: WebhookDestinations;
  log: { warn(message: string): void };
}

export interface DeliveryOutcome {
  destination: string;
  status: 'sent' | 'already_sent' | 'failed';
}

export async function deliverOnce(delivery: WebhookDelivery, alert: WebhookAlert): Promise<DeliveryOutcome[]> {
  const { db } = delivery;
  const outcomes: DeliveryOutcome[] = [];
  for (const destination of await delivery.destinations.forFolder(alert.folderId)) {
    const key = { source: alert.source, sourceKey: alert.sourceKey, destination: destination.key };
    await db
      .insert(webhookDeliveries)
      .values({ ...key, message: { ...alert.message } })
      .onConflictDoNothing();
    const [row] = await db
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.source, key.source),
          eq(webhookDeliveries.sourceKey, key.sourceKey),
          eq(webhookDeliveries.destination, key.destination),
        ),
      );
    if (row!.state === 'sent') {
      outcomes.push({ destination: destination.key, status: 'already_sent' });
      continue;
    }
    try {
      await delivery.send(destination.url, row!.message as unknown as WebhookMessage);
      await db
        .update(webhookDeliveries)
        .set({ state: 'sent', sentAt: new Date(), error: null })
        .where(eq(webhookDeliveries.id, row!.id));
      outcomes.push({ destination: destination.key, status: 'sent' });
    } catch (error) {
      const reason = (error as Error).message;
      await db
        .update(webhookDeliveries)
        .set({ state: 'failed', error: reason })
        .where(eq(webhookDeliveries.id, row!.id));
      delivery.log.warn(`${alert.source} alert ${alert.sourceKey}: webhook ${destination.key} failed: ${reason}`);
      outcomes.push({ destination: destination.key, status: 'failed' });
    }
  }
  return outcomes;
}
