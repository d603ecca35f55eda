/**
 * Evaluate: each run's rule against its snapshot (the pure evaluator, ../evaluate.ts), then its
 * plan — the actions minus the objects turned off since the snapshot was taken (by anyone), each
 * reason saying why the run acted when it did.
 */
import { createActivityStore } from '../../activity/entries';
import { evaluate } from '../../judgement/evaluate';
import { failAll, groupBy, live, runReason, type InBatch } from './batch';
import type { EngineContext } from './context';

export async function evaluateBatch(
  ctx: EngineContext,
  work: InBatch[],
  exempt: Map<number, Set<string>>,
): Promise<void> {
  for (const item of live(work)) {
    try {
      item.evaluation = evaluate(item.rule, item.snapshot!.data, {
        exempt: exempt.get(item.rule.id) ?? new Set(),
        history: item.history,
        now: ctx.now(),
        ...(item.inputs ? { inputs: item.inputs } : {}),
      });
      for (const problem of item.evaluation.problems)
        ctx.log.warn(`rule ${item.rule.id} "${item.rule.name}": ${problem}`);
    } catch (error) {
      item.error = error;
    }
  }

  await Promise.all(
    [...groupBy(live(work), (item) => item.snapshot!.id).values()].map(async (items) => {
      try {
        const ids = [...new Set(items.flatMap((item) => item.evaluation!.actions.map((a) => a.objectId)))];
        const stale = await createActivityStore(ctx.db).turnedOffSince(ids, items[0]!.snapshot!.fetchedAt);
        for (const item of items) {
          const extra = runReason(item.run, item.rule.timezone, ctx.now());
          item.stale = stale;
          item.planned = item
            .evaluation!.actions.filter((a) => !stale.has(a.objectId))
            .map((a) => ({ ...a, reason: { ...a.reason, ...extra } }));
        }
      } catch (error) {
        failAll(items, error);
      }
    }),
  );
}
