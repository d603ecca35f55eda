/**
 * Running rules for a slot: claim the slot, look at the account (shared snapshot), evaluate,
 * claim each turn-off, apply them in batched status changes, record each outcome. The rules of
 * one account due in one slot run as a batch (runBatch), a rule run by hand as a batch of one.
 *
 * Exactly once: the ledger refuses a finished slot; each turn-off is claimed (pending) before it
 * is sent, so a retry re-sends exactly the claimed ones (pausing is idempotent) and never adds a
 * second entry; an object is claimed at most once per snapshot, whichever rule gets there first.
 */
import { DateTime } from 'luxon';
import { inArray } from 'drizzle-orm';
import type { AdPlatformClient } from '../adplatform/types';
import type { Database } from '../db/client';
import { ruleExemptions } from '../db/schema/index';
import {
  claimTurnOffsOf,
  markDone,
  markFailed,
  pendingTurnOffs,
  pendingTurnOffsOf,
  recordEntries,
  recordEntry,
  turnedOffSince,
  type ActivityRow,
  type ReasonedAction,
} from './activity';
import { evaluate, type Evaluation } from './evaluate';
import { claimRuns, finishRun, finishRuns, supersedeAll, type RunFinish, type RunKind } from './ledger';
import { blastRadius, type BlastLimits } from './blastRadius';
import { compactObjects, countVerdicts, type ActMode, type StoredDetails } from './runRecord';
import { alertHeldRun, type HeldAlerts } from './heldRuns';
import { loadEngineRule, loadEngineRules, type LoadedEngineRule } from './rulesSource';
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
  return (await exemptionsOfRules(db, [ruleId])).get(ruleId) ?? new Set();
}

/** Each rule's exempt objects (a rule with none has no entry). */
export async function exemptionsOfRules(db: Database, ruleIds: number[]): Promise<Map<number, Set<string>>> {
  const exempt = new Map<number, Set<string>>();
  if (!ruleIds.length) return exempt;
  const rows = await db
    .select({ ruleId: ruleExemptions.ruleId, objectId: ruleExemptions.objectId })
    .from(ruleExemptions)
    .where(inArray(ruleExemptions.ruleId, ruleIds));
  for (const row of rows) {
    const own = exempt.get(row.ruleId);
    if (own) own.add(row.objectId);
    else exempt.set(row.ruleId, new Set([row.objectId]));
  }
  return exempt;
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

/**
 * Sends claimed turn-offs in batched status changes; a refused one becomes an error entry. The
 * ones made are answered, not yet confirmed (markDone), so a batch confirms them all at once.
 */
export async function sendTurnOffs(
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
  return { done, failed };
}

/** Applies claimed turn-offs in batched status changes; each entry ends done or as an error. */
export async function apply(
  ctx: EngineContext,
  claimed: ActivityRow[],
): Promise<{ done: ActivityRow[]; failed: ActivityRow[] }> {
  const sent = await sendTurnOffs(ctx, claimed);
  await markDone(
    ctx.db,
    sent.done.map((e) => e.id),
  );
  return sent;
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

/** How one run of a batch ended: its result, or the error that ended its attempt (released for a retry). */
export interface BatchOutcome {
  run: SlotRun;
  result?: RunResult;
  /** Set when the run's attempt failed (its ledger row is released for the retry). */
  error?: unknown;
}

/** One claimed run of a batch on its way through the phases. */
interface InBatch {
  run: SlotRun;
  runId: number | null;
  rule: LoadedEngineRule;
  snapshot?: StoredSnapshot;
  evaluation?: Evaluation;
  planned?: ReasonedAction[];
  stale?: Set<string>;
  leftOver: ActivityRow[];
  claimed: ActivityRow[];
  done: ActivityRow[];
  failed: ActivityRow[];
  label: string;
  /** Set once the run's way is decided: what it finishes with, or why its attempt failed. */
  finish?: RunFinish;
  result?: RunResult;
  error?: unknown;
}

/** Groups items by a key, keeping the order of first appearance. */
function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Runs one rule for one slot (a batch of one): a failure is thrown, after the attempt is released. */
export async function runSlot(ctx: EngineContext, run: SlotRun): Promise<RunResult> {
  const [outcome] = await runBatch(ctx, [run]);
  if (outcome!.error !== undefined) throw outcome!.error;
  return outcome!.result!;
}

/**
 * Runs the rules of a batch — the due rules of one ad account at one slot, one queue job — as one
 * unit, with a fixed number of statements however many rules: one ledger claim, one load of the
 * rules and items, the account's snapshot, one exemptions and one left-over-claims query, one
 * stale-claims query per account, one insert of every turn-off claim, one status-change request
 * per account, one confirm and one finish. Each run keeps its own ledger row, claims, run record
 * and activity entries, so the exactly-once layers are those of a single run.
 *
 * A run that fails on its own (its held-run alert, its record) fails alone; a failure shared by
 * runs (the account's snapshot or status change) fails those runs. Failed runs are released in
 * the ledger for the retry, which finds the others finished and re-sends any claimed turn-off.
 * Only an error taking the ledger claim itself is thrown (then nothing was claimed).
 */
export async function runBatch(ctx: EngineContext, runs: SlotRun[]): Promise<BatchOutcome[]> {
  if (!runs.length) return [];
  const { db } = ctx;
  const { slot, kind } = runs[0]!;
  if (runs.some((r) => r.slot.getTime() !== slot.getTime() || r.kind !== kind))
    throw new Error('the runs of a batch share one slot and kind');
  const unique = [...groupBy(runs, (r) => r.ruleId).values()].map((group) => group[0]!);
  const claims = await claimRuns(
    db,
    slot,
    kind,
    unique.map((run) => ({ ruleId: run.ruleId, trigger: triggerOf(run) })),
    ctx.runLeaseMs ?? DEFAULT_RUN_LEASE_MS,
  );

  const answered = new Map<number, BatchOutcome>();
  const taken: { run: SlotRun; runId: number | null }[] = [];
  unique.forEach((run, i) => {
    const { claim, id: runId } = claims[i]!;
    if (claim === 'finished')
      answered.set(run.ruleId, {
        run,
        result: { status: 'already_done', turnedOff: [], failed: [], note: 'already done', runId },
      });
    else if (claim === 'busy')
      answered.set(run.ruleId, {
        run,
        result: { status: 'in_progress', turnedOff: [], failed: [], note: 'another worker is running it', runId },
      });
    else taken.push({ run, runId });
  });

  let rules: Map<number, LoadedEngineRule>;
  try {
    rules = await loadEngineRules(
      db,
      taken.map((t) => t.run.ruleId),
    );
  } catch (error) {
    await finishRuns(
      db,
      slot,
      kind,
      taken.map((t) => ({ ruleId: t.run.ruleId, status: 'failed' as const, error: errorMessage(error) })),
    ).catch(() => undefined);
    for (const t of taken) answered.set(t.run.ruleId, { run: t.run, error });
    return runs.map((run) => answered.get(run.ruleId)!);
  }

  const work: InBatch[] = [];
  const skipped: { run: SlotRun; runId: number | null }[] = [];
  for (const { run, runId } of taken) {
    const rule = rules.get(run.ruleId);
    if (!rule || rule.isDeleted || (run.kind === 'run' && !rule.isActive)) skipped.push({ run, runId });
    else
      work.push({
        run,
        runId,
        rule,
        leftOver: [],
        claimed: [],
        done: [],
        failed: [],
        label: `rule ${rule.id} "${rule.name}" ${run.kind} at ${run.slot.toISOString()}`,
      });
  }
  try {
    await carryOut(ctx, work);
  } catch (error) {
    // A step every run shares failed: each run not yet decided ends its attempt with it.
    failAll(work, error);
  }
  failAll(work, new Error('the run was left undecided'));

  const note = 'the rule is no longer active';
  const failedRun = (item: InBatch): RunFinish => ({ status: 'failed', error: errorMessage(item.error) });
  const finishes = [
    ...skipped.map((s) => ({ ruleId: s.run.ruleId, status: 'done' as const, note, record: { outcome: 'skipped' } })),
    ...work.map((item) => ({ ruleId: item.rule.id, ...(item.error !== undefined ? failedRun(item) : item.finish!) })),
  ];
  try {
    await finishRuns(db, slot, kind, finishes);
  } catch (error) {
    for (const item of work) if (item.error === undefined) item.error = error;
    for (const s of skipped) answered.set(s.run.ruleId, { run: s.run, error });
  }

  for (const { run, runId } of skipped)
    if (!answered.has(run.ruleId))
      answered.set(run.ruleId, { run, result: { status: 'rule_unavailable', turnedOff: [], failed: [], note, runId } });
  for (const item of work) {
    if (item.error !== undefined) {
      answered.set(item.rule.id, { run: item.run, error: item.error });
      continue;
    }
    const result = item.result!;
    const log = result.status === 'held' ? ctx.log.warn : ctx.log.info;
    log.call(ctx.log, `${item.label}: ${result.note}`);
    answered.set(item.rule.id, { run: item.run, result });
  }
  return runs.map((run) => answered.get(run.ruleId)!);
}

/** Marks the items of a failed step (those still undecided) with its error. */
function failAll(items: InBatch[], error: unknown) {
  for (const item of items) if (!item.finish && item.error === undefined) item.error = error;
}

const live = (items: InBatch[]) => items.filter((item) => !item.finish && item.error === undefined);

/** The phases of a batch after the ledger claim: each decides runs (finish) or fails them (error). */
async function carryOut(ctx: EngineContext, work: InBatch[]): Promise<void> {
  if (!work.length) return;
  const { db } = ctx;
  const { slot } = work[0]!.run;
  const byAccount = groupBy(work, (item) => item.rule.account.adAccountId);
  const ruleIds = work.map((item) => item.rule.id);

  // The accounts' snapshots (one fetch per account and slot, shared) and what the rules need besides.
  const snapshots = Promise.all(
    [...byAccount.values()].map(async (items) => {
      const { account } = items[0]!.rule;
      try {
        const snapshot = await ctx.snapshots.get(account.adAccountId, account.currency, slot);
        for (const item of items) item.snapshot = snapshot;
      } catch (error) {
        failAll(items, error);
      }
    }),
  );
  const [exempt, leftOver] = await Promise.all([exemptionsOfRules(db, ruleIds), pendingTurnOffsOf(db, ruleIds, slot)]);
  await snapshots;
  const leftOverOf = groupBy(leftOver, (entry) => entry.ruleId!);
  for (const item of work) item.leftOver = leftOverOf.get(item.rule.id) ?? [];

  for (const item of live(work)) {
    try {
      item.evaluation = evaluate(item.rule, item.snapshot!.data, { exempt: exempt.get(item.rule.id) ?? new Set() });
      for (const problem of item.evaluation.problems)
        ctx.log.warn(`rule ${item.rule.id} "${item.rule.name}": ${problem}`);
    } catch (error) {
      item.error = error;
    }
  }

  // Objects turned off since each snapshot was taken (by anyone) are not planned again.
  await Promise.all(
    [...groupBy(live(work), (item) => item.snapshot!.id).values()].map(async (items) => {
      try {
        const ids = [...new Set(items.flatMap((item) => item.evaluation!.actions.map((a) => a.objectId)))];
        const stale = await turnedOffSince(db, ids, items[0]!.snapshot!.fetchedAt);
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

  const notifying = live(work).filter((item) => item.rule.notifyOnly && !item.leftOver.length);
  const holding = live(work).filter(
    (item) => !notifying.includes(item) && !item.leftOver.length && radiusOf(ctx, item).exceeded,
  );
  const acting = live(work).filter((item) => !notifying.includes(item) && !holding.includes(item));

  await notifyOnly(ctx, notifying);
  await Promise.all(holding.map((item) => hold(ctx, item)));
  await act(ctx, acting);
}

const radiusOf = (ctx: EngineContext, item: InBatch) =>
  blastRadius(item.evaluation!, item.planned!, item.snapshot!.data, ctx.limits);

const baseRecord = (item: InBatch) => ({ trigger: triggerOf(item.run), snapshotId: item.snapshot!.id });

/** Notify-only runs write what they would have done, one statement for all of them. */
async function notifyOnly(ctx: EngineContext, items: InBatch[]): Promise<void> {
  if (!items.length) return;
  let entries: ActivityRow[];
  try {
    entries = await recordEntries(
      ctx.db,
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
    const note = `notify only: ${plural(item.planned!.length, 'turn-off')} not made`;
    const record = details(item.evaluation!, 'notify', item.stale!);
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

/** A run over the blast-radius limit acts on nothing: its alert (mailed once), then its record. */
async function hold(ctx: EngineContext, item: InBatch): Promise<void> {
  const radius = radiusOf(ctx, item);
  const { rule, run, runId, planned } = item;
  try {
    const entry = await alertHeldRun(ctx, { rule, run, runId: runId!, planned: planned!, summary: radius.summary });
    const note = `held: ${radius.summary}`;
    const record = details(item.evaluation!, 'hold', item.stale!, { planned, limits: radius.numbers });
    item.finish = { status: 'done', note, record: { ...baseRecord(item), outcome: 'held', ...record } };
    item.result = { status: 'held', turnedOff: [], failed: [], note, runId, entries: entry ? [entry] : [] };
  } catch (error) {
    item.error = error;
  }
}

/** Claims every turn-off of the acting runs at once, sends them per account, confirms them at once. */
async function act(ctx: EngineContext, items: InBatch[]): Promise<void> {
  if (!items.length) return;
  const { db } = ctx;
  try {
    const claimed = await claimTurnOffsOf(
      db,
      items.map((item) => ({
        scope: {
          ruleId: item.rule.id,
          folderId: item.rule.folder.id,
          slot: item.run.slot,
          snapshotId: item.snapshot!.id,
          actorId: item.run.actorId ?? null,
          runId: item.runId,
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
    [...groupBy(items, (item) => item.rule.account.adAccountId).values()].map(async (group) => {
      try {
        const { done, failed } = await sendTurnOffs(
          ctx,
          group.flatMap((item) => [...item.leftOver, ...item.claimed]),
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
    await markDone(
      db,
      sent.flatMap((item) => item.done.map((e) => e.id)),
    );
    await supersedeAll(
      db,
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
  for (const item of sent) decideActed(ctx, item);
}

function decideActed(ctx: EngineContext, item: InBatch): void {
  const { run, rule, done, failed, planned } = item;
  // Planned objects another rule or worker claimed first on this snapshot were not acted on here.
  const claimedIds = new Set([...item.leftOver, ...item.claimed].map((e) => e.adId!));
  const notDone = new Set([
    ...item.stale!,
    ...planned!.filter((a) => !claimedIds.has(a.objectId)).map((a) => a.objectId),
  ]);
  const notes = [plural(done.length, 'turn-off'), ...(failed.length ? [`${failed.length} failed`] : [])];
  if (catchesUp(run)) {
    const caughtUp = caughtUpHours(run, rule.timezone);
    notes.push(`caught up on ${caughtUp}`);
    ctx.log.info(`rule ${rule.id} "${rule.name}": caught up on the missed ${caughtUp} run of today`);
  }
  const note = notes.join('; ');
  const outcome = failed.length ? (done.length ? 'partly_failed' : 'failed') : 'done';
  const record = details(item.evaluation!, 'act', notDone);
  record.counts.failed = failed.length;
  item.finish = { status: 'done', note, record: { ...baseRecord(item), outcome, ...record } };
  item.result = { status: 'done', turnedOff: done, failed, note, runId: item.runId };
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
  ctx.log.error(`rule ${run.ruleId} ${run.kind} at ${run.slot.toISOString()} failed: ${message}`);
  const zone = rule?.timezone ?? 'UTC';
  // The entry first: whoever sees the run failed also finds why.
  const entry = await recordEntry(ctx.db, {
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
  await finishRun(ctx.db, run.ruleId, run.slot, run.kind, { status: 'failed', error: message });
  return entry;
}

/** An attempt failed and is released (runBatch did that) for pg-boss to retry: counted. */
export function countRetrying(run: SlotRun): void {
  engineRuns.inc({ kind: run.kind, outcome: 'retrying' });
}
