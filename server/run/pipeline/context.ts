/**
 * What every phase of a run is given (the engine context) and what a run is asked and answers:
 * the types the pipeline's phases, the engine's workers and the API's service share.
 */
import type { AdPlatformClient } from '../../adplatform/types';
import type { Database } from '../../db/client';
import type { AlertWebhooks } from '../../alerts/engineWebhooks';
import type { Mailer } from '../../mail/mailer';
import type { ActivityRow } from '../../activity/entries';
import type { BlastLimits } from '../../judgement/blastRadius';
import type { RunKind } from '../ledger';
import type { SnapshotStore } from '../accountSnapshots';
import type { QualitySource } from '../../outcomes/quality';
import { RUN_SILENCE_MS, type RunHeartbeat } from '../runHeartbeat';

export interface EngineLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Where a held run's alert goes (a folder's own recipients: ../alertRecipients.ts). */
export interface HeldAlerts {
  mailer: Mailer;
  recipients: string[];
  /** The configured mailer, for a folder's own recipients (the default ones may be the outbox's). */
  folderMailer?: Mailer;
  publicUrl: string;
  sender?: string;
  /** Slack-compatible webhooks that receive the same alerts (server/alerts). */
  webhooks?: AlertWebhooks;
}

export interface EngineContext {
  db: Database;
  client: AdPlatformClient;
  snapshots: SnapshotStore;
  log: EngineLog;
  now(): Date;
  /** A running attempt whose process has been silent this long is taken as dead (RUN_SILENCE_MS). */
  runLeaseMs?: number;
  /** Renews this process's running attempts in the ledger (one per process; absent: never renewed). */
  heartbeat?: RunHeartbeat;
  /** Blast-radius limits (ENGINE_MAX_SHARE, ENGINE_MAX_ACTIONS). */
  limits?: BlastLimits;
  /** Where a held run's alert goes. */
  alerts?: HeldAlerts;
  /** What the ads' leads became (show-ups, CRM stages); absent: the outcome tasks answer "no outcome data". */
  quality?: QualitySource;
  /** Meta pushes changes: each run also keeps when its rule is to look again (server/push/recheck.ts). */
  push?: boolean;
  /**
   * 'naive' runs budget actions as a tool without guard rails would (no ceilings, no roll-back): the
   * budget bench's comparison only. Absent: safe.
   */
  budgetSafety?: 'safe' | 'naive';
}

export const DEFAULT_RUN_LEASE_MS = RUN_SILENCE_MS;

export interface SlotRun {
  ruleId: number;
  slot: Date;
  kind: Extract<RunKind, 'run' | 'manual'>;
  /** Earlier slots of today that this run stands in for (the process was down). */
  missed?: Date[];
  /** The slot's hour was over when it ran. */
  late?: boolean;
  /** Woken by a notification from Meta, or by a recheck, rather than by the schedule. */
  trigger?: 'push' | 'recheck';
  actorId?: number | null;
  actorName?: string;
}

export interface RunResult {
  status: 'done' | 'already_done' | 'in_progress' | 'rule_unavailable' | 'held' | 'notify_only' | 'unhealthy';
  turnedOff: ActivityRow[];
  failed: ActivityRow[];
  note: string;
  /** The run record (GET /api/rule_runs/{id}/). */
  runId?: number | null;
  /** Entries a notify-only run or a held run wrote instead of acting. */
  entries?: ActivityRow[];
}

/** How one run of a batch ended: its result, or the error that ended its attempt (released for a retry). */
export interface BatchOutcome {
  run: SlotRun;
  result?: RunResult;
  /** Set when the run's attempt failed (its ledger row is released for the retry). */
  error?: unknown;
}
