/**
 * What each backtest pause would have meant, read from the later history: what the object went on
 * to spend and the leads it went on to bring (late leads credited to earlier hours included), its
 * final cost per lead, and the verdict — it stopped waste, or it would have paused a converter.
 */
import { DateTime } from 'luxon';
import { taskThresholds, type EngineRule } from '../judgement/ruleShape';
import { validZone } from '../judgement/scheduleSlots';
import { hourIndex, numbersAt, type AdSeries, type Timeline } from '../history/timeline';
import type { ReplayPause } from './replay';

export type PauseVerdict = 'stopped_waste' | 'paused_converter' | 'goal_reached' | 'held';

export interface PauseOutcome {
  at: string;
  object_type: 'ad' | 'campaign';
  object_id: string;
  name: string;
  campaign_id: string;
  campaign_name: string;
  task: string;
  /** The numbers and threshold that triggered it, as the engine words them. */
  reason: Record<string, string>;
  /** The numbers it was judged on were backfilled (settled), not as known then. */
  settled_numbers: boolean;
  spend_at_pause: number;
  leads_at_pause: number;
  spend_after: number;
  leads_after: number;
  /** Spend over leads at the end of the history; null without leads. */
  final_cpl: number | null;
  verdict: PauseVerdict;
  /** When the rule would have turned it back on (revive); null when it stayed off. */
  revived_at: string | null;
}

export interface BacktestTotals {
  pauses: number;
  held: number;
  converters_paused: number;
  /** Estimated: what the paused objects went on to spend after their pause in the recorded history. */
  spend_stopped: number;
  /** Estimated: the leads they went on to bring. */
  leads_lost: number;
  /** Pauses the rule would have turned back on (revive). */
  revives: number;
}

export interface BacktestDay {
  date: string;
  pauses: number;
  converters_paused: number;
  spend_stopped: number;
}

interface Sums {
  spendCents: number;
  leads: number;
  websiteLeads: number;
}

function sumAt(members: AdSeries[], hourOf: (s: AdSeries) => number): Sums {
  const sums: Sums = { spendCents: 0, leads: 0, websiteLeads: 0 };
  for (const s of members) {
    const hour = hourOf(s);
    if (hour < 0) continue;
    const n = numbersAt(s, hour);
    sums.spendCents += n.spendCents ?? 0;
    sums.leads += n.leads ?? 0;
    sums.websiteLeads += n.websiteLeads ?? 0;
  }
  return sums;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function verdictOf(pause: ReplayPause, rule: EngineRule, end: Sums, leadsAfter: number): PauseVerdict {
  if (pause.held) return 'held';
  if (pause.task === 'campaign_leads') return 'goal_reached';
  if (pause.task === 'trigger_cpl' || pause.task === 'website_cpl') {
    const task = rule.rule_task.find((t) => t.name === pause.task);
    const cpl = task ? taskThresholds(task)?.cpl : undefined;
    const leads = pause.task === 'website_cpl' ? end.websiteLeads : end.leads;
    return cpl !== undefined && leads > 0 && end.spendCents / 100 / leads <= cpl ? 'paused_converter' : 'stopped_waste';
  }
  return leadsAfter > 0 ? 'paused_converter' : 'stopped_waste';
}

/** Each pause's outcome and their totals (what a summary of many backtests reads: no days). */
export function pauseOutcomesOf(
  pauses: ReplayPause[],
  rule: EngineRule,
  timeline: Timeline,
  span: { toMs: number },
): { results: PauseOutcome[]; totals: BacktestTotals } {
  const lastHour = Math.min(timeline.hours - 1, hourIndex(timeline, span.toMs - 1));
  const seriesOf = new Map(timeline.ads.map((s) => [s.adId, s]));
  const results = pauses.map((pause): PauseOutcome => {
    const members = [...pause.readHours.keys()].map((id) => seriesOf.get(id)!);
    const atPause = sumAt(members, (s) => pause.readHours.get(s.adId)!);
    const end = sumAt(members, (s) => s.latest[lastHour]!);
    // What it would have missed: up to its revive, if the rule would have turned it back on.
    const offUntil = pause.revivedAtMs === null ? lastHour : Math.min(lastHour, hourIndex(timeline, pause.revivedAtMs));
    const missed = pause.revivedAtMs === null ? end : sumAt(members, (s) => s.latest[offUntil]!);
    const leadsAfter = Math.max(0, missed.leads - atPause.leads);
    const first = members[0];
    const isCampaign = pause.action === 'turn_off_campaign';
    return {
      at: new Date(pause.atMs).toISOString(),
      object_type: isCampaign ? 'campaign' : 'ad',
      object_id: pause.objectId,
      name: isCampaign ? (first?.campaignName ?? pause.objectId) : (first?.adName ?? pause.objectId),
      campaign_id: pause.campaignId,
      campaign_name: first?.campaignName ?? pause.campaignId,
      task: pause.task,
      reason: pause.reason,
      settled_numbers: pause.settled,
      spend_at_pause: round2(atPause.spendCents / 100),
      leads_at_pause: atPause.leads,
      spend_after: round2(Math.max(0, missed.spendCents - atPause.spendCents) / 100),
      leads_after: leadsAfter,
      final_cpl: end.leads > 0 ? round2(end.spendCents / 100 / end.leads) : null,
      verdict: verdictOf(pause, rule, end, leadsAfter),
      revived_at: pause.revivedAtMs === null ? null : new Date(pause.revivedAtMs).toISOString(),
    };
  });
  const made = results.filter((r) => r.verdict !== 'held');
  const totals: BacktestTotals = {
    pauses: made.length,
    held: results.length - made.length,
    converters_paused: made.filter((r) => r.verdict === 'paused_converter').length,
    spend_stopped: round2(made.reduce((sum, r) => sum + r.spend_after, 0)),
    leads_lost: made.reduce((sum, r) => sum + r.leads_after, 0),
    revives: made.filter((r) => r.revived_at !== null).length,
  };
  return { results, totals };
}

/** Each pause's outcome, their totals, and the pauses by day in the rule's time zone (the backtest's answer). */
export function outcomesOf(
  pauses: ReplayPause[],
  rule: EngineRule & { timezone: string },
  timeline: Timeline,
  span: { fromMs: number; toMs: number },
): { results: PauseOutcome[]; totals: BacktestTotals; days: BacktestDay[] } {
  const { results, totals } = pauseOutcomesOf(pauses, rule, timeline, span);
  const made = results.filter((r) => r.verdict !== 'held');
  const zone = validZone(rule.timezone);
  const byDay = new Map<string, BacktestDay>();
  const lastDay = DateTime.fromMillis(span.toMs - 1, { zone }).toISODate()!;
  for (
    let d = DateTime.fromMillis(span.fromMs, { zone }).startOf('day');
    d.toISODate()! <= lastDay;
    d = d.plus({ days: 1 })
  )
    byDay.set(d.toISODate()!, { date: d.toISODate()!, pauses: 0, converters_paused: 0, spend_stopped: 0 });
  for (const r of made) {
    const date = DateTime.fromISO(r.at, { zone }).toISODate()!;
    const day = byDay.get(date) ?? { date, pauses: 0, converters_paused: 0, spend_stopped: 0 };
    byDay.set(date, day);
    day.pauses += 1;
    if (r.verdict === 'paused_converter') day.converters_paused += 1;
    day.spend_stopped = round2(day.spend_stopped + r.spend_after);
  }
  return { results, totals, days: [...byDay.values()] };
}
