/**
 * Health hold: a run whose ad account has a health problem (the token no longer works, the token
 * lost access to the account, lead tracking looks broken — server/health/) acts on nothing: nothing
 * should act on data that cannot be trusted. Its record says so (outcome unhealthy, the problems);
 * the problem's alert is mailed once by the health check, not by every held run.
 */
import { createHealthStore } from '../../health/store';
import { live, triggerOf, type InBatch } from './batch';
import type { EngineContext } from './context';

export async function holdUnhealthy(ctx: EngineContext, work: InBatch[]): Promise<void> {
  const items = live(work);
  if (!items.length) return;
  const held = await createHealthStore(ctx.db).heldAccounts([
    ...new Set(items.map((item) => item.rule.account.adAccountId)),
  ]);
  for (const item of items) {
    const problems = held.get(item.rule.account.adAccountId);
    if (!problems) continue;
    const note = `held: the ad account is unhealthy (${problems.map((p) => p.detail).join('; ')})`;
    item.finish = {
      status: 'done',
      note,
      record: {
        trigger: triggerOf(item.run),
        outcome: 'unhealthy',
        counts: { objects: 0 },
        details: { v: 1, objects: [], problems: problems.map((p) => `${p.check}: ${p.detail}`) },
      },
    };
    item.result = { status: 'unhealthy', turnedOff: [], failed: [], note, runId: item.runId };
  }
}
