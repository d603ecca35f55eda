/**
 * Act: every turn-off of the acting runs is claimed (pending) at once, sent per account in
 * batched status changes, then confirmed at once. A retry re-sends exactly the claimed ones
 * (pausing is idempotent) and never adds a second entry; an object is claimed at most once per
 * snapshot, whichever rule gets there first.
 */
import { createActivityStore, type ActivityRow } from '../../activity/entries';
import { createLedgerStore } from '../ledger';
import { slotLabel } from '../../judgement/scheduleSlots';
import { baseRecord, catchesUp, caughtUpHours, details, failAll, groupBy, live, plural, type InBatch } from './batch';
import type { EngineContext } from './context';
import { actBudgets, budgetRecord } from './changeBudgets';
import { actTurnOns } from './turnOns';

/**
 * Sends claimed turn-offs (of one ad account) in batched status changes; a refused one becomes an
 * error entry. The ones made are answered, not yet confirmed (markDone), so a batch confirms them all at once.
 */
export async function sendTurnOffs(
  ctx: EngineContext,
  claimed: ActivityRow[],
  accountId: string,
): Promise<{ done: ActivityRow[]; failed: ActivityRow[] }> {
  if (!claimed.length) return { done: [], failed: [] };
  const results = await ctx.client.setStatuses(
    claimed.map((e) => ({ id: e.adId!, status: 'PAUSED' as const })),
    { accountId },
  );
  const byId = new Map(results.map((r) => [r.id, r]));
  const activity = createActivityStore(ctx.db);
  const done: ActivityRow[] = [];
  const failed: ActivityRow[] = [];
  for (const entry of claimed) {
    const result = byId.get(entry.adId!);
    if (result?.ok) done.push(entry);
    else {
      await activity.markFailed(entry, result?.error ?? 'no answer from the ad platform', ctx.now());
      failed.push(entry);
    }
  }
  return { done, failed };
}

/** Applies claimed turn-offs in batched status changes; each entry ends done or as an error. */
export async function apply(
  ctx: EngineContext,
  claimed: ActivityRow[],
  accountId: string,
): Promise<{ done: ActivityRow[]; failed: ActivityRow[] }> {
  const sent = await sendTurnOffs(ctx, claimed, accountId);
  await createActivityStore(ctx.db).markDone(
    sent.done.map((e) => e.id),
    ctx.now(),
  );
  return sent;
}

/** Claims every turn-off of the acting runs at once, sends them per account, confirms them at once. */
export async function act(ctx: EngineContext, items: InBatch[]): Promise<void> {
  if (!items.length) return;
  const { db } = ctx;
  const activity = createActivityStore(db);
  try {
    const claimed = await activity.claimTurnOffsOf(
      items.map((item) => ({
        scope: {
          ruleId: item.rule.id,
          folderId: item.rule.folder.id,
          slot: item.run.slot,
          snapshotId: item.snapshot!.id,
          actorId: item.run.actorId ?? null,
          runId: item.runId,
          at: ctx.now(),
          readAt: item.snapshot!.fetchedAt,
        },
        actions: item.planned!,
      })),
    );
    const claimedOf = groupBy(claimed, (entry) => entry.ruleId!);
    for (const item of items) item.claimed = claimedOf.get(item.rule.id) ?? [];
  } catch (error) {
    failAll(items, error);
    return;
  }

  await Promise.all(
    [...groupBy(items, (item) => item.rule.account.adAccountId).entries()].map(async ([accountId, group]) => {
      try {
        const { done, failed } = await sendTurnOffs(
          ctx,
          group.flatMap((item) => [...item.leftOver, ...item.claimed]),
          accountId,
        );
        const doneOf = groupBy(done, (entry) => entry.ruleId!);
        const failedOf = groupBy(failed, (entry) => entry.ruleId!);
        for (const item of group) {
          item.done = doneOf.get(item.rule.id) ?? [];
          item.failed = failedOf.get(item.rule.id) ?? [];
        }
      } catch (error) {
        failAll(group, error);
      }
    }),
  );

  const sent = live(items);
  try {
    await activity.markDone(
      sent.flatMap((item) => item.done.map((e) => e.id)),
      ctx.now(),
    );
    await createLedgerStore(db).supersedeAll(
      items[0]!.run.kind,
      sent
        .filter((item) => item.run.missed?.length)
        .map((item) => ({
          ruleId: item.rule.id,
          slots: item.run.missed!,
          note: `caught up by the ${slotLabel({ instant: item.run.slot }, item.rule.timezone)} run`,
        })),
    );
  } catch (error) {
    failAll(sent, error);
    return;
  }
  await actBudgets(ctx, sent);
  await actTurnOns(ctx, sent);
  for (const item of live(sent)) settleActed(ctx, item);
}

/** What an acting run finishes with: its turn-offs made and failed, and what it caught up on. */
function settleActed(ctx: EngineContext, item: InBatch): void {
  const { run, rule, done, failed, planned } = item;
  // Planned objects another rule or worker claimed first on this snapshot were not acted on here.
  const claimedIds = new Set([...item.leftOver, ...item.claimed].map((e) => e.adId!));
  const notDone = new Set([
    ...item.stale!,
    ...planned!.filter((a) => !claimedIds.has(a.objectId)).map((a) => a.objectId),
  ]);
  const revived = item.revived?.length ?? 0;
  const budgetsDone = item.budgetDone?.length ?? 0;
  const budgetsFailed = (item.budgetFailed?.length ?? 0) + (item.turnOnsFailed?.length ?? 0);
  const turnedOn = item.turnedOn?.length ?? 0;
  const notes = [
    ...(done.length || (!revived && !item.budgetFates?.length) ? [plural(done.length, 'turn-off')] : []),
    ...(item.budgetFates?.length ? [plural(budgetsDone, 'budget change')] : []),
    ...(item.rule.action?.kind === 'turn_on' ? [`${turnedOn} turned on`] : []),
    ...(revived ? [`${revived} revived`] : []),
    ...(failed.length + budgetsFailed ? [`${failed.length + budgetsFailed} failed`] : []),
  ];
  if (catchesUp(run)) {
    const caughtUp = caughtUpHours(run, rule.timezone);
    notes.push(`caught up on ${caughtUp}`);
    ctx.log.info(`rule ${rule.id} "${rule.name}": caught up on the missed ${caughtUp} run of today`);
  }
  const note = notes.join('; ');
  const allFailed = failed.length + budgetsFailed;
  const outcome = allFailed ? (done.length + budgetsDone + turnedOn ? 'partly_failed' : 'failed') : 'done';
  const budgets = budgetRecord(item);
  const record = details(
    item.evaluation!,
    'act',
    notDone,
    budgets.budgets.length ? { budgets: budgets.budgets, money: budgets.money } : {},
  );
  record.counts.failed = allFailed;
  item.finish = { status: 'done', note, record: { ...baseRecord(item), outcome, ...record } };
  item.result = { status: 'done', turnedOff: done, failed, note, runId: item.runId };
}
