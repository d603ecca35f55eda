/**
 * Alert webhooks delivered from a queue, never inside the run that raised the alert. Enqueuing
 * (the engine's held runs and digests, the health check) claims one `webhook_deliveries` row per
 * destination with the message — once per (alert, destination) — and queues one pg-boss job per
 * row still to be sent. The workers (ROLE all|worker) post up to `atOnce` deliveries side by side,
 * each within its deadline (webhook.ts), and keep on the row its state, attempts, the answer's
 * status and the time of the last attempt (and on the destination's own row its last delivery,
 * lastDelivery.ts); a failed attempt is retried by pg-boss with back-off,
 * a refused address or a 4xx answer is not. The job names only the row: the URL (a secret) is found
 * again by its key among the current destinations, so a change applies to the next attempt.
 */
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { type JobWithMetadata, PgBoss } from 'pg-boss';
import type { DbHandle } from '../db/client';
import { webhookDeliveries } from '../db/schema/index';
import { errorMessage } from '../errorMessage';
import { bossDatabase } from '../run/queue';
import { RefusedDestination } from './addressPolicy';
import type { WebhookDestinations } from './destinations';
import { recordLastDelivery } from './lastDelivery';
import { type SendWebhook, WebhookError, type WebhookMessage } from './webhook';

export const DELIVERY_QUEUE = 'alert-delivery';

export type AlertSource = 'digest' | 'held_run' | 'health';

export interface WebhookAlert {
  source: AlertSource;
  /** Identifies the alert within its source (the activity entry's id, the health alert's id). */
  sourceKey: string;
  /** The folder the alert is about (its own destinations join the global ones); null: global only. */
  folderId: number | null;
  message: WebhookMessage;
}

export interface DeliveryQueueOptions {
  dbh: DbHandle;
  destinations: WebhookDestinations;
  send: SendWebhook;
  log: { info(message: string): void; warn(message: string): void };
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

interface DeliveryJob {
  deliveryId: number;
}

/** Answers no retry mends: the address refused, or the remote's own 4xx (but time-outs and rate limits). */
const isFinal = (error: unknown) =>
  error instanceof RefusedDestination ||
  (error instanceof WebhookError &&
    error.answerCode !== undefined &&
    error.answerCode >= 400 &&
    error.answerCode < 500 &&
    ![408, 429].includes(error.answerCode));

export function createDeliveryQueue(options: DeliveryQueueOptions): DeliveryQueue {
  const { dbh, destinations, send, log } = options;
  const db = dbh.db;
  // Its own pg-boss client, so the API process (Run now) enqueues too; the engine's supervises it.
  const boss = new PgBoss({
    db: bossDatabase(dbh.sql),
    backend: dbh.kind === 'pglite' ? 'pglite' : 'postgres',
    schema: 'pgboss',
    supervise: false,
    schedule: false,
  });
  boss.on('error', (error) => log.warn(`alert deliveries: ${errorMessage(error)}`));
  let started: Promise<void> | null = null;

  async function createQueue() {
    const settings = {
      retryLimit: options.retryLimit ?? 5,
      retryDelay: options.retryDelaySeconds ?? 30,
      retryBackoff: true,
      retryDelayMax: 30 * 60,
      // An attempt is over within its deadline (10 s); a worker silent for a minute died.
      expireInSeconds: 60,
      deleteAfterSeconds: 3 * 24 * 60 * 60,
    };
    if (await boss.getQueue(DELIVERY_QUEUE)) return boss.updateQueue(DELIVERY_QUEUE, settings);
    try {
      // One queued or active job per delivery row (its id the singleton key).
      await boss.createQueue(DELIVERY_QUEUE, { ...settings, policy: 'exclusive' });
    } catch (error) {
      if (!(await boss.getQueue(DELIVERY_QUEUE))) throw error; // not another process creating it
    }
  }

  /** Started at its first use; a failed start is tried again at the next. */
  function ready(): Promise<void> {
    started ??= (async () => {
      await boss.start();
      await createQueue();
    })().catch((error) => {
      started = null;
      throw error;
    });
    return started;
  }

  async function queueJobs(ids: number[]) {
    if (!ids.length) return;
    await ready();
    for (const deliveryId of ids)
      await boss.send(DELIVERY_QUEUE, { deliveryId } satisfies DeliveryJob, { singletonKey: String(deliveryId) });
  }

  async function enqueue(alert: WebhookAlert) {
    const targets = await destinations.forFolder(alert.folderId);
    if (!targets.length) return;
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
    await queueJobs(unsent.map((row) => row.id));
  }

  async function record(id: number, values: Partial<typeof webhookDeliveries.$inferInsert>) {
    await db
      .update(webhookDeliveries)
      .set({ ...values, attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, id));
  }

  async function deliver(job: JobWithMetadata<DeliveryJob>): Promise<void> {
    const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, job.data.deliveryId));
    if (!row || row.state === 'sent') return;
    const label = `${row.source} alert ${row.sourceKey}: webhook ${row.destination}`;
    const destination = (await destinations.forFolder(row.folderId)).find((d) => d.key === row.destination);
    if (!destination) {
      await record(row.id, { state: 'failed', error: 'the destination was removed or switched off' });
      return;
    }
    // The destination's row keeps its last delivery (the env's destination has none).
    const kept = (answerCode: number | null, error: string | null) =>
      destination.id === null
        ? undefined
        : recordLastDelivery(db, destination.id, { source: row.source, at: new Date(), answerCode, error });
    try {
      const { answerCode } = await send(destination.url, row.message as unknown as WebhookMessage);
      await record(row.id, { state: 'sent', answerCode, error: null, sentAt: new Date() });
      await kept(answerCode, null);
    } catch (error) {
      const final = isFinal(error) || job.retryCount >= job.retryLimit;
      const state = error instanceof RefusedDestination ? 'refused' : final ? 'failed' : 'retrying';
      const answerCode = error instanceof WebhookError ? (error.answerCode ?? null) : null;
      await record(row.id, { state, answerCode, error: errorMessage(error) });
      await kept(answerCode, errorMessage(error));
      log.warn(`${label} ${state}: ${errorMessage(error)}`);
      if (!final) throw error; // pg-boss tries again later
    }
  }

  return {
    enqueue,
    async work() {
      await ready();
      // Rows claimed before a crash left them without a job get one (a queued job keeps its place).
      const left = await db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(inArray(webhookDeliveries.state, ['pending', 'retrying']));
      await queueJobs(left.map((row) => row.id));
      const workOptions = {
        batchSize: 1,
        includeMetadata: true,
        localConcurrency: options.atOnce ?? 5,
        pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
      } as const;
      await boss.work<DeliveryJob, unknown, typeof workOptions>(DELIVERY_QUEUE, workOptions, async ([job]) =>
        deliver(job!),
      );
      return () => boss.offWork(DELIVERY_QUEUE);
    },
    async stop() {
      if (started) await boss.stop({ graceful: true, close: false, timeout: 15_000 }).catch(() => undefined);
    },
  };
}
