/**
 * A fleet's replays, a batch of accounts at a time: the batch's history read in bulk (one text per
 * account, fleetTimelines.ts), reality's turn-ons of all its objects in one read, and — only for the
 * rules that read them — each account's lead outcomes and the platform's budgets now. Then each
 * folder's rules, old and new, replay their views of that one read, and each replay comes to the
 * single backtest's totals: pauses made, revives, budget changes made, the spend the pauses would
 * have stopped and the converters they would have paused.
 */
import type { Database } from '../db/client';
import type { BlastLimits } from '../judgement/blastRadius';
import { switchesOf, type Switch } from '../run/onOffHistory';
import type { MetricName } from '../history/reading';
import { timelineSpan } from '../history/timeline';
import { createOutcomeStore } from '../outcomes/store';
import type { QualityHistory } from '../outcomes/qualityHistory';
import { budgetOutcomesOf } from './budgetOutcome';
import { loadTimelines, timelineView, type LoadedTimeline } from './fleetTimelines';
import type { PlannedFolder, PlannedSide } from './fleetPlan';
import { pauseOutcomesOf } from './outcome';
import { replay } from './replay';
import type { PlatformNow } from './service';

/** What one side of a change would have done (the meaning of the single backtest's totals). */
export interface FleetTotals {
  /** Turn-offs made (a held run's not counted), as the backtest's `totals.pauses`. */
  paused: number;
  /** Of them, those the rule would have turned back on (revive). */
  revived: number;
  /** Budget changes made (held ones not counted), as the backtest's `budget_totals.changes`. */
  changed: number;
  /** Estimated: what the paused objects went on to spend after their pause, in the recorded history. */
  spend_stopped: number;
  /** Pauses of converters: the later history showed them bringing leads (or under the CPL threshold). */
  false_pauses: number;
}

export const NO_TOTALS: FleetTotals = { paused: 0, revived: 0, changed: 0, spend_stopped: 0, false_pauses: 0 };

const round2 = (n: number) => Math.round(n * 100) / 100;

export const addTotals = (a: FleetTotals, b: FleetTotals): FleetTotals => ({
  paused: a.paused + b.paused,
  revived: a.revived + b.revived,
  changed: a.changed + b.changed,
  spend_stopped: round2(a.spend_stopped + b.spend_stopped),
  false_pauses: a.false_pauses + b.false_pauses,
});

/** What the replays of one account read. */
export interface AccountInputs {
  /** Over the longest look-back of the batch's rules, with every metric any of them reads. */
  timeline: LoadedTimeline;
  /** Reality's switches of the account's objects since the earliest any rule of the batch reads, oldest first. */
  switches: Switch[];
  quality: QualityHistory | null;
  platform: PlatformNow | null;
}

export interface FleetReplayContext {
  fromMs: number;
  toMs: number;
  /** The scheduled hours of a rule in the span (worked out once per schedule and zone). */
  slotsOf: (rule: PlannedSide['rule']) => readonly number[];
  limits?: BlastLimits;
  platformNow?: (adAccountId: string) => Promise<PlatformNow>;
  signal?: AbortSignal;
}

const sidesOf = (folders: readonly PlannedFolder[]) =>
  folders.flatMap((f) => f.changes.flatMap((c) => [c.before, c.after])).filter((s): s is PlannedSide => s !== null);

/** The inputs of every account of these folders, read in bulk. */
export async function loadAccounts(
  db: Database,
  folders: readonly PlannedFolder[],
  context: FleetReplayContext,
): Promise<Map<string, AccountInputs>> {
  const sides = sidesOf(folders);
  const accounts = [...new Set(folders.map((f) => f.adAccountId))];
  const lookBackDays = Math.max(0, ...sides.map((s) => s.lookBackDays));
  const wanted = [...new Set(sides.flatMap((s) => s.wanted))] as MetricName[];
  const timelines = await loadTimelines(db, accounts, timelineSpan(context.fromMs, context.toMs, lookBackDays), wanted);
  const accountOf = new Map<string, string>();
  for (const t of timelines.values())
    for (const s of t.ads) for (const id of [s.adId, s.campaignId]) accountOf.set(id, t.adAccountId);
  const since = Math.min(context.fromMs, ...sides.map((s) => s.turnOnsSinceMs));
  const sidesOfAccount = (adAccountId: string) => sidesOf(folders.filter((f) => f.adAccountId === adAccountId));
  const [switches, extras] = await Promise.all([
    switchesOf(db, [...accountOf.keys()], new Date(since)),
    Promise.all(
      accounts.map(async (adAccountId) => {
        const own = sidesOfAccount(adAccountId);
        const [quality, platform] = await Promise.all([
          own.some((s) => s.readsQuality)
            ? createOutcomeStore(db).history(adAccountId, context.fromMs, context.toMs)
            : null,
          platformOf(own, adAccountId, context),
        ]);
        return [adAccountId, { quality, platform }] as const;
      }),
    ),
  ]);
  const switchesOfAccount = new Map<string, Switch[]>();
  for (const s of switches) {
    const account = accountOf.get(s.objectId)!;
    const list = switchesOfAccount.get(account);
    if (list) list.push(s);
    else switchesOfAccount.set(account, [s]);
  }
  return new Map(
    extras.map(([adAccountId, extra]) => [
      adAccountId,
      { timeline: timelines.get(adAccountId)!, switches: switchesOfAccount.get(adAccountId) ?? [], ...extra },
    ]),
  );
}

async function platformOf(sides: PlannedSide[], adAccountId: string, context: FleetReplayContext) {
  if (sides.some((s) => s.budgetRule) && !context.platformNow)
    throw new Error('The ad platform is not configured on this server: the budgets to start from cannot be read.');
  return sides.some((s) => s.needsPlatform) && context.platformNow ? context.platformNow(adAccountId) : null;
}

/** One side of a change replayed on its view of the account's history, as the single backtest replays it. */
export async function replaySide(
  side: PlannedSide,
  folder: PlannedFolder,
  exemptions: { objectId: string; sinceMs: number }[],
  inputs: AccountInputs,
  context: FleetReplayContext,
): Promise<{ totals: FleetTotals; slotsWithoutData: number }> {
  const { rule } = side;
  const { fromMs, toMs } = context;
  const timeline = timelineView(inputs.timeline, timelineSpan(fromMs, toMs, side.lookBackDays), side.wanted);
  const objectIds = new Set(timeline.ads.flatMap((s) => [s.adId, s.campaignId]));
  const turnOns = inputs.switches
    .filter((s) => s.turned === 'on' && objectIds.has(s.objectId) && s.at.getTime() >= side.turnOnsSinceMs)
    .map((s) => ({ objectId: s.objectId, atMs: s.at.getTime() }));
  const { quality, platform } = inputs;
  const replayed = await replay({
    rule,
    timeline,
    currency: folder.currency,
    accountZone: folder.timezone ?? rule.timezone,
    fromMs,
    toMs,
    slots: context.slotsOf(rule),
    exemptions,
    turnOns,
    limits: context.limits,
    ...(quality && side.readsQuality ? { qualityAt: (atMs: number) => quality.at(atMs) } : {}),
    ...(platform && side.needsPlatform ? { adsetOfAd: platform.adsetOfAd } : {}),
    ...(side.budgetRule ? { budgets: { now: platform?.budgets ?? [], limits: folder.budgetLimits } } : {}),
    signal: context.signal,
  });
  const { totals } = pauseOutcomesOf(replayed.pauses, rule, timeline, { toMs });
  return {
    totals: {
      paused: totals.pauses,
      revived: totals.revives,
      changed: side.budgetRule ? budgetOutcomesOf(replayed, timeline).budget_totals.changes : 0,
      spend_stopped: totals.spend_stopped,
      false_pauses: totals.converters_paused,
    },
    slotsWithoutData: replayed.slotsWithoutData,
  };
}
