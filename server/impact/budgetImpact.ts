/**
 * The budget side of the impact report: the daily budget the rules' done changes (raise, lower,
 * roll-back) added and removed over the period, and each change with the object's cost per lead
 * before and after it — spend over leads in the BUDGET_CPL_DAYS days before the change, and from
 * the change up to BUDGET_CPL_DAYS days after it (or now), from the metric history. The history
 * keeps ads under their campaigns, not their ad sets: an ad set's cost per lead is not known (N/A),
 * nor one without a lead or without readings on both sides.
 */
import type { ImpactBudgetChange } from '../../shared/impact';
import type { Database } from '../db/client';
import { DAY_MS, HOUR_MS } from '../history/reading';
import { hourIndex, loadTimeline, numbersAt, type AdSeries, type Timeline } from '../history/timeline';

/** What the report's entries (report.ts) hold that a budget change is read from. */
export interface ImpactEntry {
  action: string;
  adAccountId: string | null;
  adId: string | null;
  objectType: string | null;
  createdAt: Date;
  budgetBefore: number | null;
  budgetAfter: number | null;
  ruleId: number | null;
  ruleName: string | null;
  folderName: string | null;
  reason: Record<string, string>;
}

export const BUDGET_ACTIONS = ['raise_budget', 'lower_budget', 'restore_budget'] as const;
export const BUDGET_CPL_DAYS = 3;

export const BUDGET_METHOD = [
  `Budget added and removed sum the daily budget each done budget change added or removed. The cost per lead around a change is spend over leads in the ${BUDGET_CPL_DAYS} days before it, and from it up to ${BUDGET_CPL_DAYS} days after (or now), from the metric history: N/A for an ad set (the history keeps ads by campaign), without a lead, or without readings on both sides.`,
];

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Spend (dollars) and leads of the ads at an hour's latest reading; null before any reading. */
function totalsAt(members: AdSeries[], hour: number): { spend: number; leads: number; read: number } | null {
  if (hour < 0) return null;
  let spend = 0;
  let leads = 0;
  let read = -1;
  for (const s of members) {
    const at = s.latest[Math.min(hour, s.latest.length - 1)]!;
    if (at < 0) continue;
    const n = numbersAt(s, at);
    spend += (n.spendCents ?? 0) / 100;
    leads += n.leads ?? 0;
    read = Math.max(read, at);
  }
  return read < 0 ? null : { spend, leads, read };
}

/** Spend over leads between two hours; null when either end has no reading, nothing new was read, or no lead came. */
function cplBetween(members: AdSeries[], from: number, to: number): number | null {
  const start = totalsAt(members, from);
  const end = totalsAt(members, to);
  if (!start || !end || end.read <= start.read) return null;
  const leads = end.leads - start.leads;
  return leads > 0 ? round2(Math.max(0, end.spend - start.spend) / leads) : null;
}

export async function budgetImpactOf(
  db: Database,
  entries: ImpactEntry[],
  nowMs: number,
): Promise<{ added: number; removed: number; changes: ImpactBudgetChange[] }> {
  const span = BUDGET_CPL_DAYS * DAY_MS;
  const timelines = new Map<string, Timeline>();
  for (const account of new Set(entries.map((e) => e.adAccountId).filter((a): a is string => a !== null))) {
    const own = entries.filter((e) => e.adAccountId === account && e.objectType === 'campaign');
    if (!own.length) continue;
    const fromMs = Math.min(...own.map((e) => e.createdAt.getTime())) - span;
    const campaignIds = [...new Set(own.map((e) => e.adId!))];
    timelines.set(account, await loadTimeline(db, account, fromMs, nowMs, 1, { adIds: [], campaignIds }));
  }
  let added = 0;
  let removed = 0;
  const changes = entries.map((e): ImpactBudgetChange => {
    const before = (e.budgetBefore ?? 0) / 100;
    const after = (e.budgetAfter ?? e.budgetBefore ?? 0) / 100;
    const delta = round2(after - before);
    if (delta > 0) added += delta;
    else removed -= delta;
    const timeline = e.adAccountId ? timelines.get(e.adAccountId) : undefined;
    let cplBefore: number | null = null;
    let cplAfter: number | null = null;
    if (timeline && e.objectType === 'campaign') {
      const members = timeline.ads.filter((s) => s.campaignId === e.adId);
      const at = hourIndex(timeline, e.createdAt.getTime());
      const end = Math.min(hourIndex(timeline, e.createdAt.getTime() + span), hourIndex(timeline, nowMs));
      cplBefore = cplBetween(members, at - span / HOUR_MS, at);
      cplAfter = cplBetween(members, at, end);
    }
    const level = e.objectType === 'campaign' ? 'campaign' : 'adset';
    return {
      at: e.createdAt.toISOString(),
      rule_id: e.ruleId,
      rule_name: e.ruleName ?? '',
      folder_name: e.folderName ?? '',
      action: e.action as ImpactBudgetChange['action'],
      object_type: level,
      object_id: e.adId ?? '',
      name: (level === 'campaign' ? e.reason.Campaign : e.reason['Ad set']) ?? e.adId ?? '',
      before: round2(before),
      after: round2(after),
      daily_delta: delta,
      cpl_before: cplBefore,
      cpl_after: cplAfter,
    };
  });
  return { added: round2(added), removed: round2(removed), changes };
}
