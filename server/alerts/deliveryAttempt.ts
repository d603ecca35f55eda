/**
 * One attempt at a delivery (a job of deliveryJobs.ts): the destination found again by its key
 * among the current ones (the URL is a secret the job does not hold, and a change applies to the
 * next attempt), the message posted, the outcome kept on the delivery's row and on the
 * destination's own (lastDelivery.ts). A failed attempt is thrown again for pg-boss to retry,
 * unless no retry mends it or the retries are spent.
 */
import type { JobWithMetadata } from 'pg-boss';
import type { Database } from '../db/client';
import { errorMessage } from '../errorMessage';
import { RefusedDestination } from './addressPolicy';
import type { WebhookDestinations } from './destinations';
import type { DeliveryJob, DeliveryLog } from './deliveryJobs';
import { deliveryRow, recordAttempt, type DeliveryRow } from './deliveryRows';
import { recordLastDelivery } from './lastDelivery';
import { type SendWebhook, WebhookError, type WebhookMessage } from './webhook';

export interface AttemptDependencies {
  db: Database;
  destinations: WebhookDestinations;
  send: SendWebhook;
  log: DeliveryLog;
}

type KeepLastDelivery = (answerCode: number | null, error: string | null) => Promise<void>;

/** Answers no retry mends: the address refused, or the remote's own 4xx (but time-outs and rate limits). */
const isFinal = (error: unknown) =>
  error instanceof RefusedDestination ||
  (error instanceof WebhookError &&
    error.answerCode !== undefined &&
    error.answerCode >= 400 &&
    error.answerCode < 500 &&
    ![408, 429].includes(error.answerCode));

export async function attemptDelivery(
  { db, destinations, send, log }: AttemptDependencies,
  job: JobWithMetadata<DeliveryJob>,
): Promise<void> {
  const row = await deliveryRow(db, job.data.deliveryId);
  if (!row || row.state === 'sent') return;
  const destination = (await destinations.forFolder(row.folderId)).find((d) => d.key === row.destination);
  if (!destination) {
    await recordAttempt(db, row.id, { state: 'failed', error: 'the destination was removed or switched off' });
    return;
  }
  const keepLastDelivery = lastDeliveryKeeper(db, destination.id, row.source);
  try {
    const { answerCode } = await send(destination.url, row.message as unknown as WebhookMessage);
    await recordAttempt(db, row.id, { state: 'sent', answerCode, error: null, sentAt: new Date() });
    await keepLastDelivery(answerCode, null);
  } catch (error) {
    await recordFailure(db, log, job, row, keepLastDelivery, error);
  }
}

/** The destination's row keeps its last delivery (the env's destination has none). */
const lastDeliveryKeeper =
  (db: Database, destinationId: number | null, source: string): KeepLastDelivery =>
  async (answerCode, error) => {
    if (destinationId !== null)
      await recordLastDelivery(db, destinationId, { source, at: new Date(), answerCode, error });
  };

/** A failed attempt kept on both rows and logged; thrown again unless it is final. */
async function recordFailure(
  db: Database,
  log: DeliveryLog,
  job: JobWithMetadata<DeliveryJob>,
  row: DeliveryRow,
  keepLastDelivery: KeepLastDelivery,
  error: unknown,
): Promise<void> {
  const final = isFinal(error) || job.retryCount >= job.retryLimit;
  const state = error instanceof RefusedDestination ? 'refused' : final ? 'failed' : 'retrying';
  const answerCode = error instanceof WebhookError ? (error.answerCode ?? null) : null;
  await recordAttempt(db, row.id, { state, answerCode, error: errorMessage(error) });
  await keepLastDelivery(answerCode, errorMessage(error));
  log.warn(`${row.source} alert ${row.sourceKey}: webhook ${row.destination} ${state}: ${errorMessage(error)}`);
  if (!final) throw error; // pg-boss tries again later
}
