/** Run now: one rule's run for the current slot, through the same ledger and claims as a scheduled run. */
import type { ActivityRow } from '../activity/entries';
import { actorName, type AuditActor } from '../audit/log';
import type { EngineContext, RunResult } from './pipeline/context';
import { countRun, recordRunFailure } from './pipeline/record';
import { runSlot } from './pipeline/runBatch';
import { requireEngineRule } from './requiredRule';

export function runNowOf(context: EngineContext) {
  return {
    /** A run that fails still answers `done`, with the entry that records the failure (`error`). */
    async runNow(ruleId: number, actor: AuditActor): Promise<RunResult & { error?: ActivityRow }> {
      await requireEngineRule(context.db, ruleId);
      const run = {
        ruleId,
        slot: context.now(),
        kind: 'manual' as const,
        actorId: actor.id,
        actorName: actorName(actor),
      };
      try {
        return countRun(run, await runSlot(context, run));
      } catch (error) {
        const entry = await recordRunFailure(context, run, error);
        return { status: 'done', turnedOff: [], failed: [], note: entry.reason.Error ?? 'failed', error: entry };
      }
    },
  };
}
