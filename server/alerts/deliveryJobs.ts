/**
 * The alert deliveries' pg-boss queue: its own client, started at its first use, one job per
 * delivery row (the row's id its singleton key), a failed job retried with back-off by the queue's
 * settings, and the workers that take the jobs.
 */
import type { JobWithMetadata } from 'pg-boss';
import type { DbHandle } from '../db/client';
import { ownQueueClient } from '../run/queue';

export const DELIVERY_QUEUE = 'alert-delivery';

/** The job names only the delivery's row: what it posts, and where, is read again at each attempt. */
export interface DeliveryJob {
  deliveryId: number;
}

export interface DeliveryLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface DeliveryJobsOptions {
  dbh: DbHandle;
  log: DeliveryLog;
  /** Retries after the first attempt, and the first retry's delay (doubled each time). */
  retryLimit?: number;
  retryDelaySeconds?: number;
}

/** The queue's settings (its retries with back-off, how long a job may run and is kept), set again at each start. */
const queueSettings = ({ retryLimit, retryDelaySeconds }: DeliveryJobsOptions) => ({
  retryLimit: retryLimit ?? 5,
  retryDelay: retryDelaySeconds ?? 30,
  retryBackoff: true,
  retryDelayMax: 30 * 60,
  // An attempt is over within its deadline (10 s); a worker silent for a minute died.
  expireInSeconds: 60,
  deleteAfterSeconds: 3 * 24 * 60 * 60,
});

export function createDeliveryJobs(options: DeliveryJobsOptions) {
  const { dbh, log } = options;
  const client = ownQueueClient(
    dbh,
    // One queued or active job per delivery row (its id the singleton key).
    { name: DELIVERY_QUEUE, policy: 'exclusive', settings: queueSettings(options) },
    log,
    'alert deliveries',
  );
  const { boss, ready } = client;

  return {
    ready,

    /** A job for each delivery row (none again for a row whose job is queued or active). */
    async queue(ids: number[]) {
      if (!ids.length) return;
      await ready();
      for (const deliveryId of ids)
        await boss.send(DELIVERY_QUEUE, { deliveryId } satisfies DeliveryJob, { singletonKey: String(deliveryId) });
    },

    /** Takes the jobs in this process, `atOnce` side by side; answers how to stop. */
    async work(
      deliver: (job: JobWithMetadata<DeliveryJob>) => Promise<void>,
      { atOnce, pollingIntervalSeconds }: { atOnce: number; pollingIntervalSeconds: number },
    ): Promise<() => Promise<void>> {
      const workOptions = {
        batchSize: 1,
        includeMetadata: true,
        localConcurrency: atOnce,
        pollingIntervalSeconds,
      } as const;
      await boss.work<DeliveryJob, unknown, typeof workOptions>(DELIVERY_QUEUE, workOptions, async ([job]) =>
        deliver(job!),
      );
      return () => boss.offWork(DELIVERY_QUEUE);
    },

    stop: () => client.stop(15_000),
  };
}

export type DeliveryJobs = ReturnType<typeof createDeliveryJobs>;
