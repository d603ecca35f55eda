/**
 * The push worker's look at one ad account: its new notifications, each weighed for every active
 * rule whose name filters cover the object it names, and one run queued (through the engine's run
 * queue: ledger, claims and guard rails as for any run) of the rules it can change something for.
 *
 * For a rule, a notification changes nothing — `known` — when the rule's last run read the account
 * at or after it happened, or (a milestone) that run already saw the ad's spend past the line the
 * milestone stands for. A status notification names no status: the objects are read (one call), and
 * one that is not on now is nothing to judge. A rule whose hour is off is not woken (`deferred`):
 * its next scheduled run is kept (floor.ts) and reads the change.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { Database } from '../db/client';
import { accountSnapshots, folders, metaNotifications, metaSubscriptions, rules } from '../db/schema/index';
import { campaignNameMatches } from '../judgement/evaluate';
import { loadEngineRules, type LoadedEngineRule } from '../run/rulesSource';
import { sundayFirstWeekday, validZone, type WeekSchedule } from '../judgement/scheduleSlots';
import { errorMessage } from '../errorMessage';
import { resultRows } from '../http/pagination';

export type NotificationState = 'woke' | 'known' | 'deferred' | 'ignored';

export interface WakeDeps {
  db: Database;
  /** Each object's current status (Graph's `status`); without it, a status notification wakes its rules. */
  readStatuses?(ids: string[]): Promise<Map<string, string>>;
  now(): Date;
  /** Queues one run of these rules of the account at `slot`, woken by a push (the engine's run queue). */
  enqueueRuns(adAccountId: string, ruleIds: number[], slot: Date): Promise<void>;
  warn(message: string): void;
}

type Notification = typeof metaNotifications.$inferSelect;

/** What a rule's last run read: when, and the spend it saw per object. */
interface LastRead {
  at: Date;
  spendOf: Map<string, number>;
}

export interface CoveredRule {
  rule: LoadedEngineRule;
  schedule: WeekSchedule;
  lastRead?: LastRead;
}

/** What the account's last snapshot knows of its objects: each ad's campaign, each campaign's name. */
export interface ObjectNames {
  campaignOfAd: Map<string, string>;
  nameOfCampaign: Map<string, string>;
}

const QUARTER_MS = 15 * 60_000;

/**
 * The slot of a run a push or a recheck wakes: the engine's clock, to the second (what comes in the
 * same second is one run), never a quarter hour's instant — those are the schedule's slots, and a
 * ledger row of the same (rule, slot) would make one of the two runs "already done".
 */
export function pushSlot(now: Date): Date {
  const second = Math.floor(now.getTime() / 1000) * 1000;
  return new Date(second % QUARTER_MS === 0 ? second + 1 : second);
}

export function scheduledAt(schedule: WeekSchedule, zone: string, at: Date): boolean {
  const local = DateTime.fromJSDate(at, { zone: validZone(zone) });
  return schedule[sundayFirstWeekday(local)]?.[local.hour] === true;
}

/** Of these rules, those whose hour is on at `at` (in each rule's zone). */
export async function rulesScheduledAt(db: Database, ruleIds: number[], at: Date): Promise<Set<number>> {
  const rows = await db
    .select({ id: rules.id, schedule: rules.schedule, timezone: rules.timezone })
    .from(rules)
    .where(inArray(rules.id, ruleIds));
  return new Set(rows.filter((r) => scheduledAt((r.schedule ?? []) as WeekSchedule, r.timezone, at)).map((r) => r.id));
}

function covers(rule: LoadedEngineRule, n: Notification, names: ObjectNames): boolean {
  if (!n.objectId) return true;
  const campaignId = n.objectType === 'CAMPAIGN' ? n.objectId : names.campaignOfAd.get(n.objectId);
  const name = campaignId === undefined ? undefined : names.nameOfCampaign.get(campaignId);
  return name === undefined || campaignNameMatches(rule, name);
}

/**
 * For one notification, each covering rule's answer: woken, or why not. `lineOf` gives a
 * milestone's line; `offNow` the objects a status read found not on.
 */
export function weigh(
  n: Notification,
  rulesOfAccount: CoveredRule[],
  names: ObjectNames,
  now: Date,
  lineOf: (subscriptionId: string | null) => number | undefined,
  offNow: ReadonlySet<string>,
): { state: NotificationState; woken: number[] } {
  // A field changed that is not a status (a campaign renamed) may bring objects under a rule's filters.
  const covering = n.kind === 'other' ? rulesOfAccount : rulesOfAccount.filter((r) => covers(r.rule, n, names));
  if (!covering.length) return { state: 'ignored', woken: [] };
  if (n.kind === 'status' && n.objectId && offNow.has(n.objectId)) return { state: 'known', woken: [] };
  const line = n.kind === 'milestone' ? lineOf(n.subscriptionId) : undefined;
  const fresh = covering.filter(({ lastRead }) => {
    if (!lastRead) return true;
    if (lastRead.at.getTime() >= n.eventAt.getTime()) return false;
    const seen = n.objectId ? lastRead.spendOf.get(n.objectId) : undefined;
    return !(line !== undefined && seen !== undefined && seen > line);
  });
  if (!fresh.length) return { state: 'known', woken: [] };
  const woken = fresh.filter((r) => scheduledAt(r.schedule, r.rule.timezone, now)).map((r) => r.rule.id);
  return { state: woken.length ? 'woke' : 'deferred', woken };
}

async function accountRules(db: Database, adAccountId: string): Promise<CoveredRule[]> {
  const rows = await db
    .select({ id: rules.id, schedule: rules.schedule })
    .from(rules)
    .innerJoin(folders, eq(folders.id, rules.folderId))
    .where(
      and(
        eq(folders.adAccountId, adAccountId),
        eq(rules.isActive, true),
        eq(rules.isDeleted, false),
        eq(folders.isDeleted, false),
      ),
    );
  const loaded = await loadEngineRules(
    db,
    rows.map((r) => r.id),
  );
  return rows.flatMap((row) => {
    const rule = loaded.get(row.id);
    return rule ? [{ rule, schedule: (row.schedule ?? []) as WeekSchedule }] : [];
  });
}

/** The last run of each rule that read the account, and (when a milestone asks) the spend it saw per object. */
async function lastReads(db: Database, ruleIds: number[], withSpend: boolean): Promise<Map<number, LastRead>> {
  if (!ruleIds.length) return new Map();
  const rows = resultRows<{ rule_id: number; fetched_at: string | Date; details: unknown }>(
    await db.execute(sql`
    select distinct on (r.rule_id) r.rule_id, s.fetched_at, ${withSpend ? sql`r.details` : sql`null`} as details
      from rule_runs r join account_snapshots s on s.id = r.snapshot_id
     where r.rule_id in (${sql.join(
       ruleIds.map((id) => sql`${id}`),
       sql`, `,
     )}) and r.status = 'done' and s.fetched_at is not null
     order by r.rule_id, s.fetched_at desc`),
  );
  return new Map(
    rows.map((row) => {
      const spendOf = new Map<string, number>();
      const objects = (row.details as { objects?: unknown[][] } | null)?.objects ?? [];
      for (const object of objects) {
        const spend = (object[4] as (number | null)[] | null)?.[0];
        if (typeof object[1] === 'string' && typeof spend === 'number') spendOf.set(object[1], spend);
      }
      return [Number(row.rule_id), { at: new Date(row.fetched_at), spendOf }];
    }),
  );
}

async function objectNames(db: Database, adAccountId: string): Promise<ObjectNames> {
  const [latest] = await db
    .select({
      ads: sql<unknown>`${accountSnapshots.data} -> 'ads'`,
      campaigns: sql<unknown>`${accountSnapshots.data} -> 'campaigns'`,
    })
    .from(accountSnapshots)
    .where(and(eq(accountSnapshots.adAccountId, adAccountId), eq(accountSnapshots.state, 'ready')))
    .orderBy(desc(accountSnapshots.fetchedAt))
    .limit(1);
  const ads = (Array.isArray(latest?.ads) ? latest.ads : []) as { id: string; campaign_id: string }[];
  const campaigns = (Array.isArray(latest?.campaigns) ? latest.campaigns : []) as { id: string; name: string }[];
  return {
    campaignOfAd: new Map(ads.map((ad) => [ad.id, ad.campaign_id])),
    nameOfCampaign: new Map(campaigns.map((c) => [c.id, c.name])),
  };
}

/** The objects of status notifications that are not on now (read in one call; unreadable ones count as on). */
async function offObjects(deps: WakeDeps, notifications: Notification[]): Promise<Set<string>> {
  const ids = [...new Set(notifications.filter((n) => n.kind === 'status' && n.objectId).map((n) => n.objectId!))];
  if (!ids.length || !deps.readStatuses) return new Set();
  try {
    const statuses = await deps.readStatuses(ids);
    return new Set(ids.filter((id) => statuses.has(id) && statuses.get(id) !== 'ACTIVE'));
  } catch (error) {
    deps.warn(`push: statuses of ${ids.length} objects could not be read: ${errorMessage(error)}`);
    return new Set();
  }
}

/** Handles the account's new notifications; answers the rules woken. */
export async function wakeAccount(deps: WakeDeps, adAccountId: string): Promise<number[]> {
  const { db } = deps;
  const waiting = await db
    .select()
    .from(metaNotifications)
    .where(and(eq(metaNotifications.adAccountId, adAccountId), eq(metaNotifications.state, 'new')));
  if (!waiting.length) return [];
  const now = deps.now();
  const covered = await accountRules(db, adAccountId);
  const milestones = waiting.filter((n) => n.kind === 'milestone' && n.subscriptionId);
  const [reads, names, offNow, lines] = await Promise.all([
    lastReads(
      db,
      covered.map((r) => r.rule.id),
      milestones.length > 0,
    ),
    objectNames(db, adAccountId),
    offObjects(deps, waiting),
    milestones.length
      ? db
          .select({ id: metaSubscriptions.subscriptionId, spec: metaSubscriptions.spec })
          .from(metaSubscriptions)
          .where(
            inArray(
              metaSubscriptions.subscriptionId,
              milestones.map((n) => n.subscriptionId!),
            ),
          )
      : Promise.resolve([]),
  ]);
  for (const r of covered) r.lastRead = reads.get(r.rule.id);
  const lineOf = new Map(lines.map((l) => [l.id, Number((l.spec as { line?: number }).line)]));
  const woken = new Set<number>();
  const states = new Map<NotificationState, number[]>();
  for (const n of waiting) {
    const answer = weigh(n, covered, names, now, (id) => (id ? lineOf.get(id) : undefined), offNow);
    for (const id of answer.woken) woken.add(id);
    states.set(answer.state, [...(states.get(answer.state) ?? []), n.id]);
  }
  const slot = pushSlot(now);
  if (woken.size) await deps.enqueueRuns(adAccountId, [...woken], slot);
  for (const [state, ids] of states)
    await db
      .update(metaNotifications)
      .set({ state, handledAt: now, runSlot: state === 'woke' ? slot : null })
      .where(inArray(metaNotifications.id, ids));
  return [...woken];
}
