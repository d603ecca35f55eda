/** Notify: notify-only runs write what they would have done, one statement for all of them. */
import { createActivityStore, type ActivityRow } from '../../activity/entries';
import { baseRecord, details, failAll, groupBy, plural, type InBatch } from './batch';
import type { EngineContext } from './context';
import { budgetRecord } from './changeBudgets';

const WOULD: Record<string, string> = {
  turn_off_ad: 'would_turn_off_ad',
  turn_off_campaign: 'would_turn_off_campaign',
};

export async function notifyOnly(ctx: EngineContext, items: InBatch[]): Promise<void> {
  if (!items.length) return;
  let entries: ActivityRow[];
  try {
    entries = await createActivityStore(ctx.db).recordEntries(
      items.flatMap((item) =>
        item.planned!.map((a) => ({
          ruleId: item.rule.id,
          folderId: item.rule.folder.id,
          action: WOULD[a.action]!,
          adId: a.objectId,
          objectType: a.action === 'turn_off_campaign' ? 'campaign' : 'ad',
          reason: { ...a.reason, 'Notify only': 'nothing was changed' },
          slot: item.run.slot,
          actorId: item.run.actorId ?? null,
          runId: item.runId,
        })),
      ),
    );
  } catch (error) {
    failAll(items, error);
    return;
  }
  const entriesOf = groupBy(entries, (entry) => entry.ruleId!);
  for (const item of items) {
    const budgets = budgetRecord(item);
    const changes = budgets.money?.objects ?? 0;
    const note = `notify only: ${plural(item.planned!.length, 'turn-off')}${changes ? ` and ${plural(changes, 'budget change')}` : ''} not made`;
    const record = details(
      item.evaluation!,
      'notify',
      item.stale!,
      budgets.budgets.length ? { budgets: budgets.budgets, money: budgets.money } : {},
    );
    item.finish = { status: 'done', note, record: { ...baseRecord(item), outcome: 'notify_only', ...record } };
    item.result = {
      status: 'notify_only',
      turnedOff: [],
      failed: [],
      note,
      runId: item.runId,
      entries: entriesOf.get(item.rule.id) ?? [],
    };
  }
}
