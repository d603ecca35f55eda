/**
 * One claimed run of a batch on its way through the phases, and what the phases share to tell
 * a run's story the same way: its trigger, the hours a catch-up stands for, its stored details.
 */
import { DateTime } from 'luxon';
import type { ActivityRow, ReasonedAction } from '../../activity/entries';
import type { Evaluation } from '../../judgement/evaluate';
import type { RunFinish } from '../ledger';
import {
  compactObjects,
  countVerdicts,
  crossedText,
  type ActMode,
  type StoredDetails,
} from '../../judgement/runRecord';
import type { LoadedEngineRule } from '../rulesSource';
import { slotLabel, validZone } from '../../judgement/scheduleSlots';
import type { StoredSnapshot } from '../accountSnapshots';
import type { ObjectHistory } from '../../judgement/lateData';
import type { Switch } from '../onOffHistory';
import type { RunResult, SlotRun } from './context';
import type { ConditionInputs } from '../../judgement/conditions/inputs';
import type { ClaimedBudget } from '../budgetClaims';
import type { PlannedBudget } from '../../judgement/conditions/judgeObjects';

export interface InBatch {
  run: SlotRun;
  runId: number | null;
  rule: LoadedEngineRule;
  snapshot?: StoredSnapshot;
  evaluation?: Evaluation;
  planned?: ReasonedAction[];
  stale?: Set<string>;
  /** The account's on/off switches the rule's judging reads (judgingInputs.ts). */
  switches?: Switch[];
  history?: Map<string, ObjectHistory>;
  /** Ads this run turned back on (revive.ts). */
  revived?: ActivityRow[];
  leftOver: ActivityRow[];
  /** What the rule's conditions read beside the snapshot (../conditions/inputs.ts). */
  inputs?: ConditionInputs;
  /** Budget changes: previewed (planBudgets), then as claimed (actBudgets) — see budgets.ts. */
  budgetFates?: ClaimedBudget[];
  /** Roll-backs a raising rule owes (budgets.ts). */
  rollbacks?: PlannedBudget[];
  /** Daily budget (cents) the folder's rules added in the last 24 hours. */
  addedLastDay?: number;
  /** Budget changes an earlier attempt claimed but did not confirm: sent again. */
  leftOverBudgets?: ActivityRow[];
  budgetDone?: ActivityRow[];
  /** What a turn_on rule switched on, and what the platform refused (turnOns.ts). */
  turnedOn?: ActivityRow[];
  turnOnsFailed?: ActivityRow[];
  budgetFailed?: ActivityRow[];
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
export function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Marks the items of a failed step (those still undecided) with its error. */
export function failAll(items: InBatch[], error: unknown) {
  for (const item of items) if (!item.finish && item.error === undefined) item.error = error;
}

/** The items still undecided and not failed. */
export const live = (items: InBatch[]) => items.filter((item) => !item.finish && item.error === undefined);

export const catchesUp = (run: SlotRun) => Boolean(run.late || run.missed?.length);

/** '2:00 AM, 7:00 AM': the local hours a catch-up run stands for, its own last. */
export const caughtUpHours = (run: SlotRun, zone: string) =>
  [...(run.missed ?? []), run.slot].map((slot) => slotLabel({ instant: slot }, zone)).join(', ');

/** Why a run acted when it did, added to each planned action's reason. */
export function runReason(run: SlotRun, zone: string, now: Date): Record<string, string> {
  if (run.kind === 'manual') return { Run: run.actorName ? `Run now by ${run.actorName}` : 'Run now' };
  const at = DateTime.fromJSDate(now, { zone: validZone(zone) }).toFormat('h:mm a');
  if (run.trigger === 'push') return { Pushed: `Meta told of a change; run at ${at}` };
  if (run.trigger === 'recheck') return { Recheck: `run at ${at}, when an ad it waited for could be judged` };
  if (!catchesUp(run)) return {};
  return { 'Caught up': `${caughtUpHours(run, zone)} run, done at ${at}` };
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const triggerOf = (run: SlotRun) =>
  run.kind === 'manual' ? 'run_now' : (run.trigger ?? (catchesUp(run) ? 'catch_up' : 'schedule'));

/** A run record's details (the objects looked at, compacted) and its verdict counts. */
export function details(
  evaluation: Evaluation,
  mode: ActMode,
  notDone: Set<string>,
  extra: Partial<StoredDetails> = {},
) {
  const objects = compactObjects(evaluation.objects, mode, notDone);
  const stored: StoredDetails = {
    v: 1,
    objects,
    campaigns: evaluation.campaignNames,
    crossed: Object.fromEntries(evaluation.actions.map((a) => [a.objectId, crossedText(a.reason)])),
    ...(evaluation.problems.length ? { problems: evaluation.problems } : {}),
    ...extra,
  };
  return { details: stored, counts: countVerdicts(objects) };
}

export const baseRecord = (item: InBatch) => ({ trigger: triggerOf(item.run), snapshotId: item.snapshot!.id });
