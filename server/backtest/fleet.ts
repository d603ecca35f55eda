/**
 * The backtest across a fleet of folders, for the preview of an edit that changes many folders'
 * rules at once (a rule template's): how many folders and rules it changes and what each changed
 * rule would have done over the last `days` days under its old and its new values — the single
 * backtest's replay and outcomes (service.ts) on each folder's recorded history, per folder and in
 * total. A folder's old and new rules replay one read of its account's history; the history of many
 * accounts is read in few statements (fleetReplay.ts), the next batch's while this one replays.
 * Reads the database (and, for rules that need them, the platform's budgets now); writes nothing.
 */
import { MAX_BACKTEST_DAYS, type BacktestRequest, type PlatformNow } from './service';
import type { Database } from '../db/client';
import type { BlastLimits } from '../judgement/blastRadius';
import { DAY_MS, HOUR_MS } from '../history/reading';
import { ValidationError } from '../http/errors';
import { planFleet, type PlannedFolder } from './fleetPlan';
import {
  addTotals,
  loadAccounts,
  NO_TOTALS,
  replaySide,
  type AccountInputs,
  type FleetReplayContext,
  type FleetTotals,
} from './fleetReplay';
import { ReplayCancelled, scheduledSlots, type BacktestRule } from './replay';

export type { FleetTotals } from './fleetReplay';

/** A rule as the backtest endpoint takes it. */
export type FleetRule = BacktestRequest['rule'];

/** One folder's rule changed by the edit; null: the rule does not exist (or does nothing) on that side. */
export interface FleetRuleChange {
  folderId: number;
  /** The saved rule: its exemptions apply, and what a side leaves out is its own (judging, conditions, action). */
  ruleId: number | null;
  before: FleetRule | null;
  after: FleetRule | null;
}

export interface FleetFolderPreview {
  folder_id: number;
  folder_name: string;
  ad_account_id: string;
  account_name: string;
  /** Rules of the folder the edit changes. */
  rules: number;
  before: FleetTotals;
  after: FleetTotals;
  /** The most scheduled hours any of its replays found no history for yet (all of them: no history at all). */
  slots_without_data: number;
}

export interface FleetPreview {
  days: number;
  from: string;
  to: string;
  folders: FleetFolderPreview[];
  totals: { folders: number; rules: number; before: FleetTotals; after: FleetTotals };
}

export interface FleetOptions {
  now: Date;
  /** Days back from now (1–30); default 30. */
  days?: number;
  signal?: AbortSignal;
  /** The blast-radius limit the replays hold runs to (default the engine's). */
  limits?: BlastLimits;
  /** The platform's budgets and ad sets now, for rules with a budget action or ad-set conditions. */
  platformNow?: (adAccountId: string) => Promise<PlatformNow>;
  /** Folders done, of all. */
  onProgress?: (done: number, total: number) => void;
  /** Accounts whose history one statement reads (default 50). */
  accountsPerRead?: number;
}

const ACCOUNTS_PER_READ = 50;
/**
 * Batches read ahead of the one replaying: the database reads one while the decoding worker decodes
 * the one before it and this thread replays a third (two ahead: 5.5 s to 4.8 s on PGlite).
 */
const READS_AHEAD = 2;

/** The scheduled hours of each schedule and zone, worked out once for the whole preview. */
function slotsBySchedule(fromMs: number, toMs: number) {
  const known = new Map<string, readonly number[]>();
  return (rule: BacktestRule) => {
    const key = `${rule.timezone}\u0000${JSON.stringify(rule.schedule)}`;
    let slots = known.get(key);
    if (!slots) {
      slots = scheduledSlots(rule, fromMs, toMs);
      known.set(key, slots);
    }
    return slots;
  };
}

async function previewFolder(
  folder: PlannedFolder,
  inputs: AccountInputs,
  context: FleetReplayContext,
): Promise<FleetFolderPreview> {
  let before = NO_TOTALS;
  let after = NO_TOTALS;
  let withoutData = 0;
  for (const change of folder.changes) {
    for (const [side, add] of [
      [change.before, (t: FleetTotals) => (before = addTotals(before, t))],
      [change.after, (t: FleetTotals) => (after = addTotals(after, t))],
    ] as const) {
      if (!side) continue;
      const replayed = await replaySide(side, folder, change.exemptions, inputs, context);
      add(replayed.totals);
      withoutData = Math.max(withoutData, replayed.slotsWithoutData);
    }
  }
  return {
    folder_id: folder.folderId,
    folder_name: folder.folderName,
    ad_account_id: folder.adAccountId,
    account_name: folder.accountName,
    rules: folder.changes.length,
    before,
    after,
    slots_without_data: withoutData,
  };
}

/** The folders in batches of at most `size` ad accounts, each account's folders in one batch. */
function batchesOf(folders: PlannedFolder[], size: number): PlannedFolder[][] {
  const byAccount = new Map<string, PlannedFolder[]>();
  for (const folder of folders)
    byAccount.set(folder.adAccountId, [...(byAccount.get(folder.adAccountId) ?? []), folder]);
  const accounts = [...byAccount.values()];
  const batches: PlannedFolder[][] = [];
  for (let from = 0; from < accounts.length; from += size) batches.push(accounts.slice(from, from + size).flat());
  return batches;
}

export async function previewFleet(
  db: Database,
  changes: FleetRuleChange[],
  options: FleetOptions,
): Promise<FleetPreview> {
  const days = options.days ?? MAX_BACKTEST_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_BACKTEST_DAYS)
    throw new ValidationError({ days: [`A backtest covers 1 to ${MAX_BACKTEST_DAYS} days of history.`] });
  const toMs = Math.floor(options.now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS;
  const fromMs = toMs - days * DAY_MS;
  const folders = await planFleet(db, changes, fromMs);
  const context: FleetReplayContext = {
    fromMs,
    toMs,
    slotsOf: slotsBySchedule(fromMs, toMs),
    limits: options.limits,
    platformNow: options.platformNow,
    signal: options.signal,
  };
  const previewOf = new Map<number, FleetFolderPreview>();
  const batches = batchesOf(folders, Math.max(1, options.accountsPerRead ?? ACCOUNTS_PER_READ));
  // The next batches' history is read while this one replays (its failure thrown when it is awaited).
  const reads: (Promise<Map<string, AccountInputs>> | undefined)[] = [];
  const readAhead = (index: number) => {
    if (index >= batches.length || reads[index]) return;
    reads[index] = loadAccounts(db, batches[index]!, context);
    reads[index].catch(() => undefined);
  };
  for (const [index, batch] of batches.entries()) {
    for (let ahead = 0; ahead <= READS_AHEAD; ahead += 1) readAhead(index + ahead);
    const inputs = await reads[index]!;
    reads[index] = undefined;
    for (const folder of batch) {
      if (options.signal?.aborted) throw new ReplayCancelled();
      previewOf.set(folder.folderId, await previewFolder(folder, inputs.get(folder.adAccountId)!, context));
      options.onProgress?.(previewOf.size, folders.length);
    }
  }
  const previews = folders.map((f) => previewOf.get(f.folderId)!);
  return {
    days,
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    folders: previews,
    totals: {
      folders: previews.length,
      rules: previews.reduce((sum, f) => sum + f.rules, 0),
      before: previews.reduce((sum, f) => addTotals(sum, f.before), NO_TOTALS),
      after: previews.reduce((sum, f) => addTotals(sum, f.after), NO_TOTALS),
    },
  };
}
