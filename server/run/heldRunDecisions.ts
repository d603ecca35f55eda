/** A person's decision on a run the blast-radius limit held: approve it or dismiss it (heldRuns.ts). */
import { actorName, type AuditActor } from '../audit/log';
import { ApiError } from '../http/errors';
import { approveHeldRun, dismissHeldRun } from './heldRuns';
import type { EngineContext, RunResult } from './pipeline/context';
import { platformError } from './platformError';
import { loadEngineRule } from './rulesSource';

export function heldRunDecisionsOf(context: EngineContext) {
  return {
    /** Carries out a held run's planned turn-offs that are still valid, exactly once. */
    async approve(runId: number, actor: AuditActor): Promise<RunResult> {
      try {
        return await approveHeldRun(context, runId, { id: actor.id, name: actorName(actor) }, (id) =>
          loadEngineRule(context.db, id),
        );
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw platformError(error);
      }
    },

    async dismiss(runId: number, actor: AuditActor): Promise<void> {
      await dismissHeldRun(context, runId, { id: actor.id, name: actorName(actor) });
    },
  };
}
