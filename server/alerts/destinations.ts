/**
 * Where alert webhooks go. An alert about a folder goes to the global destinations and to that
 * folder's own; an alert about no folder to the global ones. The destinations are the active rows
 * of the alert destinations resource (src/domain/resources/alertDestinations.ts, URL stored
 * encrypted), plus ALERT_WEBHOOK_URL as one more global destination when set. Each destination has
 * a stable key for the once-only bookkeeping — a hash of its URL, so the URL (a secret) is never
 * stored beside a delivery, and a channel set both globally and for a folder gets the alert once.
 */
import { createHash } from 'node:crypto';
import { and, eq, isNull, or } from 'drizzle-orm';
import { table as alertDestinations } from '../../src/domain/resources/alertDestinations';
import type { Database } from '../db/client';
import { openSecret } from '../resources/store';
import type { CredentialCipher } from '../rules/credentials';

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

const destination = (url: string): WebhookDestination => ({ key: urlKey(url), url });

/** The global destination of ALERT_WEBHOOK_URL alone (none when unset). */
export function configuredDestinations(globalUrl: string | undefined): WebhookDestinations {
  const global = globalUrl ? [destination(globalUrl)] : [];
  return { forFolder: async () => global };
}

/**
 * The stored destinations (read at each alert, so a change applies to the next one) and
 * ALERT_WEBHOOK_URL. A URL the server's key no longer opens is skipped.
 */
export function storedDestinations(db: Database, cipher: CredentialCipher, globalUrl?: string): WebhookDestinations {
  return {
    async forFolder(folderId) {
      const scope =
        folderId === null
          ? isNull(alertDestinations.folder_id)
          : or(isNull(alertDestinations.folder_id), eq(alertDestinations.folder_id, folderId));
      const rows = await db
        .select({ url: alertDestinations.url })
        .from(alertDestinations)
        .where(and(eq(alertDestinations.is_active, true), scope))
        .orderBy(alertDestinations.id);
      const urls = [...(globalUrl ? [globalUrl] : []), ...rows.map((row) => openSecret(cipher, row.url))];
      const byKey = new Map(urls.filter(Boolean).map((url) => [urlKey(url), destination(url)]));
      return [...byKey.values()];
    },
  };
}
