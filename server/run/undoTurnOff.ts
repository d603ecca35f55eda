/**
 * Undo of a turn-off: the object is turned back on at the ad platform, the undo claimed once, and
 * the rule exempted from the object (it leaves it alone until the exemption is removed).
 */
import { eq } from 'drizzle-orm';
import {
  createActivityStore,
  TURN_OFF_ACTIONS,
  TURN_ON_FOR,
  type ActivityRow,
  type NewEntry,
} from '../activity/entries';
import { actorName, type AuditActor } from '../audit/log';
import { folders } from '../db/schema/index';
import { badRequest, notFound } from '../http/errors';
import { engineActions } from '../observability/counters';
import type { EngineContext } from './pipeline/context';
import { platformError, throwPlatformError } from './platformError';

export function undoOf(context: EngineContext) {
  const activity = createActivityStore(context.db);
  return {
    async undo(entryId: number, actor: AuditActor): Promise<ActivityRow> {
      const entry = undoable(await activity.entryById(entryId));
      await turnBackOn(context, entry);
      // Claim the undo first: of two users pressing Undo at once, one entry is written.
      if (!(await activity.claimUndo(entryId, context.now()))) throw badRequest('This action was already undone.');
      if (entry.ruleId !== null) await activity.exempt(entry.ruleId, entry.adId!, actor.id);
      engineActions.inc({ action: TURN_ON_FOR[entry.action]!, result: 'done' });
      return activity.recordEntry(undoEntry(entry, actor));
    },
  };
}

/** The entry when it is a turn-off carried out and not undone yet; else the error saying why not. */
function undoable(entry: ActivityRow | undefined): ActivityRow {
  if (entry?.state !== 'done') throw notFound();
  if (!(TURN_OFF_ACTIONS as readonly string[]).includes(entry.action))
    throw badRequest('Only a turn-off can be undone.');
  if (entry.undoneAt) throw badRequest('This action was already undone.');
  return entry;
}

/** Turns the entry's object back on, with the token of the connection serving its ad account. */
async function turnBackOn({ db, client }: EngineContext, entry: ActivityRow): Promise<void> {
  const [folder] = entry.folderId
    ? await db.select({ accountId: folders.adAccountId }).from(folders).where(eq(folders.id, entry.folderId))
    : [];
  const [result] = await client
    .setStatuses([{ id: entry.adId!, status: 'ACTIVE' }], { accountId: folder?.accountId ?? undefined })
    .catch(throwPlatformError);
  if (!result?.ok) throw platformError(result?.error ?? 'no answer');
}

/** The undo's own entry: the turn-on, whose undo of which entry, and the exemption it leaves. */
const undoEntry = (entry: ActivityRow, actor: AuditActor): NewEntry => ({
  ruleId: entry.ruleId,
  folderId: entry.folderId,
  action: TURN_ON_FOR[entry.action]!,
  adId: entry.adId,
  objectType: entry.objectType,
  actorId: actor.id,
  reason: {
    Undo: `of entry #${entry.id} by ${actorName(actor)}`,
    Exempt:
      entry.ruleId !== null
        ? 'the rule leaves this object alone until the exemption is removed'
        : 'the rule no longer exists',
  },
});
