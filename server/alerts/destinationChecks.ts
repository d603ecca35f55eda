/**
 * What an alert destination must pass when it is saved, beyond its fields' schemas: its URL the
 * address policy accepts (addressPolicy.ts: resolved, every address public), and room under the cap
 * of its scope — ALERT_MAX_DESTINATIONS for every folder (ALERT_WEBHOOK_URL counted),
 * ALERT_MAX_FOLDER_DESTINATIONS for one. Problems are answered per field, like any other.
 */
import { and, count, eq, isNull, ne } from 'drizzle-orm';
import { table as alertDestinations } from '../../shared/resources/alertDestinations';
import type { Database } from '../db/client';
import { type AddressPolicy, checkDestination, RefusedDestination } from './addressPolicy';
import type { DestinationCaps } from './destinations';

interface DestinationChecks {
  db: Database;
  policy: AddressPolicy;
  caps: DestinationCaps;
  /** ALERT_WEBHOOK_URL, one of the global destinations when set. */
  envUrl?: string;
}

type Problems = Record<string, string[]>;

async function roomProblem(
  { db, caps, envUrl }: DestinationChecks,
  folderId: number | null,
  id: string | number | null,
): Promise<string | null> {
  const scope = folderId === null ? isNull(alertDestinations.folder_id) : eq(alertDestinations.folder_id, folderId);
  const others = id === null ? scope : and(scope, ne(alertDestinations.id, Number(id)));
  const [row] = await db.select({ n: count() }).from(alertDestinations).where(others);
  const taken = Number(row?.n ?? 0) + (folderId === null && envUrl ? 1 : 0);
  const cap = folderId === null ? caps.global : caps.perFolder;
  if (taken < cap) return null;
  return folderId === null
    ? `At most ${cap} destinations may receive every folder's alerts`
    : `At most ${cap} destinations may be set for one folder`;
}

/** The problems of a destination about to be saved (its values in clear; `id` null when new). */
export function alertDestinationCheck(checks: DestinationChecks) {
  return async (record: Record<string, unknown>, id: string | number | null): Promise<Problems> => {
    const problems: Problems = {};
    const folderId = (record.folder_id as number | null | undefined) ?? null;
    const room = await roomProblem(checks, folderId, id);
    if (room) problems.folder_id = [room];
    try {
      await checkDestination(String(record.url ?? ''), checks.policy);
    } catch (error) {
      if (!(error instanceof RefusedDestination)) throw error;
      problems.url = [error.message];
    }
    return problems;
  };
}
