/**
 * What the API asks of the engine on a user's behalf: Run now (runNow.ts), Preview (a dry run
 * through the same evaluator, preview.ts), Undo of a turn-off and the exemption it leaves
 * (undoTurnOff.ts), and the decision on a held run (heldRunDecisions.ts). Works in any process
 * role (no queue needed): Run now goes through the same ledger and claims as a scheduled run.
 */
import type { PreviewAnswerDto } from '../../shared/previewHold';
import type { ActivityRow } from '../activity/entries';
import type { AdPlatformClient } from '../adplatform/types';
import type { AuditActor } from '../audit/log';
import type { Database } from '../db/client';
import type { BlastLimits } from '../judgement/blastRadius';
import type { QualitySource } from '../outcomes/quality';
import { createSnapshotStore } from './accountSnapshots';
import { heldRunDecisionsOf } from './heldRunDecisions';
import type { EngineContext, EngineLog, HeldAlerts, RunResult } from './pipeline/context';
import { previewOf } from './preview';
import type { RunHeartbeat } from './runHeartbeat';
import { runNowOf } from './runNow';
import { consoleLog } from './startInWorker';
import { undoOf } from './undoTurnOff';

/** Who asked: the signed-in user, named in the entries as the audit log names them. */
export type Actor = AuditActor;

export interface RuleEngineService {
  runNow(ruleId: number, actor: Actor): Promise<RunResult & { error?: ActivityRow }>;
  preview(ruleId: number): Promise<PreviewAnswerDto>;
  undo(entryId: number, actor: Actor): Promise<ActivityRow>;
  /** Carries out a held run's planned turn-offs that are still valid, exactly once. */
  approve(runId: number, actor: Actor): Promise<RunResult>;
  dismiss(runId: number, actor: Actor): Promise<void>;
}

export function createRuleEngineService(deps: {
  db: Database;
  client: AdPlatformClient;
  log?: EngineLog;
  now?: () => Date;
  limits?: BlastLimits;
  alerts?: HeldAlerts;
  /** The process's run heartbeat, so a Run now cut off by a crash is found and settled. */
  heartbeat?: RunHeartbeat;
  /** What the ads' leads became, for the outcome tasks (absent: they answer "no outcome data"). */
  quality?: QualitySource;
}): RuleEngineService {
  const { db, client } = deps;
  const now = deps.now ?? (() => new Date());
  const context: EngineContext = {
    db,
    client,
    snapshots: createSnapshotStore(db, { client, now, warn: (m) => (deps.log ?? consoleLog).warn(m) }),
    log: deps.log ?? consoleLog,
    now,
    limits: deps.limits,
    alerts: deps.alerts,
    heartbeat: deps.heartbeat,
    quality: deps.quality,
  };
  return {
    ...runNowOf(context),
    ...previewOf(context),
    ...heldRunDecisionsOf(context),
    ...undoOf(context),
  };
}
