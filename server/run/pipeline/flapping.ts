/**
 * Flapping: an object turned off and back on more than twice in 24 hours, by any rules, undo or
 * hand, raises an alert — a `flapping` activity entry (one per object and UTC day: a unique index)
 * and a mail, sent by whoever wrote the entry. Checked for the objects a batch just switched.
 */
import { DateTime } from 'luxon';
import { createActivityStore } from '../../activity/entries';
import { flipsOf, switchesOf } from '../onOffHistory';
import { sendPlainAlert } from '../../alerts/plainAlert';
import type { InBatch } from './batch';
import type { EngineContext } from './context';

export const FLAPPING_FLIPS = 2;
const DAY_MS = 24 * 3_600_000;

export async function alertFlapping(ctx: EngineContext, work: InBatch[]): Promise<void> {
  const switched = work.flatMap((item) =>
    [...item.done, ...(item.revived ?? [])].map((entry) => ({ item, objectId: entry.adId! })),
  );
  if (!switched.length) return;
  const now = ctx.now();
  const activity = createActivityStore(ctx.db);
  try {
    const flips = flipsOf(
      await switchesOf(ctx.db, [...new Set(switched.map((s) => s.objectId))], new Date(now.getTime() - DAY_MS)),
    );
    const day = DateTime.fromJSDate(now, { zone: 'utc' }).startOf('day').toJSDate();
    for (const { item, objectId } of switched) {
      const times = flips.get(objectId) ?? 0;
      if (times <= FLAPPING_FLIPS) continue;
      // The object's alert, not one rule's: any rules, undo or hand may have switched it.
      const entry = await activity.recordFlapping({
        folderId: item.rule.folder.id,
        objectId,
        reason: {
          Flapping: `turned off and back on ${times} times in 24 hours`,
          'Last by rule': item.rule.name,
          Account: item.rule.account.accountName,
        },
        day,
        runId: item.runId,
      });
      if (!entry) continue;
      ctx.log.warn(`${objectId} flapping: turned off and back on ${times} times in 24 hours`);
      await sendPlainAlert(
        ctx.alerts,
        {
          subject: `Flapping: ${objectId} turned off and on ${times} times in 24 hours (${item.rule.folder.name})`,
          paragraphs: [
            `${objectId} in ${item.rule.folder.name} (${item.rule.account.accountName}) was turned off and back on ${times} times in the last 24 hours, last by rule "${item.rule.name}".`,
            'Rules of the folder may be working against each other (the general view flags rules that do), or someone keeps turning it back on by hand.',
          ],
          path: `/activity?ad_id=${encodeURIComponent(objectId)}`,
          label: 'Open its activity',
          folderEmails: item.rule.folder.alertEmails,
        },
        ctx.log,
      );
    }
  } catch (error) {
    // The alert is a by-product of the run: a failure to write it does not undo what the run did.
    ctx.log.warn(`flapping check failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
