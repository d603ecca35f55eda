/**
 * Decide: each evaluated run goes one of three ways. A notify-only rule writes what it would have
 * done; a run over the blast-radius limit is held for approval; every other run acts. A run with
 * turn-offs left over from an earlier attempt acts, so those claims are sent and settled.
 */
import { act } from './act';
import { live, type InBatch } from './batch';
import type { EngineContext } from './context';
import { hold, radiusOf } from './hold';
import { notifyOnly } from './notify';

export async function decide(ctx: EngineContext, work: InBatch[]): Promise<void> {
  const leftOver = (item: InBatch) => item.leftOver.length + (item.leftOverBudgets?.length ?? 0) > 0;
  const notifying = live(work).filter((item) => item.rule.notifyOnly && !leftOver(item));
  const holding = live(work).filter(
    (item) => !notifying.includes(item) && !leftOver(item) && radiusOf(ctx, item).exceeded,
  );
  const acting = live(work).filter((item) => !notifying.includes(item) && !holding.includes(item));

  await notifyOnly(ctx, notifying);
  await Promise.all(holding.map((item) => hold(ctx, item)));
  await act(ctx, acting);
}
