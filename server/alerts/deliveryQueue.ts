/**
 * Alert webhooks delivered from a queue, never inside the run that raised the alert. Enqueuing
 * (the engine's held runs and digests, the health check) claims one `webhook_deliveries` row per
 * destination with the message — once per (alert, destination), deliveryRows.ts — and queues one
 * pg-boss job per row still to be sent (deliveryJobs.ts). The workers (ROLE all|worker) post up to
 * `atOnce` deliveries side by side, each within its deadline (webhook.ts), and keep on the row its
 * state, attempts, the answer's status and the time of the last attempt (and on the destination's
 * own row its last delivery, lastDelivery.ts); a failed attempt is retried by pg-boss with back-off,
 * a refused address or a 4xx answer is not (deliveryAttempt.ts). The job names only the row: the
 * URL (a secret) is found again by its key among the current destinations, so a change applies to
 * the next attempt.
 */
import type { DbHandle } from '../db/client';
import { attemptDelivery } from './deliveryAttempt';
import { createDeliveryJobs, type DeliveryLog } from './deliveryJobs';
import { claimDeliveries, unfinishedDeliveries, type WebhookAlert } from './deliveryRows';
import type { WebhookDestinations } from './destinations';
import type { SendWebhook } from './webhook';

export { DELIVERY_QUEUE } from './deliveryJobs';
export type { AlertSource, WebhookAlert } from './deliveryRows';

export interface DeliveryQueueOptions {
  dbh: DbHandle;
  destinations: WebhookDestinations;
  send: SendWebhook;
  log: DeliveryLog;
  /** Deliveries posted at once in this process (default 5). */
  atOnce?: number;
  /** Retries after the first attempt, and the first retry's delay (doubled each time). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  pollingIntervalSeconds?: number;
}

export interface DeliveryQueue {
  enqueue(alert: WebhookAlert): Promise<void>;
  /** Starts posting in this process (ROLE all|worker); answers how to stop. */
  work(): Promise<() => Promise<void>>;
  stop(): Promise<void>;
}

export function createDeliveryQueue(options: DeliveryQueueOptions): DeliveryQueue {
  const { dbh, destinations, send, log } = options;
  const db = dbh.db;
  const jobs = createDeliveryJobs(options);
  return {
    async enqueue(alert) {
      const targets = await destinations.forFolder(alert.folderId);
      if (!targets.length) return;
      await jobs.queue(await claimDeliveries(db, alert, targets));
    },
    async work() {
      await jobs.ready();
      // Rows claimed before a crash left them without a job get one (a queued job keeps its place).
      await jobs.queue(await unfinishedDeliveries(db));
      return jobs.work((job) => attemptDelivery({ db, destinations, send, log }, job), {
        atOnce: options.atOnce ?? 5,
        pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
      });
    },
    stop: () => jobs.stop(),
  };
}
