/**
 * The push queue: one pg-boss job per ad account with notifications waiting, worked by the
 * engine's processes (ROLE all|worker) — the receiver only stores and queues, so Meta is answered
 * at once. `stately`: one job per account may wait while another runs, so a burst of deliveries
 * for one account makes one more look, not one per delivery. Its own pg-boss client, as the API
 * process enqueues too; a job queued in this process is started here at once (no poll's wait).
 */
import type { DbHandle } from '../db/client';
import { ownQueueClient } from '../run/queue';
import { startJobPump, type JobPump } from '../run/jobPump';
import { errorMessage } from '../errorMessage';

export const PUSH_QUEUE = 'meta-push';

interface PushJob {
  adAccountId: string;
}

export interface PushQueue {
  /** Asks the push worker to look at these accounts' new notifications. */
  enqueue(adAccountIds: string[]): Promise<void>;
  /** Works the queue in this process, up to `atOnce` accounts at a time; answers how to stop. */
  work(handle: (adAccountId: string) => Promise<void>, atOnce?: number): Promise<() => Promise<void>>;
  stop(): Promise<void>;
}

export interface PushQueueOptions {
  dbh: DbHandle;
  log: { warn(message: string): void };
  pollingIntervalMs?: number;
}

export function createPushQueue(options: PushQueueOptions): PushQueue {
  const { dbh, log } = options;
  const client = ownQueueClient(
    dbh,
    {
      name: PUSH_QUEUE,
      policy: 'stately',
      settings: {
        retryLimit: 5,
        retryDelay: 5,
        retryBackoff: true,
        retryDelayMax: 60,
        expireInSeconds: 120,
        heartbeatSeconds: 30,
        deleteAfterSeconds: 24 * 60 * 60,
      },
    },
    log,
    'push queue',
  );
  const { boss, ready } = client;
  let pump: JobPump | undefined;

  return {
    async enqueue(adAccountIds) {
      if (!adAccountIds.length) return;
      await ready();
      for (const adAccountId of new Set(adAccountIds))
        await boss.send(PUSH_QUEUE, { adAccountId } satisfies PushJob, { singletonKey: adAccountId });
      pump?.nudge();
    },
    async work(handle, atOnce = 10) {
      await ready();
      const own = startJobPump<PushJob>({
        boss,
        queue: PUSH_QUEUE,
        atOnce,
        pollingIntervalMs: options.pollingIntervalMs ?? 2000,
        heartbeatMs: 15_000,
        run: async (job) => {
          await handle(job.data.adAccountId);
          return { id: job.id, status: 'completed' };
        },
        onError: (error) => log.warn(`push queue: ${errorMessage(error)}`),
      });
      pump = own;
      return async () => {
        pump = undefined;
        await own.stop(10_000);
      };
    },
    stop: () => client.stop(10_000),
  };
}
