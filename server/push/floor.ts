/**
 * The schedule as a floor under push: a rule's scheduled hour still runs unless Meta would have
 * told of every change that could make it act — then reading the account again would only repeat
 * the last run's answer, and the hour is recorded as skipped. An hour runs when any of these holds:
 *
 * - no signed delivery came from Meta in the last day, for any account (a callback that stopped
 *   working must not leave every rule waiting for the daily floor);
 * - the rule is not covered (desired.ts: an outcome task, a spend line under $10, revive);
 * - its account's subscriptions are not in step with its rules (never made, failed, or made before
 *   the rule last changed);
 * - it never ran, its last run did not end done or notify-only (held, failed, unhealthy), or that
 *   was FLOOR_HOURS or more ago (the daily floor: nothing is trusted forever);
 * - its last run left something to look at again (recheck.ts: hourly, or due by now);
 * - a notification for its account came while its hour was off (`deferred`), after that run.
 */
import { and, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { metaNotifications, ruleRechecks, rules } from '../db/schema/index';
import type { DueRun } from '../run/dueRuns';
import { createLedgerStore } from '../run/ledger';
import { loadEngineRules } from '../run/rulesSource';
import { resultRows } from '../http/pagination';
import { subscriptionsOf } from './desired';
import { accountsInStep } from './reconcile';

/** A rule Meta pushes for is still read at least this often. */
export const FLOOR_HOURS = 24;
/** With no delivery from Meta for this long (database clock), no hour is skipped. */
const SILENCE_HOURS = 24;
const HOUR_MS = 3_600_000;
const SETTLED_OUTCOMES = new Set(['done', 'notify_only']);

const RECHECK_DUE = 'a recheck is due';
const NOTICE_WHILE_OFF = 'a notification came while the rule was off';

export const SKIPPED_NOTE =
  'Skipped: Meta pushes what could make this rule act, and nothing is waiting to be looked at again';

interface LastRun {
  slot: Date;
  outcome: string | null;
}

async function lastRuns(db: Database, ruleIds: number[]): Promise<Map<number, LastRun>> {
  const rows = resultRows<{ rule_id: number; slot: string | Date; outcome: string | null }>(
    await db.execute(sql`
      select distinct on (rule_id) rule_id, slot, outcome from rule_runs
       where rule_id in (${sql.join(
         ruleIds.map((id) => sql`${id}`),
         sql`, `,
       )}) and kind in ('run', 'manual', 'approval') and status <> 'running' and coalesce(outcome, '') <> 'skipped'
       order by rule_id, slot desc`),
  );
  return new Map(rows.map((r) => [Number(r.rule_id), { slot: new Date(r.slot), outcome: r.outcome }]));
}

/** Why the scheduled run must happen; null when it can be skipped. */
export async function floorReasons(db: Database, due: DueRun[]): Promise<Map<DueRun, string | null>> {
  const runs = due.filter((d) => d.queue === 'run');
  const reasons = new Map<DueRun, string | null>();
  if (!runs.length) return reasons;
  const ruleIds = [...new Set(runs.map((d) => d.ruleId))];
  const accounts = [...new Set(runs.map((d) => d.adAccountId))];
  const [loaded, changed, inStep, last, rechecks, deferred, heard] = await Promise.all([
    loadEngineRules(db, ruleIds),
    db.select({ id: rules.id, updatedAt: rules.updatedAt }).from(rules).where(inArray(rules.id, ruleIds)),
    accountsInStep(db, accounts),
    lastRuns(db, ruleIds),
    db.select().from(ruleRechecks).where(inArray(ruleRechecks.ruleId, ruleIds)),
    db
      .select({ account: metaNotifications.adAccountId, at: sql<string>`max(${metaNotifications.eventAt})` })
      .from(metaNotifications)
      .where(and(inArray(metaNotifications.adAccountId, accounts), eq(metaNotifications.state, 'deferred')))
      .groupBy(metaNotifications.adAccountId),
    db
      .select({ id: metaNotifications.id })
      .from(metaNotifications)
      .where(sql`${metaNotifications.receivedAt} > now() - interval '${sql.raw(String(SILENCE_HOURS))} hours'`)
      .limit(1),
  ]);
  const changedAt = new Map(changed.map((r) => [r.id, r.updatedAt]));
  const recheckOf = new Map(rechecks.map((r) => [r.ruleId, r]));
  const deferredAt = new Map(deferred.map((r) => [r.account, new Date(r.at)]));
  for (const run of runs) {
    const rule = loaded.get(run.ruleId);
    const since = inStep.get(run.adAccountId);
    const previous = last.get(run.ruleId);
    const recheck = recheckOf.get(run.ruleId);
    const lateNotice = deferredAt.get(run.adAccountId);
    let reason: string | null = null;
    if (!heard.length) reason = 'no delivery from Meta lately';
    else if (!rule || !subscriptionsOf(rule, rule.account.currency)) reason = 'not covered by push';
    else if (!since || since < (changedAt.get(run.ruleId) ?? new Date(0))) reason = 'subscriptions not in step';
    else if (!previous) reason = 'never ran';
    else if (!SETTLED_OUTCOMES.has(previous.outcome ?? '')) reason = `last run ${previous.outcome ?? 'unfinished'}`;
    else if (run.slot.getTime() - previous.slot.getTime() >= FLOOR_HOURS * HOUR_MS) reason = 'daily floor';
    else if (recheck?.hourlyBecause) reason = recheck.hourlyBecause;
    else if (recheck?.dueAt && recheck.dueAt <= run.slot) reason = RECHECK_DUE;
    else if (lateNotice && lateNotice > previous.slot) reason = NOTICE_WHILE_OFF;
    reasons.set(run, reason);
  }
  return reasons;
}

/** Reasons that are a push's or a recheck's, not the hour's: the run says so, and takes the recheck. */
const TRIGGER_OF_REASON: Record<string, 'push' | 'recheck'> = {
  [RECHECK_DUE]: 'recheck',
  [NOTICE_WHILE_OFF]: 'push',
};

/**
 * Splits the due work into what runs and the scheduled runs skipped, and records the skipped hours
 * in the ledger. A run kept for a due recheck takes it (so the recheck does not run it a second time).
 */
export async function applyFloor(db: Database, due: DueRun[]): Promise<{ kept: DueRun[]; skipped: DueRun[] }> {
  const reasons = await floorReasons(db, due);
  const skipped = due.filter((d) => reasons.get(d) === null);
  const rechecked = due.filter((d) => reasons.get(d) === RECHECK_DUE);
  for (const d of rechecked)
    await db
      .update(ruleRechecks)
      .set({ dueAt: null })
      .where(and(eq(ruleRechecks.ruleId, d.ruleId), lte(ruleRechecks.dueAt, d.slot)));
  if (skipped.length)
    await createLedgerStore(db).recordSkippedRuns(
      skipped.flatMap((d) => [...d.missed, d.slot].map((slot) => ({ ruleId: d.ruleId, slot }))),
      SKIPPED_NOTE,
    );
  const kept = due
    .filter((d) => reasons.get(d) !== null)
    .map((d) => {
      const trigger = TRIGGER_OF_REASON[reasons.get(d)!];
      return trigger ? { ...d, trigger } : d;
    });
  return { kept, skipped };
}

/** Notifications for accounts whose worker never came (the queueing failed): queued again by the scan. */
export async function waitingAccounts(db: Database, olderThan: Date): Promise<string[]> {
  const rows = await db
    .selectDistinct({ account: metaNotifications.adAccountId })
    .from(metaNotifications)
    .where(and(eq(metaNotifications.state, 'new'), sql`${metaNotifications.receivedAt} < ${olderThan.toISOString()}`));
  return rows.map((r) => r.account);
}

/** Notifications are only needed while the rules they woke read them: two days. */
export async function pruneNotifications(db: Database, before: Date): Promise<void> {
  await db
    .delete(metaNotifications)
    .where(and(ne(metaNotifications.state, 'new'), sql`${metaNotifications.receivedAt} < ${before.toISOString()}`));
}
