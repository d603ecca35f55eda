import type { ObjectIssue } from '../adplatform/types';
import type { Database } from '../db/client';
import type { AccountSnapshot } from '../judgement/evaluate';
import { lastSwitches, switchesOf } from './onOffHistory';
import { createActivityStore, lockObjects } from '../activity/entries';

type Observed = { id: string; status: string; issues_info?: ObjectIssue[] };

/** What Meta said when it paused the object itself; undefined when it did not. */
export function metaPauseOf(object: Observed): ObjectIssue | undefined {
  return object.status === 'PAUSED' ? object.issues_info?.[0] : undefined;
}

export function metaPauseReason(issue: ObjectIssue, accountName: string): Record<string, string> {
  return {
    'Paused by': 'Meta, not a rule',
    Why: issue.error_summary ?? issue.error_message ?? 'Meta reports an issue with it',
    ...(issue.error_message && issue.error_message !== issue.error_summary ? { Details: issue.error_message } : {}),
    Account: accountName,
  };
}

/**
 * Writes an entry for each object of the snapshot Meta paused since the object's last known switch
 * (none, or a turn-on, however long ago); answers the entries written.
 */
export async function recordMetaPauses(
  db: Database,
  input: { data: AccountSnapshot; folderId: number; accountName: string; slot: Date; snapshotId: number },
) {
  const { data } = input;
  const candidates = [
    ...data.campaigns.map((object) => ({ object, type: 'campaign' })),
    ...data.ads.map((object) => ({ object, type: 'ad' })),
  ].flatMap(({ object, type }) => {
    const issue = metaPauseOf(object);
    return issue ? [{ id: object.id, type, issue }] : [];
  });
  if (!candidates.length) return [];
  const ids = candidates.map((c) => c.id);
  return db.transaction(async (tx) => {
    await lockObjects(tx, 'meta pause', ids);
    const last = lastSwitches(await switchesOf(tx, ids, new Date(0)));
    const paused = candidates.filter(({ id }) => last.get(id)?.turned !== 'off');
    if (!paused.length) return [];
    return createActivityStore(db).recordMetaPauses(tx, {
      folderId: input.folderId,
      slot: input.slot,
      snapshotId: input.snapshotId,
      pauses: paused.map(({ id, type, issue }) => ({
        objectId: id,
        objectType: type,
        reason: metaPauseReason(issue, input.accountName),
      })),
    });
  });
}
