/**
 * The backtest's replay: a rule's scheduled hours over a span of the metric history, each judged by
 * the engine's own evaluate() on the numbers as they were known at that hour (the latest reading at
 * or before it), with the rule's exemptions as they stood then and the blast-radius limit. What it
 * would have paused stays paused for the rest of the replay. Pure: it reads the timeline it is given
 * and writes nothing anywhere.
 */
import { DateTime } from 'luxon';
import type { Ad, Campaign, InsightRow } from '../adplatform/types';
import { blastRadius, type BlastLimits } from '../engine/blastRadius';
import { evaluate, type AccountSnapshot, type PlannedAction } from '../engine/evaluate';
import type { EngineRule } from '../engine/ruleShape';
import { dueRunSlots, validZone } from '../engine/schedule';
import { insightRowOf } from '../history/reading';
import { hourIndex, numbersAt, type AdSeries, type Timeline } from '../history/store';

export interface BacktestRule extends EngineRule {
  /** 7 days (Sunday first) × 24 hours. */
  schedule: boolean[][];
  timezone: string;
}

export interface ReplayInput {
  rule: BacktestRule;
  timeline: Timeline;
  currency: string;
  fromMs: number;
  toMs: number;
  /** The rule's exemptions and when each began (an Undo). */
  exemptions?: { objectId: string; sinceMs: number }[];
  limits?: BlastLimits;
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
}

export interface ReplayResult {
  pauses: ReplayPause[];
  /** Scheduled hours replayed, and those without any reading yet. */
  slots: number;
  slotsWithoutData: number;
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

class AccountAtHour {
  private readonly rows = new Map<string, { hour: number; row: InsightRow }>();

  constructor(private readonly timeline: Timeline) {}

  /** The account as a live read at this hour would have seen it, with the replay's own pauses applied. */
  snapshot(hour: number, currency: string, paused: ReadonlySet<string>): AccountSnapshot {
    const campaigns = new Map<string, Campaign>();
    const ads: Ad[] = [];
    const insights: InsightRow[] = [];
    const live: { series: AdSeries; read: number }[] = [];
    for (const series of this.timeline.ads) {
      const read = series.latest[hour]!;
      if (read < 0) continue;
      live.push({ series, read });
      const campaignOn = series.campaignOn[read] === 1 && !paused.has(series.campaignId);
      const known = campaigns.get(series.campaignId);
      if (!known || (campaignOn && known.status !== 'ACTIVE')) {
        const status = campaignOn ? 'ACTIVE' : 'PAUSED';
        campaigns.set(series.campaignId, {
          id: series.campaignId,
          name: series.campaignName,
          status,
          effective_status: status,
        });
      }
    }
    for (const { series, read } of live) {
      const campaignOn = campaigns.get(series.campaignId)!.status === 'ACTIVE';
      const adOn = series.on[read] === 1 && !paused.has(series.adId);
      ads.push({
        id: series.adId,
        name: series.adName,
        status: adOn ? 'ACTIVE' : 'PAUSED',
        effective_status: adOn ? (campaignOn ? 'ACTIVE' : 'CAMPAIGN_PAUSED') : 'PAUSED',
        campaign_id: series.campaignId,
        adset_id: '',
      });
      // A live read keeps the rows of what is delivering (server/engine/snapshots.ts).
      if (campaignOn || adOn) insights.push(this.rowOf(series, read));
    }
    return { currency, campaigns: [...campaigns.values()], ads, insights };
  }

  private rowOf(series: AdSeries, read: number): InsightRow {
    const cached = this.rows.get(series.adId);
    if (cached?.hour === read) return cached.row;
    const row = insightRowOf(series, numbersAt(series, read));
    this.rows.set(series.adId, { hour: read, row });
    return row;
  }
}

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

export class ReplayCancelled extends Error {
  constructor() {
    super('The backtest was cancelled');
  }
}

export async function replay(input: ReplayInput): Promise<ReplayResult> {
  const { rule, timeline } = input;
  const slots = scheduledSlots(rule, input.fromMs, input.toMs);
  const account = new AccountAtHour(timeline);
  const seriesOf = new Map(timeline.ads.map((s) => [s.adId, s]));
  const adsOfCampaign = new Map<string, AdSeries[]>();
  for (const s of timeline.ads) adsOfCampaign.set(s.campaignId, [...(adsOfCampaign.get(s.campaignId) ?? []), s]);
  const paused = new Set<string>();
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
    const snapshot = account.snapshot(hour, input.currency, paused);
    if (!snapshot.ads.length) {
      slotsWithoutData += 1;
      continue;
    }
    const exempt = new Set((input.exemptions ?? []).filter((e) => e.sinceMs <= atMs).map((e) => e.objectId));
    const evaluation = evaluate(rule, snapshot, { exempt });
    if (!evaluation.actions.length) continue;
    const held = blastRadius(evaluation, evaluation.actions, snapshot, input.limits).exceeded;
    for (const action of evaluation.actions) {
      const members =
        action.action === 'turn_off_campaign'
          ? (adsOfCampaign.get(action.objectId) ?? [])
          : [seriesOf.get(action.objectId)!];
      const readHours = new Map(members.map((s) => [s.adId, s.latest[hour]!] as const).filter(([, h]) => h >= 0));
      pauses.push({
        atMs,
        action: action.action,
        objectId: action.objectId,
        campaignId: action.campaignId,
        task: action.task,
        reason: action.reason,
        held,
        readHours,
        settled: members.some((s) => s.settled[s.latest[hour]!] === 1),
      });
      if (!held) paused.add(action.objectId);
    }
  }
  input.onProgress?.(slots.length, slots.length);
  return { pauses, slots: slots.length, slotsWithoutData };
}
