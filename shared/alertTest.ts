/**
 * Send a test (`POST /api/alert_destinations/{id}/test/`): what happened when a labelled test
 * message was posted to an alert destination just now. It is also the destination's last delivery.
 */
import { z } from 'zod';

export interface AlertTestResult {
  /** The webhook answered 2xx. */
  ok: boolean;
  /** The webhook's HTTP status; null when it never answered (refused address, no connection, time-out). */
  status_code: number | null;
  /** What happened, in words: "Delivered: the webhook answered 200", "the webhook answered 500". */
  detail: string;
  /** When the attempt ended. */
  at: string;
}

export const alertTestResultSchema = z.object({
  ok: z.boolean(),
  status_code: z.number().int().nullable(),
  detail: z.string(),
  at: z.string().describe('ISO 8601 date and time'),
}) satisfies z.ZodType<AlertTestResult>;
