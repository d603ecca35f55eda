/**
 * Where alert webhooks go. An alert about a folder goes to the global destinations and to that
 * folder's own; an alert about no folder to the global ones. The destinations are the active rows
 * of the alert destinations resource (shared/resources/alertDestinations.ts, URL stored
 * encrypted), plus ALERT_WEBHOOK_URL as one more global destination when set. Each destination has
 * a stable key for the once-only bookkeeping — a hash of its URL, so the URL (a secret) is never
 * stored beside a delivery, and a channel set both globally and for a folder gets the alert once.
 * At most `caps.global` global destinations and `caps.perFolder` of the folder's are answered
 * (saving refuses more, destinationChecks.ts; rows saved before a cap are cut here, oldest first).
 */
import { createHash } from 'node:crypto';
import { and, eq, isNull, or } from 'drizzle-orm';
import { table as alertDestinations } from '../../shared/resources/alertDestinations';
import type { Database } from '../db/client';
import { openSecret } from '../resources/store';
import type { CredentialCipher } from '../rules/credentials';

export interface WebhookDestination {
  /** Stable and not secret: names the destination in webhook_deliveries. */
  key: string;
  url: string;
  /** Its alert_destinations row (null: ALERT_WEBHOOK_URL) and name, shown beside its deliveries. */
  id: number | null;
  name: string;
}

export interface DestinationCaps {
  global: number;
  perFolder: number;
}

export const ENV_DESTINATION_NAME = 'ALERT_WEBHOOK_URL';

export interface WebhookDestinations {
  forFolder(folderId: number | null): Promise<WebhookDestination[]>;
}

/** A key for a URL that identifies it without revealing it (a short SHA-256). */
export const urlKey = (url: string) => `url:${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;

const fromEnv = (url: string): WebhookDestination => ({ key: urlKey(url), url, id: null, name: ENV_DESTINATION_NAME });

/** The global destination of ALERT_WEBHOOK_URL alone (none when unset). */
export function configuredDestinations(globalUrl: string | undefined): WebhookDestinations {
  const global = globalUrl ? [fromEnv(globalUrl)] : [];
  return { forFolder: async () => global };
}

/**
 * The stored destinations (read at each alert, so a change applies to the next one) and
 * ALERT_WEBHOOK_URL. A URL the server's key no longer opens is skipped.
 */
export function storedDestinations(
  db: Database,
  cipher: CredentialCipher,
  globalUrl: string | undefined,
  caps: DestinationCaps,
): WebhookDestinations {
  return {
    async forFolder(folderId) {
      const scope =
        folderId === null
          ? isNull(alertDestinations.folder_id)
          : or(isNull(alertDestinations.folder_id), eq(alertDestinations.folder_id, folderId));
      const rows = await db
        .select()
        .from(alertDestinations)
        .where(and(eq(alertDestinations.is_active, true), scope))
        .orderBy(alertDestinations.id);
      const ofScope = (folder: number | null, cap: number) =>
        rows.filter((row) => row.folder_id === folder).slice(0, Math.max(cap, 0));
      const chosen = [
        ...(globalUrl ? [fromEnv(globalUrl)] : []),
        ...[
          ...ofScope(null, caps.global - (globalUrl ? 1 : 0)),
          ...(folderId === null ? [] : ofScope(folderId, caps.perFolder)),
        ].map((row) => {
          const url = openSecret(cipher, row.url);
          return { key: urlKey(url), url, id: row.id, name: row.name };
        }),
      ];
      const byKey = new Map<string, WebhookDestination>();
      for (const destination of chosen)
        if (destination.url && !byKey.has(destination.key)) byKey.set(destination.key, destination);
      return [...byKey.values()];
    },
  };
}
