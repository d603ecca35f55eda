/**
 * The rule engine's way into webhook delivery: its alert paths (digests, held runs) pass what they
 * mailed, and each configured destination gets it once. Delivery never fails the alert: the mail
 * went out, and a webhook problem is logged and kept on its delivery row.
 */
import type { Database } from '../db/client';
import type { WebhookDestinations } from './destinations';
import type { SendWebhook } from './webhook';
import { deliverOnce, type DeliveryOutcome, type WebhookAlert } from './webhookOnce';

export interface AlertWebhooks {
  send: SendWebhook;
  destinations: WebhookDestinations;
}

export async function sendToWebhooks(
  ctx: { db: Database; log: { warn(message: string): void } },
  webhooks: AlertWebhooks | undefined,
  alert: WebhookAlert,
): Promise<DeliveryOutcome[]> {
  if (!webhooks) return [];
  try {
    return await deliverOnce({ db: ctx.db, log: ctx.log, ...webhooks }, alert);
  } catch (error) {
    ctx.log.warn(`${alert.source} alert ${alert.sourceKey}: webhook delivery failed: ${(error as Error).message}`);
    return [];
  }
}
