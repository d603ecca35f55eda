/**
 * Running one rule for one slot: claim the slot, look at the account (shared snapshot), evaluate,
 * claim each turn-off, apply them in batched status changes, record each outcome.
 *
 * Exactly once: the ledger refuses a finished slot; each turn-off is claimed (pending) before it
 * is sent, so a retry re-sends exactly the claimed ones (pausing is idempotent) and never adds a
 * second entry; an object is claimed at most once per snapshot, whichever rule gets there first.
 */
import { DateTime } from 'luxon';
import { eq } from 'drizzle-orm';
import type { AdPlatformClient } from '../adplatform/types';
import type { Database } from '../db/client';
import { ruleExemptions } from '../db/schema/index';
import {
  claimTurnOffs,
  markDone,
  markFailed,
  pendingTurnOffs,
  recordEntry,
  turnedOffSince,
  type ActivityRow,
} from './activity';
import { evaluate, type Evaluation, type PlannedAction } from './evaluate';
import { claimRun, finishRun, supersede, type RunKind } from './ledger';
import { blastRadius, type BlastLimits } from './blastRadius';
import { compactObjects, countVerdicts, type ActMode, type StoredDetails } from './runRecord';
import { alertHeldRun, type HeldAlerts } from './heldRuns';
import { loadEngineRule, type LoadedEngineRule } from './rulesSource';
import { slotLabel, validZone } from './schedule';
import type { SnapshotStore, StoredSnapshot } from './snapshots';
import { errorMessage } from '../errorMessage';
import { engineRuns } from '../observability/metrics';

export interface EngineLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface EngineContext {
  db: Database;
  client: AdPlatformClient;
  snapshots: SnapshotStore;
  log: EngineLog;
  now(): Date;
  /** An attempt silent for this long is taken as dead (keep it at pg-boss's job expiry). */
  runLeaseMs?: number;
  /** Blast-radius limits (ENGINE_MAX_SHARE, ENGINE_MAX_ACTIONS). */
  limits?: BlastLimits;
  /** Where a held run's alert goes. */
  alerts?: HeldAlerts;
}

export const DEFAULT_RUN_LEASE_MS = 10 * 60_000;

export interface SlotRun {
  ruleId: number;
  slot: Date;
  kind: Extract<RunKind, 'run' | 'manual'>;
  /** Earlier slots of today that this run stands in for (the process was down). */
  missed?: Date[];
  /** The slot's hour was over when it ran. */
  late?: boolean;
  actorId?: number | null;
  actorName?: string;
}

export interface RunResult {
  status: 'done' | 'already_done' | 'in_progress' | 'rule_unavailable' | 'held' | 'notify_only';
  turnedOff: ActivityRow[];
  failed: ActivityRow[];
  note: string;
  /** The run record (GET /api/rule_runs/{id}/). */
  runId?: number | null;
  /** Entries a notify-only run or a held run wrote instead of acting. */
  entries?: ActivityRow[];
}

export async function exemptionsOf(db: Database, ruleId: number): Promise<Set<string>> {
  const rows = await db
    .select({ objectId: ruleExemptions.objectId })
    .from(ruleExemptions)
    .where(eq(ruleExemptions.ruleId, ruleId));
  return new Set(rows.map((r) => r.objectId));
}

const catchesUp = (run: SlotRun) => Boolean(run.late || run.missed?.length);

/** '2:00 AM, 7:00 AM': the local hours a catch-up run stands for, its own last. */
const caughtUpHours = (run: SlotRun, zone: string) =>
  [...(run.missed ?? []), run.slot].map((slot) => slotLabel({ instant: slot }, zone)).join(', ');

function runReason(run: SlotRun, zone: string, now: Date): Record<string, string> {
  if (run.kind === 'manual') return { Run: run.actorName ? `Run now by ${run.actorName}` : 'Run now' };
  if (!catchesUp(run)) return {};
  const at = DateTime.fromJSDate(now, { zone: validZone(zone) }).toFormat('h:mm a');
  return { 'Caught up': `${caughtUpHours(run, zone)} run, done at ${at}` };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Applies claimed turn-offs in batched status changes; each entry ends done or as an error. */
export async function apply(
  ctx: EngineContext,
  claimed: ActivityRow[],
): Promise<{ done: ActivityRow[]; failed: ActivityRow[] }> {
  if (!claimed.length) return { done: [], failed: [] };
  const results = await ctx.client.setStatuses(claimed.map((e) => ({ id: e.adId!, status: 'PAUSED' as const })));
  const byId = new Map(results.map((r) => [r.id, r]));
  const done: ActivityRow[] = [];
  const failed: ActivityRow[] = [];
  for (const entry of claimed) {
    const result = byId.get(entry.adId!);
    if (result?.ok) done.push(entry);
    else {
      await markFailed(ctx.db, entry, result?.error ?? 'no answer from the ad platform');
      failed.push(entry);
    }
  }
  await markDone(
    ctx.db,
    done.map((e) => e.id),
  );
  return { done, failed };
}

async function planFor(
  ctx: EngineContext,
  rule: LoadedEngineRule,
  snapshot: StoredSnapshot,
): Promise<{ evaluation: Evaluation; planned: PlannedAction[]; stale: Set<string> }> {
  const evaluation = evaluate(rule, snapshot.data, { exempt: await exemptionsOf(ctx.db, rule.id) });
  for (const problem of evaluation.problems) ctx.log.warn(`rule ${rule.id} "${rule.name}": ${problem}`);
  const stale = await turnedOffSince(
    ctx.db,
    evaluation.actions.map((a) => a.objectId),
    snapshot.fetchedAt,
  );
  return { evaluation, planned: evaluation.actions.filter((a) => !stale.has(a.objectId)), stale };
}

const triggerOf = (run: SlotRun) => (run.kind === 'manual' ? 'run_now' : catchesUp(run) ? 'catch_up' : 'schedule');

const WOULD: Record<string, string> = {
  turn_off_ad: 'would_turn_off_ad',
  turn_off_campaign: 'would_turn_off_campaign',
};

function details(evaluation: Evaluation, mode: ActMode, notDone: Set<string>, extra: Partial<StoredDetails> = {}) {
  const objects = compactObjects(evaluation.objects, mode, notDone);
  const stored: StoredDetails = {
    v: 1,
    objects,
    ...(evaluation.problems.length ? { problems: evaluation.problems } : {}),
    ...extra,
  };
  return { details: stored, counts: countVerdicts(objects) };
}

export async function runSlot(ctx: EngineContext, run: SlotRun): Promise<RunResult> {
  const { db } = ctx;
  const trigger = triggerOf(run);
  const { claim, id: runId } = await claimRun(
    db,
    run.ruleId,
    run.slot,
    run.kind,
    ctx.runLeaseMs ?? DEFAULT_RUN_LEASE_MS,
    trigger,
  );
  if (claim === 'finished') return { status: 'already_done', turnedOff: [], failed: [], note: 'already done', runId };
  if (claim === 'busy')
    return { status: 'in_progress', turnedOff: [], failed: [], note: 'another worker is running it', runId };
  const rule = await loadEngineRule(db, run.ruleId);
  if (!rule || rule.isDeleted || (run.kind === 'run' && !rule.isActive)) {
    const note = 'the rule is no longer active';
    await finishRun(db, run.ruleId, run.slot, run.kind, { status: 'done', note, record: { outcome: 'skipped' } });
    return { status: 'rule_unavailable', turnedOff: [], failed: [], note, runId };
  }

  const snapshot = await ctx.snapshots.get(rule.account.adAccountId, rule.account.currency, run.slot);
  const now = ctx.now();
  const extra = runReason(run, rule.timezone, now);
  const { evaluation, planned: fresh, stale } = await planFor(ctx, rule, snapshot);
  const planned = fresh.map((a) => ({ ...a, reason: { ...a.reason, ...extra } }));
  const scope = {
    ruleId: rule.id,
    folderId: rule.folder.id,
    slot: run.slot,
    snapshotId: snapshot.id,
    actorId: run.actorId ?? null,
    runId,
  };
  const leftOver = await pendingTurnOffs(db, rule.id, run.slot);
  const base = { trigger, snapshotId: snapshot.id };
  const label = `rule ${rule.id} "${rule.name}" ${run.kind} at ${run.slot.toISOString()}`;

  if (rule.notifyOnly && !leftOver.length) {
    const entries = await Promise.all(
      planned.map((a) =>
        recordEntry(db, {
          ruleId: rule.id,
          folderId: rule.folder.id,
          action: WOULD[a.action]!,
          adId: a.objectId,
          objectType: a.action === 'turn_off_campaign' ? 'campaign' : 'ad',
          reason: { ...a.reason, 'Notify only': 'nothing was changed' },
          slot: run.slot,
          actorId: run.actorId ?? null,
          runId,
        }),
      ),
    );
    const note = `notify only: ${plural(planned.length, 'turn-off')} not made`;
    const record = details(evaluation, 'notify', stale);
    await finishRun(db, rule.id, run.slot, run.kind, {
      status: 'done',
      note,
      record: { ...base, outcome: 'notify_only', ...record },
    });
    ctx.log.info(`${label}: ${note}`);
    return { status: 'notify_only', turnedOff: [], failed: [], note, runId, entries };
  }

  const radius = blastRadius(evaluation, planned, snapshot.data, ctx.limits);
  if (radius.exceeded && !leftOver.length) {
    const record = details(evaluation, 'hold', stale, { planned, limits: radius.numbers });
    const note = `held: ${radius.summary}`;
    await finishRun(db, rule.id, run.slot, run.kind, {
      status: 'done',
      note,
      record: { ...base, outcome: 'held', ...record },
    });
    const entry = await alertHeldRun(ctx, { rule, run, runId: runId!, planned, summary: radius.summary });
    ctx.log.warn(`${label}: ${note}`);
    return { status: 'held', turnedOff: [], failed: [], note, runId, entries: entry ? [entry] : [] };
  }

  const claimed = await claimTurnOffs(db, scope, planned);
  const { done, failed } = await apply(ctx, [...leftOver, ...claimed]);
  // Planned objects another rule or worker claimed first on this snapshot were not acted on here.
  const claimedIds = new Set([...leftOver, ...claimed].map((e) => e.adId!));
  const notDone = new Set([...stale, ...planned.filter((a) => !claimedIds.has(a.objectId)).map((a) => a.objectId)]);

  const notes = [plural(done.length, 'turn-off'), ...(failed.length ? [`${failed.length} failed`] : [])];
  if (catchesUp(run)) {
    const caughtUp = caughtUpHours(run, rule.timezone);
    notes.push(`caught up on ${caughtUp}`);
    ctx.log.info(`rule ${rule.id} "${rule.name}": caught up on the missed ${caughtUp} run of today`);
    await supersede(
      db,
      rule.id,
      run.missed ?? [],
      run.kind,
      `caught up by the ${slotLabel({ instant: run.slot }, rule.timezone)} run`,
    );
  }
  const note = notes.join('; ');
  const outcome = failed.length ? (done.length ? 'partly_failed' : 'failed') : 'done';
  const record = details(evaluation, 'act', notDone);
  record.counts.failed = failed.length;
  await finishRun(db, rule.id, run.slot, run.kind, { status: 'done', note, record: { ...base, outcome, ...record } });
  ctx.log.info(`${label}: ${note}`);
  return { status: 'done', turnedOff: done, failed, note, runId };
}

/**
 * The last attempt failed: claimed turn-offs that never went out become error entries, and the
 * run itself leaves one error entry, so nothing fails silently.
 */
export async function recordRunFailure(ctx: EngineContext, run: SlotRun, error: unknown): Promise<ActivityRow> {
  const message = errorMessage(error);
  engineRuns.inc({ kind: run.kind, outcome: 'failed' });
  const rule = await loadEngineRule(ctx.db, run.ruleId);
  for (const entry of await pendingTurnOffs(ctx.db, run.ruleId, run.slot)) await markFailed(ctx.db, entry, message);
  await finishRun(ctx.db, run.ruleId, run.slot, run.kind, { status: 'failed', error: message });
  ctx.log.error(`rule ${run.ruleId} ${run.kind} at ${run.slot.toISOString()} failed: ${message}`);
  const zone = rule?.timezone ?? 'UTC';
  return recordEntry(ctx.db, {
    ruleId: rule ? run.ruleId : null,
    folderId: rule?.folder.id ?? null,
    action: 'error',
    slot: run.slot,
    actorId: run.actorId ?? null,
    reason: {
      Error: message,
      Run: run.kind === 'manual' ? 'Run now' : `${slotLabel({ instant: run.slot }, zone)} run`,
      Account: rule?.account.accountName ?? '',
    },
  });
}

/** Marks a failed attempt in the ledger so the retry can take the slot again. */
export async function releaseAfterError(ctx: EngineContext, run: SlotRun, error: unknown): Promise<void> {
  engineRuns.inc({ kind: run.kind, outcome: 'retrying' });
  await finishRun(ctx.db, run.ruleId, run.slot, run.kind, { status: 'failed', error: errorMessage(error) });
}
