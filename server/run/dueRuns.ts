/**
 * What is due: which (rule, slot) runs and alerts are due now and not yet taken up (scan.ts queues
 * them). Missed slots of today fold into one run (the latest), which says in the log and in its
 * entries that it caught up: evaluating lifetime metrics three times in a row would only repeat
 * the same answer. A slot whose hour was already over when the rule was last changed does not
 * count: activating or editing a rule starts its schedule afresh rather than replaying the hours
 * before it.
 */
import type { Database } from '../db/client';
import { createLedgerStore, takenKey } from './ledger';
import { scheduledRules, type ScheduledRule } from './rulesSource';
import { dueAlertSlots, dueRunSlots, isLate, type Slot } from '../judgement/scheduleSlots';

export interface DueRun {
  queue: 'run' | 'alert';
  ruleId: number;
  /** The rule's ad account: runs of one account and slot go in one job. */
  adAccountId: string;
  slot: Date;
  missed: Date[];
  late: boolean;
  /** Kept under push for what a recheck or a notification asked, not for the hour alone (server/push/floor.ts). */
  trigger?: 'push' | 'recheck';
}

const HOUR_MS = 60 * 60 * 1000;
/** Today in any zone started less than 38 hours ago (UTC+14 at 23:59 → a day and 14 hours). */
const LOOKBACK_MS = 38 * HOUR_MS;

function pick(
  rule: ScheduledRule,
  queue: DueRun['queue'],
  slots: Slot[],
  taken: Set<string>,
  now: Date,
): DueRun | null {
  const kind = queue === 'run' ? 'run' : 'alert';
  const counted = slots.filter((s) => s.instant.getTime() + HOUR_MS > new Date(rule.updatedAt).getTime());
  const open = counted.filter((s) => !taken.has(takenKey(rule.id, kind, s.instant)));
  const latest = open.at(-1);
  if (!latest) return null;
  return {
    queue,
    ruleId: rule.id,
    adAccountId: rule.adAccountId,
    slot: latest.instant,
    missed: open.slice(0, -1).map((s) => s.instant),
    late: isLate(latest, now),
  };
}

/** Every run and alert due at `now`, oldest rule first. */
export async function dueWork(db: Database, now: Date): Promise<DueRun[]> {
  const rules = await scheduledRules(db);
  if (!rules.length) return [];
  const taken = await createLedgerStore(db).takenSlots(new Date(now.getTime() - LOOKBACK_MS));
  const due: DueRun[] = [];
  for (const rule of rules.sort((a, b) => a.id - b.id)) {
    const run = pick(rule, 'run', dueRunSlots(rule.schedule ?? [], rule.timezone, now), taken, now);
    if (run) due.push(run);
    const alert = pick(rule, 'alert', dueAlertSlots(rule.alertSchedule ?? [], rule.timezone, now), taken, now);
    if (alert) due.push(alert);
  }
  return due;
}
