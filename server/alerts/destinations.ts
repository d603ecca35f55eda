/**
 * Where alert webhooks go. An alert about a folder goes to the global destinations and to that
 * folder's own; a health alert (no folder) to the global ones. Each destination has a stable key
 * for the once-only bookkeeping, so its URL (a secret) is never stored beside a delivery.
 */
import { createHash } from 'node:crypto';

export interface WebhookDestination {
  /** Stable and not secret: names the destination in webhook_deliveries. */
  key: string;
  url: string;
}

export interface WebhookDestinations {
  forFolder(folderId: number | null): Promise<WebhookDestination[]>;
}

/** A key for a URL that identifies it without revealing it (a short SHA-256). */
export const urlKey = (url: string) => `url:${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;

/** The global destination of ALERT_WEBHOOK_URL (none when unset). */
export function configuredDestinations(globalUrl: string | undefined): WebhookDestinations {
  const global = globalUrl ? [{ key: urlKey(globalUrl), url: globalUrl }] : [];
  return { forFolder: async () => global };
}
