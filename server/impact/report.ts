/**
 * The impact report: what a rule, a folder's rules or the whole agency's rules did over the last
 * days — turn-offs, revives, undos — and what it was worth, estimated from the metric history:
 * spend avoided (the object's spend rate in the day before its pause × the hours it stayed off,
 * capped by its campaign's daily budget), false pauses (undone, revived, or whose numbers as they
 * settled no longer cross the rule's threshold), and the leads brought back by turning objects on.
 * A rule with an outcome task is judged for that with what the leads became as known now.
 * Budget rules: the daily budget their done changes added and removed, and each change with the
 * object's cost per lead in the days before and after it (budgetImpact.ts).
 */
import { and, eq, gte, inArray, type SQL } from 'drizzle-orm';
import type { ImpactPause, ImpactReport } from '../../shared/impact';
import type { Database } from '../db/client';
import { folders, metaAdAccounts, ruleActivity, rules } from '../db/schema/index';
import { TURN_OFF_ACTIONS } from '../activity/entries';
import { evaluate, type AccountSnapshot } from '../judgement/evaluate';
import { readsOutcomes, withQuality } from '../judgement/outcomeTasks';
import { loadEngineRules, type LoadedEngineRule } from '../run/rulesSource';
import { DAY_MS, HOUR_MS, insightRowOf } from '../history/reading';
import { hourIndex, loadTimeline, numbersAt, type AdSeries, type Timeline } from '../history/timeline';
import { notFound } from '../http/errors';
import type { QualityByAd } from '../outcomes/quality';
import { createOutcomeStore } from '../outcomes/store';
import { BUDGET_ACTIONS, BUDGET_METHOD, budgetImpactOf } from './budgetImpact';

export type ImpactScope = { kind: 'agency' } | { kind: 'folder'; id: number } | { kind: 'rule'; id: number };

export const IMPACT_METHOD = [
  'Spend avoided is estimated per turn-off: the object’s spend per hour over the day before it was turned off (from the metric history) × the hours it stayed off (until it was turned back on, or now), at most its campaign’s daily budget for those hours.',
  'A false pause is a turn-off that was undone, revived, or whose numbers as they later settled (late leads included) no longer cross the rule’s threshold.',
  'Leads brought back are the leads an object got after an undo or a revive turned it back on.',
  ...BUDGET_METHOD,
];

const TURN_ON_ACTIONS = ['turn_on_ad', 'turn_on_campaign', 'revive_ad', 'revive_campaign'];
/**
 * A turn-on is a revive when the rule's revive made it, whoever started the run (Run now stamps the
 * person on every entry of its run, revives included); an undo is a person's turn_on_*.
 */
export const turnOnKind = (action: string): 'revive' | 'undo' => (action.startsWith('revive_') ? 'revive' : 'undo');
const round2 = (n: number) => Math.round(n * 100) / 100;

async function scopeOf(db: Database, scope: ImpactScope): Promise<{ name: string; where: SQL | undefined }> {
  if (scope.kind === 'agency') return { name: 'All folders', where: undefined };
  if (scope.kind === 'folder') {
    const [folder] = await db.select({ name: folders.name }).from(folders).where(eq(folders.id, scope.id));
    if (!folder) throw notFound();
    return { name: folder.name, where: eq(ruleActivity.folderId, scope.id) };
  }
  const [rule] = await db.select({ name: rules.name }).from(rules).where(eq(rules.id, scope.id));
  if (!rule) throw notFound();
  return { name: rule.name, where: eq(ruleActivity.ruleId, scope.id) };
}

/** A rule_activity entry as the report reads it. */
export type ImpactEntry = Awaited<ReturnType<typeof loadEntries>>[number];
type Entry = ImpactEntry;

function loadEntries(db: Database, actions: string[], fromMs: number, where: SQL | undefined) {
  return db
    .select({
      id: ruleActivity.id,
      createdAt: ruleActivity.createdAt,
      action: ruleActivity.action,
      adId: ruleActivity.adId,
      ruleId: ruleActivity.ruleId,
      folderId: ruleActivity.folderId,
      actorId: ruleActivity.actorId,
      objectType: ruleActivity.objectType,
      budgetBefore: ruleActivity.budgetBefore,
      budgetAfter: ruleActivity.budgetAfter,
      undoneAt: ruleActivity.undoneAt,
      reason: ruleActivity.reason,
      adAccountId: folders.adAccountId,
      folderName: folders.name,
      ruleName: rules.name,
      currency: metaAdAccounts.currency,
    })
    .from(ruleActivity)
    .leftJoin(folders, eq(folders.id, ruleActivity.folderId))
    .leftJoin(rules, eq(rules.id, ruleActivity.ruleId))
    .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
    .where(
      and(
        inArray(ruleActivity.action, actions),
        eq(ruleActivity.state, 'done'),
        gte(ruleActivity.createdAt, new Date(fromMs)),
        where,
      ),
    )
    .orderBy(ruleActivity.createdAt, ruleActivity.id);
}

/** Sums of an object's ads' spend (dollars) and leads at an hour's latest reading; null before any. */
function totalsAt(members: AdSeries[], hour: number): { spend: number; leads: number; read: number } | null {
  let spend = 0;
  let leads = 0;
  let read = -1;
  for (const s of members) {
    const at = hour < 0 ? -1 : s.latest[Math.min(hour, s.latest.length - 1)]!;
    if (at < 0) continue;
    const n = numbersAt(s, at);
    spend += (n.spendCents ?? 0) / 100;
    leads += n.leads ?? 0;
    read = Math.max(read, at);
  }
  return read < 0 ? null : { spend, leads, read };
}

/**
 * The rule no longer turns the object off on its latest numbers (settled, late leads included) and,
 * for its outcome tasks, what the leads became as known now.
 */
function settledUnder(
  rule: LoadedEngineRule,
  members: AdSeries[],
  latestHour: number,
  currency: string,
  quality: QualityByAd | undefined,
): boolean {
  const campaigns = new Map(members.map((s) => [s.campaignId, s.campaignName]));
  const ads = members.filter((s) => s.latest[latestHour]! >= 0);
  if (!ads.length) return false;
  const snapshot: AccountSnapshot = {
    currency,
    campaigns: [...campaigns].map(([id, name]) => ({ id, name, status: 'ACTIVE', effective_status: 'ACTIVE' })),
    ads: ads.map((s) => ({
      id: s.adId,
      name: s.adName,
      status: 'ACTIVE',
      effective_status: 'ACTIVE',
      campaign_id: s.campaignId,
      adset_id: '',
    })),
    insights: ads.map((s) => insightRowOf(s, numbersAt(s, s.latest[latestHour]!))),
  };
  return evaluate(rule, quality ? withQuality(snapshot, quality) : snapshot).actions.length === 0;
}

export async function impactReport(db: Database, scope: ImpactScope, days: number, now: Date): Promise<ImpactReport> {
  const nowMs = now.getTime();
  const fromMs = nowMs - days * DAY_MS;
  const { name, where } = await scopeOf(db, scope);
  const [offs, ons, budgetEntries] = await Promise.all([
    loadEntries(db, [...TURN_OFF_ACTIONS], fromMs, where),
    loadEntries(db, TURN_ON_ACTIONS, fromMs, where),
    loadEntries(db, [...BUDGET_ACTIONS], fromMs, where),
  ]);
  const budgets = await budgetImpactOf(db, budgetEntries, nowMs);
  const ruleOf = await loadEngineRules(db, [
    ...new Set(offs.map((e) => e.ruleId).filter((id): id is number => id !== null)),
  ]);

  const timelines = new Map<string, Timeline>();
  for (const account of new Set(offs.map((e) => e.adAccountId).filter((a): a is string => a !== null))) {
    const own = offs.filter((e) => e.adAccountId === account);
    const only = {
      adIds: own.filter((e) => e.action === 'turn_off_ad').map((e) => e.adId!),
      campaignIds: own.filter((e) => e.action === 'turn_off_campaign').map((e) => e.adId!),
    };
    timelines.set(account, await loadTimeline(db, account, fromMs, nowMs, 2, only));
  }

  const qualityNow = new Map<string, QualityByAd>();
  const outcomeAccounts = offs.flatMap((e) => {
    const rule = e.ruleId === null ? undefined : ruleOf.get(e.ruleId);
    return rule && readsOutcomes(rule) && e.adAccountId !== null ? [e.adAccountId] : [];
  });
  const store = createOutcomeStore(db);
  for (const account of new Set(outcomeAccounts)) qualityNow.set(account, await store.qualityAt(account, now));

  const backOnOf = (off: Entry): { atMs: number; by: 'undo' | 'revive' } | null => {
    const on = ons.find((e) => e.adId === off.adId && e.createdAt > off.createdAt);
    if (on) return { atMs: on.createdAt.getTime(), by: turnOnKind(on.action) };
    return off.undoneAt ? { atMs: off.undoneAt.getTime(), by: 'undo' } : null;
  };

  const pauses = offs.map((off): ImpactPause => {
    const timeline = off.adAccountId ? timelines.get(off.adAccountId) : undefined;
    const members = (timeline?.ads ?? []).filter((s) =>
      off.action === 'turn_off_campaign' ? s.campaignId === off.adId : s.adId === off.adId,
    );
    const atMs = off.createdAt.getTime();
    const backOn = backOnOf(off);
    const hoursOff = Math.max(0, ((backOn?.atMs ?? nowMs) - atMs) / HOUR_MS);
    let spendRate: number | null = null;
    let budgetCap: number | null = null;
    let leadsBack = 0;
    let falsePause: ImpactPause['false_pause'] = backOn ? (backOn.by === 'undo' ? 'undone' : 'revived') : null;
    if (timeline && members.length) {
      const at = hourIndex(timeline, atMs);
      const before = totalsAt(members, at - 24);
      const then = totalsAt(members, at);
      if (before && then && then.read > before.read)
        spendRate = Math.max(0, then.spend - before.spend) / (then.read - before.read);
      const budget = members[0]!.budgetCents;
      if (budget) budgetCap = round2((budget / 100) * (hoursOff / 24));
      const latest = timeline.hours - 1;
      if (backOn) {
        const onAt = totalsAt(members, hourIndex(timeline, backOn.atMs));
        const end = totalsAt(members, latest);
        if (onAt && end) leadsBack = Math.max(0, end.leads - onAt.leads);
      } else {
        const rule = off.ruleId === null ? undefined : ruleOf.get(off.ruleId);
        const end = totalsAt(members, latest);
        if (
          rule &&
          then &&
          end &&
          end.read > then.read &&
          settledUnder(rule, members, latest, off.currency ?? 'USD', qualityNow.get(off.adAccountId!))
        )
          falsePause = 'settled_under_threshold';
      }
    }
    const estimate = spendRate === null ? 0 : spendRate * hoursOff;
    return {
      at: off.createdAt.toISOString(),
      rule_id: off.ruleId,
      rule_name: off.ruleName ?? '',
      folder_name: off.folderName ?? '',
      object_type: off.action === 'turn_off_campaign' ? 'campaign' : 'ad',
      object_id: off.adId ?? '',
      name: (off.action === 'turn_off_campaign' ? off.reason.Campaign : off.reason.Ad) ?? off.adId ?? '',
      reason: off.reason,
      back_on_at: backOn ? new Date(backOn.atMs).toISOString() : null,
      back_on_by: backOn?.by ?? null,
      hours_off: round2(hoursOff),
      spend_rate: spendRate === null ? null : round2(spendRate),
      budget_cap: budgetCap,
      spend_avoided: round2(budgetCap === null ? estimate : Math.min(estimate, budgetCap)),
      false_pause: falsePause,
      leads_brought_back: leadsBack,
    };
  });

  const byDay = new Map<string, { date: string; pauses: number; spend_avoided: number }>();
  for (let d = fromMs; d < nowMs + DAY_MS; d += DAY_MS) {
    const date = new Date(d).toISOString().slice(0, 10);
    if (date <= new Date(nowMs).toISOString().slice(0, 10)) byDay.set(date, { date, pauses: 0, spend_avoided: 0 });
  }
  for (const p of pauses) {
    const day = byDay.get(p.at.slice(0, 10));
    if (!day) continue;
    day.pauses += 1;
    day.spend_avoided = round2(day.spend_avoided + p.spend_avoided);
  }
  const currencies = new Set(offs.map((e) => e.currency ?? 'USD'));
  return {
    scope: { kind: scope.kind, id: scope.kind === 'agency' ? null : scope.id, name },
    days,
    from: new Date(fromMs).toISOString(),
    to: now.toISOString(),
    currency: currencies.size > 1 ? 'mixed' : ([...currencies][0] ?? 'USD'),
    totals: {
      turn_offs: pauses.length,
      revives: ons.filter((e) => turnOnKind(e.action) === 'revive').length,
      undos: ons.filter((e) => turnOnKind(e.action) === 'undo').length,
      spend_avoided: round2(pauses.reduce((sum, p) => sum + p.spend_avoided, 0)),
      false_pauses: pauses.filter((p) => p.false_pause !== null).length,
      leads_brought_back: pauses.reduce((sum, p) => sum + p.leads_brought_back, 0),
      budget_added: budgets.added,
      budget_removed: budgets.removed,
    },
    by_day: [...byDay.values()],
    pauses: [...pauses].reverse(),
    budget_changes: [...budgets.changes].reverse(),
    method: IMPACT_METHOD,
  };
}

/** Impact reports over one database, as their routes read them. */
export function createImpactStore(db: Database) {
  return { report: (scope: ImpactScope, days: number, now: Date) => impactReport(db, scope, days, now) };
}

export type ImpactStore = ReturnType<typeof createImpactStore>;
