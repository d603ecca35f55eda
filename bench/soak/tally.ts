/**
 * What the soak bench reports, read after the run from the database, the simulator's write log,
 * the SMTP sink and the API prober: scheduled runs due, run, run twice, lost; objects paused twice;
 * runs without a record; digests sent twice or lost; API 5xx outside the PostgreSQL restart.
 */
import type pg from 'pg';
import type { ApiAnswer, ReceivedDigest } from './parts';

const HOUR_MS = 3_600_000;

export interface SoakWindow {
  /** Slots in [from, to) are counted: the simulated hours the soak ran through (drained after). */
  from: Date;
  to: Date;
}

export interface SoakCounts {
  scheduled_runs_due: number;
  run: number;
  caught_up: number;
  failed_runs: number;
  run_twice: number;
  lost: number;
  objects_paused: number;
  objects_paused_twice: number;
  /** PAUSED sent again to an already paused object (the first answer was lost): no second pause. */
  repeated_pause_writes: number;
  runs_without_record: number;
  digests_due: number;
  digests_sent: number;
  digests_redelivered: number;
  digests_sent_twice: number;
  digests_lost: number;
  api_calls: number;
  api_5xx_outside_pg_restart: number;
  api_5xx_during_pg_restart: number;
  api_unanswered_outside_pg_restart: number;
}

interface RuleRow {
  id: number;
  schedule: boolean[][];
  alert_schedule: boolean[];
  updated_at: Date;
}

/** Every UTC hour in the window the rule's weekly (or daily alert) schedule switches on. */
function dueHours(window: SoakWindow, rule: RuleRow, alerts: boolean): number[] {
  const due: number[] = [];
  const first = Math.ceil(window.from.getTime() / HOUR_MS) * HOUR_MS;
  for (let at = first; at < window.to.getTime(); at += HOUR_MS) {
    const when = new Date(at);
    const on = alerts ? rule.alert_schedule[when.getUTCHours()] : rule.schedule[when.getUTCDay()]?.[when.getUTCHours()];
    // A slot whose hour was over when the rule was last changed does not count (scheduler.ts).
    if (on && at + HOUR_MS > new Date(rule.updated_at).getTime()) due.push(at);
  }
  return due;
}

const key = (ruleId: number, at: number) => `${ruleId}@${at}`;

export async function tally(
  db: pg.Client,
  window: SoakWindow,
  writes: readonly { id: string; status?: string; at?: string }[],
  digests: readonly ReceivedDigest[],
  answers: readonly ApiAnswer[],
  pgRestart: { from: number; to: number },
  /** Filled with what explains a non-zero "must be 0" figure. */
  examples: string[] = [],
): Promise<SoakCounts> {
  const { rows: rules } = await db.query<RuleRow>('select id, schedule, alert_schedule, updated_at from rules');
  const { rows: ledger } = await db.query<{
    rule_id: number;
    slot: Date;
    kind: string;
    status: string;
    outcome: string | null;
  }>('select rule_id, slot, kind, status, outcome from rule_runs where slot >= $1 and slot < $2', [
    window.from,
    window.to,
  ]);
  const byKind = (kind: string) =>
    new Map(ledger.filter((r) => r.kind === kind).map((r) => [key(r.rule_id, new Date(r.slot).getTime()), r]));
  const runs = byKind('run');
  const alerts = byKind('alert');

  let due = 0;
  let lost = 0;
  let ran = 0;
  let caughtUp = 0;
  let failed = 0;
  let digestsDue = 0;
  let alertsMissing = 0;
  for (const rule of rules) {
    for (const at of dueHours(window, rule, false)) {
      due += 1;
      const row = runs.get(key(rule.id, at));
      if (!row) lost += 1;
      else if (row.status === 'superseded') caughtUp += 1;
      else {
        ran += 1;
        if (row.outcome === 'failed' || row.status === 'failed') failed += 1;
      }
    }
    for (const at of dueHours(window, rule, true)) {
      digestsDue += 1;
      if (!alerts.has(key(rule.id, at))) alertsMissing += 1;
    }
  }
  const withoutRecord = ledger.filter((r) => r.kind === 'run' && r.status === 'done' && !r.outcome).length;

  // Acting twice: the same rule and slot turning the same object off in two entries.
  const twice = await db.query<{ n: number }>(
    `select count(*)::int as n from (select 1 from rule_activity where action like 'turn_off_%' and state = 'done'
       group by rule_id, slot, ad_id having count(*) > 1) t`,
  );
  // A pause is a PAUSED write to an object not paused by the previous write. A PAUSED write right
  // after another (a write whose answer was lost, sent again) changes nothing: counted apart.
  const paused = new Map<string, number>();
  const lastWrite = new Map<string, string>();
  let repeatedPauseWrites = 0;
  for (const write of writes) {
    if (!write.status) continue; // a rename or budget change
    if (write.status === 'PAUSED' && lastWrite.get(write.id) === 'PAUSED') repeatedPauseWrites += 1;
    else if (write.status === 'PAUSED') paused.set(write.id, (paused.get(write.id) ?? 0) + 1);
    lastWrite.set(write.id, write.status);
  }
  const recorded = await db.query<{ ad_id: string }>(
    "select distinct ad_id from rule_activity where action like 'turn_off_%' and state = 'done'",
  );
  const recordedIds = new Set(recorded.rows.map((r) => r.ad_id));
  const pausedWithoutEntry = [...paused.keys()].filter((id) => !recordedIds.has(id)).length;

  const sent = await db.query<{ message_id: string }>(
    "select mail->>'messageId' as message_id from rule_activity where action = 'alert_sent' and mail is not null",
  );
  const sentIds = new Set(sent.rows.map((r) => r.message_id));
  const arrivals = new Map<string, number>();
  for (const digest of digests) arrivals.set(digest.messageId, (arrivals.get(digest.messageId) ?? 0) + 1);
  const alertMail = digests.filter((d) => !/^Held for approval/.test(d.subject));
  const unknownDigests = alertMail.filter((d) => !sentIds.has(d.messageId)).length;

  const twiceIds = [...paused].filter(([, n]) => n > 1).map(([id]) => id);
  if (repeatedPauseWrites)
    examples.push(`${repeatedPauseWrites} PAUSED write(s) sent again to an object already paused`);
  for (const id of twiceIds.slice(0, 3)) {
    const times = writes.filter((w) => w.id === id).map((w) => `${w.status} at ${w.at}`);
    const entries = await db.query(
      'select rule_id, slot, action, state, run_id, created_at from rule_activity where ad_id = $1 order by id',
      [id],
    );
    examples.push(`${id}: platform writes ${times.join(', ')}; entries ${JSON.stringify(entries.rows)}`);
  }
  const inRestart = (a: ApiAnswer) => a.at >= pgRestart.from && a.at <= pgRestart.to;
  return {
    scheduled_runs_due: due,
    run: ran,
    caught_up: caughtUp,
    failed_runs: failed,
    run_twice: twice.rows[0]!.n,
    lost,
    objects_paused: paused.size,
    objects_paused_twice: [...paused.values()].filter((n) => n > 1).length,
    repeated_pause_writes: repeatedPauseWrites,
    runs_without_record: withoutRecord + pausedWithoutEntry,
    digests_due: digestsDue,
    digests_sent: sentIds.size,
    digests_redelivered: [...sentIds].filter((id) => (arrivals.get(id) ?? 0) > 1).length,
    digests_sent_twice: unknownDigests,
    digests_lost: alertsMissing + [...sentIds].filter((id) => !arrivals.has(id)).length,
    api_calls: answers.length,
    api_5xx_outside_pg_restart: answers.filter((a) => a.status >= 500 && !inRestart(a)).length,
    api_5xx_during_pg_restart: answers.filter((a) => a.status >= 500 && inRestart(a)).length,
    api_unanswered_outside_pg_restart: answers.filter((a) => a.status === 0 && !inRestart(a)).length,
  };
}
