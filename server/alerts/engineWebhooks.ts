/**
 * The alert paths' way into webhook delivery (the engine's held runs and digests, the health
 * check): they pass what they mailed, and it is queued for each destination (deliveryQueue.ts) —
 * nothing is posted while they wait. Queuing never fails the alert: the mail went out, and a
 * problem is logged.
 */
import type { WebhookAlert } from './deliveryQueue';

export interface AlertWebhooks {
  enqueue(alert: WebhookAlert): Promise<void>;
}

export async function queueWebhooks(
  ctx: { log: { warn(message: string): void } },
  webhooks: AlertWebhooks | undefined,
  alert: WebhookAlert,
): Promise<void> {
  if (!webhooks) return;
  try {
    await webhooks.enqueue(alert);
  } catch (error) {
    ctx.log.warn(`${alert.source} alert ${alert.sourceKey}: webhooks could not be queued: ${(error as Error).message}`);
  }
}
