/**
 * The backtest's replay: a rule's scheduled hours over a span of the metric history, each judged
 * as a run of the engine would have judged it — the engine's own evaluate() and revive decisions,
 * with the rule's judging settings (maturity, lag allowance, revive, cool-down), its exemptions as
 * they stood then and the blast-radius limit — on the numbers as they were known at that hour (the
 * latest reading at or before it). What it would have paused stays paused until it would have
 * revived it. Turn-ons made in reality (undo, revive, by hand) start a cool-down as they did. A rule
 * with an outcome task reads each ad's quality as known at the hour (`qualityAt`). Pure: it reads
 * the timeline and the quality it is given and writes nothing anywhere.
 *
 * A rule with conditions and an action is judged on its conditions too, each hour's windows worked
 * out from the history (windowRows.ts); its turn-offs are paused as the task cards' are, and its
 * budget changes are decided against the folder's limits with the history of its own simulated
 * changes, from the budgets it is given (budgetReplay.ts).
 */
import { DateTime } from 'luxon';
import { blastRadius, DEFAULT_LIMITS, type BlastLimits } from '../judgement/blastRadius';
import { campaignNameMatches, evaluate, type AccountSnapshot, type PlannedAction } from '../judgement/evaluate';
import type { ObjectHistory } from '../judgement/lateData';
import { readsOutcomes, withQuality } from '../judgement/outcomeTasks';
import { reviveDecisions, type PausedByRule } from '../judgement/revive';
import type { EngineRule } from '../judgement/ruleShape';
import { dueRunSlots, validZone } from '../judgement/scheduleSlots';
import { HOUR_MS } from '../history/reading';
import { hourIndex, type AdSeries, type Timeline } from '../history/timeline';
import type { QualityByAd } from '../outcomes/quality';
import { CARRIED_OVER_JUDGING } from '../../shared/judging';
import { DEFAULT_BUDGET_LIMITS, type BudgetLimits } from '../../shared/budgetLimits';
import { isBudgetAction } from '../../shared/ruleActions';
import { readsNeeded } from '../judgement/conditions/inputs';
import { readsOutcomes as conditionsReadOutcomes } from '../judgement/conditions/evaluateConditions';
import type { BudgetObject, CeilingName } from '../judgement/budgets/types';
import { SimulatedBudgets, type ReplayBudgetChange } from './budgetReplay';
import { WindowRows } from './windowRows';
import { AccountAtHour, type HourlyNeed } from './accountAtHour';
import { CrossingAds } from './crossing';

export interface BacktestRule extends EngineRule {
  /** 7 days (Sunday first) × 24 hours. */
  schedule: boolean[][];
  timezone: string;
}

export interface ReplayInput {
  rule: BacktestRule;
  timeline: Timeline;
  currency: string;
  /** The ad account's time zone (its hourly delivery is read in it); default the rule's. */
  accountZone?: string;
  fromMs: number;
  toMs: number;
  /** The rule's scheduled hours in [fromMs, toMs) (scheduledSlots), when the caller has them already. */
  slots?: readonly number[];
  /** The rule's exemptions and when each began (an Undo). */
  exemptions?: { objectId: string; sinceMs: number }[];
  /** Objects turned back on in reality (undo, revive, by hand on the platform), oldest first. */
  turnOns?: { objectId: string; atMs: number }[];
  limits?: BlastLimits;
  /**
   * What each ad's leads had become as known at an instant (what a run then read: outcomes recorded
   * later unseen); read only for a rule with an outcome task. Absent: no outcome data.
   */
  qualityAt?: (atMs: number) => QualityByAd;
  /** A budget rule: the daily budgets it starts from (now's: the history keeps none) and the folder's limits. */
  budgets?: { now: BudgetObject[]; limits: BudgetLimits };
  /** Each ad's ad set, as listed now (the history keeps no ad sets): ad-set conditions and budgets read it. */
  adsetOfAd?: ReadonlyMap<string, string>;
  /** Judge every ad at every hour, not only those crossing a task (crossing.ts): slower, the same pauses. */
  judgeEveryAd?: boolean;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** One turn-off the rule would have made. */
export interface ReplayPause {
  /** The scheduled hour (its instant). */
  atMs: number;
  action: PlannedAction['action'];
  objectId: string;
  campaignId: string;
  task: PlannedAction['task'];
  reason: Record<string, string>;
  /** The run would have been held (blast-radius limit): nothing paused, a person asked. */
  held: boolean;
  /** The hour of the reading it was judged on (timeline hour), per ad of the object. */
  readHours: Map<string, number>;
  /** The numbers were backfilled (settled), not as known then. */
  settled: boolean;
  /** When the rule would have turned it back on (revive), with the reason; null when it stayed off. */
  revivedAtMs: number | null;
  reviveReason: Record<string, string> | null;
}

export interface ReplayResult {
  pauses: ReplayPause[];
  /** Scheduled hours replayed, and those without any reading yet. */
  slots: number;
  slotsWithoutData: number;
  /** A budget rule: the changes it would have made, hour by hour, and how often each ceiling cut one. */
  budgetChanges: ReplayBudgetChange[];
  ceilingsMet: Partial<Record<CeilingName, number>>;
}

/** Every scheduled hour of the rule in [fromMs, toMs), in its time zone, oldest first. */
export function scheduledSlots(
  rule: Pick<BacktestRule, 'schedule' | 'timezone'>,
  fromMs: number,
  toMs: number,
): number[] {
  const zone = validZone(rule.timezone);
  const out: number[] = [];
  for (
    let day = DateTime.fromMillis(fromMs, { zone }).startOf('day');
    day.toMillis() < toMs;
    day = day.plus({ days: 1 })
  ) {
    const endOfDay = Math.min(day.endOf('day').toMillis(), toMs - 1);
    for (const slot of dueRunSlots(rule.schedule, zone, new Date(endOfDay))) {
      const at = slot.instant.getTime();
      if (at >= fromMs && at < toMs) out.push(at);
    }
  }
  return out;
}

/** Each object's last turn-on up to the hour replayed: reality's, then the replay's own revives. */
class TurnOns {
  readonly history = new Map<string, ObjectHistory>();
  /** The hour of the replay's own last revive of each object. */
  private readonly revivedAt = new Map<string, number>();
  private next = 0;

  constructor(private readonly real: { objectId: string; atMs: number }[]) {}

  upTo(atMs: number): ReadonlyMap<string, ObjectHistory> {
    while (this.next < this.real.length && this.real[this.next]!.atMs <= atMs) {
      const { objectId, atMs: at } = this.real[this.next]!;
      this.next += 1;
      // A turn-on within the hour of the replay's own revive of it is that revive as the rule, run live, made
      // it — stamped seconds after the hour; the replay's stays, or the cool-down would end an hour late.
      const revived = this.revivedAt.get(objectId);
      if (revived !== undefined && at >= revived && at < revived + HOUR_MS) continue;
      this.history.set(objectId, { lastTurnedOnAt: new Date(at) });
    }
    return this.history;
  }

  revived(objectId: string, atMs: number) {
    this.history.set(objectId, { lastTurnedOnAt: new Date(atMs) });
    this.revivedAt.set(objectId, atMs);
  }
}

const NO_QUALITY: QualityByAd = new Map();

/**
 * Replays give the event loop a turn (other requests, a cancel, the next read's rows) when this long
 * has passed since any of them last did: one backtest yields every few hours of its replay, and a
 * fleet's thousands of short replays do not each wait a turn.
 */
const YIELD_MS = 10;
let yieldedAt = 0;

async function yieldToOthers() {
  if (performance.now() - yieldedAt < YIELD_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  yieldedAt = performance.now();
}

export class ReplayCancelled extends Error {
  constructor() {
    super('The backtest was cancelled');
  }
}

/** The hourly delivery a run of this rule reads, as the engine decides it (server/run/pipeline/load.ts). */
function hourlyNeed(rule: BacktestRule, zone: string): HourlyNeed | null {
  const j = rule.judging ?? CARRIED_OVER_JUDGING;
  return j.maturity_hours > 0 || j.lag_hours !== null ? { lagHours: j.lag_hours, zone } : null;
}

export async function replay(input: ReplayInput): Promise<ReplayResult> {
  const { rule, timeline } = input;
  const judging = rule.judging ?? CARRIED_OVER_JUDGING;
  const slots = input.slots ?? scheduledSlots(rule, input.fromMs, input.toMs);
  const matches = new Map<string, boolean>();
  const inScope = (name: string) => {
    const known = matches.get(name);
    if (known !== undefined) return known;
    const matched = campaignNameMatches(rule, name);
    matches.set(name, matched);
    return matched;
  };
  const account = new AccountAtHour(timeline, inScope);
  const hourly = hourlyNeed(rule, input.accountZone ?? rule.timezone);
  const seriesOf = new Map(timeline.ads.map((s) => [s.adId, s]));
  const adsOfCampaign = new Map<string, AdSeries[]>();
  for (const s of timeline.ads) adsOfCampaign.set(s.campaignId, [...(adsOfCampaign.get(s.campaignId) ?? []), s]);
  const turnOns = new TurnOns(input.turnOns ?? []);
  // A campaign task sums every ad of the campaign; ad tasks judge only ads on (or the replay's own, to revive).
  const firstReading = timeline.ads.reduce(
    (first, s) => Math.min(first, s.latest.findIndex((h) => h >= 0) >>> 0),
    timeline.hours,
  );
  // A rule with conditions judges every object: the crossing filter knows the task cards only.
  const conditioned = Boolean(rule.conditions && rule.action);
  const crossing = input.judgeEveryAd || conditioned ? null : CrossingAds.of(rule, input.currency, timeline.ads.length);
  const outcomes = readsOutcomes(rule) || (conditioned && conditionsReadOutcomes(rule.conditions));
  const allAds = conditioned || rule.rule_task.some((t) => t.is_active && t.name === 'campaign_leads');
  const adsetOfAd = input.adsetOfAd ?? new Map<string, string>();
  const windows = conditioned
    ? new WindowRows(
        timeline,
        readsNeeded(rule),
        input.accountZone ?? rule.timezone,
        (s) => inScope(s.campaignName),
        adsetOfAd,
      )
    : null;
  const budgets =
    conditioned && rule.action && isBudgetAction(rule.action.kind)
      ? new SimulatedBudgets(
          input.budgets?.now ?? [],
          input.budgets?.limits ?? DEFAULT_BUDGET_LIMITS,
          rule.action,
          rule.conditions,
          input.currency,
        )
      : null;
  const judged = crossing ? crossing.crosses.bind(crossing) : undefined;
  const keep = { allAds, paused: judging.revive_hours !== null, ...(judged ? { judged } : {}) };
  const maxActions = input.limits?.maxActions ?? DEFAULT_LIMITS.maxActions;
  /** What the replay holds off: object → its turn-off's index in `pauses`. */
  const paused = new Map<string, number>();
  const pauses: ReplayPause[] = [];
  let slotsWithoutData = 0;

  for (const [index, atMs] of slots.entries()) {
    if (index % 24 === 0) {
      input.onProgress?.(index, slots.length);
      await yieldToOthers();
      if (input.signal?.aborted) throw new ReplayCancelled();
    }
    const hour = hourIndex(timeline, atMs);
    if (hour < 0 || hour >= timeline.hours) continue;
    if (hour < firstReading) {
      slotsWithoutData += 1;
      continue;
    }
    const quality = outcomes ? (input.qualityAt?.(atMs) ?? NO_QUALITY) : null;
    crossing?.judgingWith(quality);
    // No delivering ad crosses a task and nothing of its own is off to revive: the hour would judge nothing.
    if (judged && (judging.revive_hours === null || paused.size === 0) && !account.judgesAny(hour, judged)) continue;
    const { snapshot: read, delivering } = account.snapshot(hour, input.currency, hourly, keep);
    const placed = adsetOfAd.size ? withAdsets(read, adsetOfAd) : read;
    const snapshot = quality ? withQuality(placed, quality) : placed;
    const now = new Date(atMs);
    const history = turnOns.upTo(atMs);
    const exempt = new Set((input.exemptions ?? []).filter((e) => e.sinceMs <= atMs).map((e) => e.objectId));
    const inputs = windows
      ? {
          windowRows: windows.at(atMs),
          ...(budgets ? { budgets: budgets.objectsAt(deliveringParents(snapshot)) } : {}),
        }
      : undefined;
    const evaluation = evaluate(rule, snapshot, { exempt, history, now, ...(inputs ? { inputs } : {}) });
    budgets?.apply(atMs, evaluation.budgetPlans, evaluation.costNow);
    const revives =
      judging.revive_hours === null
        ? []
        : reviveDecisions(rule, snapshot, ownTurnOffs(paused, pauses), { now, history }).slice(0, maxActions);
    const held = evaluation.actions.length
      ? blastRadius({ deliveringAds: delivering }, evaluation.actions, snapshot, input.limits).exceeded
      : false;
    for (const action of evaluation.actions) {
      const members =
        action.action === 'turn_off_campaign'
          ? (adsOfCampaign.get(action.objectId) ?? [])
          : [seriesOf.get(action.objectId)!];
      const readHours = new Map(members.map((s) => [s.adId, s.latest[hour]!] as const).filter(([, h]) => h >= 0));
      const pause: ReplayPause = {
        atMs,
        action: action.action,
        objectId: action.objectId,
        campaignId: action.campaignId,
        task: action.task,
        reason: action.reason,
        held,
        readHours,
        settled: members.some((s) => s.settled[s.latest[hour]!] === 1),
        revivedAtMs: null,
        reviveReason: null,
      };
      pauses.push(pause);
      if (!held) {
        paused.set(action.objectId, pauses.length - 1);
        account.setTurnedOff(action.objectId, true);
      }
    }
    for (const revive of revives) {
      const pause = pauses[revive.entryId]!;
      pause.revivedAtMs = atMs;
      pause.reviveReason = revive.reason;
      paused.delete(revive.objectId);
      account.setTurnedOff(revive.objectId, false);
      turnOns.revived(revive.objectId, atMs);
    }
  }
  input.onProgress?.(slots.length, slots.length);
  return {
    pauses,
    slots: slots.length,
    slotsWithoutData,
    budgetChanges: budgets?.changes ?? [],
    ceilingsMet: budgets?.ceilingsMet ?? {},
  };
}

/** The snapshot's ads with their ad sets (the history keeps none: they are read from the platform now). */
function withAdsets(snapshot: AccountSnapshot, adsetOfAd: ReadonlyMap<string, string>): AccountSnapshot {
  return { ...snapshot, ads: snapshot.ads.map((ad) => ({ ...ad, adset_id: adsetOfAd.get(ad.id) ?? ad.adset_id })) };
}

/** The ad sets and campaigns with an ad delivering in the snapshot: what is on at that hour. */
function deliveringParents(snapshot: AccountSnapshot): Set<string> {
  const on = new Set<string>();
  for (const ad of snapshot.ads)
    if (ad.effective_status === 'ACTIVE') {
      on.add(ad.campaign_id);
      if (ad.adset_id) on.add(ad.adset_id);
    }
  return on;
}

/** The replay's ad turn-offs still in effect, as the engine's revive reads its own (entry = index in `pauses`). */
function ownTurnOffs(paused: Map<string, number>, pauses: ReplayPause[]): PausedByRule[] {
  const out: PausedByRule[] = [];
  for (const entryId of paused.values()) {
    const pause = pauses[entryId]!;
    if (pause.action === 'turn_off_ad')
      out.push({ entryId, objectId: pause.objectId, at: new Date(pause.atMs), reason: pause.reason });
  }
  return out;
}
