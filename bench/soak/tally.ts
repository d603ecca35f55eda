/**
 * What the soak bench reports, read after the run from the database, the simulator's write log,
 * the SMTP sink, the API prober and the Run now driver: scheduled runs due, run, run twice, lost;
 * objects paused or turned off twice; runs without a record; digests sent twice or lost; API 5xx
 * outside the PostgreSQL restart; how long the runs a kill cut off took to resume.
 */
import type pg from 'pg';
import type { ApiAnswer, ReceivedDigest, RunNowAnswer } from './parts';
import type { KillRecord } from './resume';

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
  run_now_pressed: number;
  run_now_pressed_together: number;
  run_now_answered: number;
  run_now_turned_off: number;
  run_now_cut_by_kill: number;
  manual_runs: number;
  manual_runs_settled_by_another_process: number;
  objects_paused: number;
  objects_paused_twice: number;
  /** Two done turn-off entries for one object, neither undone (across rules, slots and kinds). */
  objects_turned_off_twice: number;
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
  /** Calls to an API process between its kill and its restart (no answer is expected). */
  api_unanswered_while_killed: number;
  kills_measured: number;
  /** Kills after which some run still had not moved on when the watch ended. */
  kills_not_resumed: number;
  /** The longest, over the kills, from a kill until every run running at it had moved on. */
  seconds_to_resume: number;
}

export interface TallyInput {
  window: SoakWindow;
  writes: readonly { id: string; status?: string; at?: string }[];
  digests: readonly ReceivedDigest[];
  answers: readonly ApiAnswer[];
  runNow: readonly RunNowAnswer[];
  /** Per API process, the real times it was down (kill to restart). */
  down: readonly (readonly { from: number; to: number }[])[];
  pgRestart: { from: number; to: number };
  kills: readonly KillRecord[];
  /** Runs of any kind begun before the drain and still running after it. */
  stillRunning: readonly { id: number; rule_id: number; kind: string; slot: Date; attempts: number }[];
  /** Filled with what explains a non-zero "must be 0" figure. */
  examples: string[];
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

export async function tally(db: pg.Client, input: TallyInput): Promise<SoakCounts> {
  const { window, writes, digests, runNow, down, pgRestart, kills, stillRunning, examples } = input;
  const answers = [...input.answers, ...runNow];
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
  const withoutRecord = ledger.filter(
    (r) => r.kind === 'run' && r.status === 'done' && (!r.outcome || r.outcome === 'running'),
  ).length;
  // Run now and approval runs (any slot) closed without saying how they ended.
  const { rows: otherRuns } = await db.query<{
    id: number;
    rule_id: number;
    kind: string;
    status: string;
    outcome: string | null;
    note: string | null;
  }>("select id, rule_id, kind, status, outcome, note from rule_runs where kind in ('manual', 'approval')");
  const closedWithoutOutcome = otherRuns.filter(
    (r) => r.status !== 'running' && (!r.outcome || r.outcome === 'running'),
  );
  for (const r of closedWithoutOutcome.slice(0, 3))
    examples.push(
      `${r.kind} run ${r.id} of rule ${r.rule_id} closed (${r.status}) without an outcome: ${r.note ?? ''}`,
    );
  for (const r of stillRunning.slice(0, 5))
    examples.push(
      `${r.kind} run ${r.id} of rule ${r.rule_id} (slot ${new Date(r.slot).toISOString()}, attempt ${r.attempts}) still running after the drain`,
    );

  // Acting twice: the same rule and slot turning the same object off in two entries.
  const twice = await db.query<{ n: number }>(
    `select count(*)::int as n from (select 1 from rule_activity where action like 'turn_off_%' and state = 'done'
       group by rule_id, slot, ad_id having count(*) > 1) t`,
  );
  // Turned off twice: two done turn-off entries for one object, neither undone (Undo is the soak's only turn-on).
  const { rows: twiceOff } = await db.query<{ ad_id: string }>(
    `select ad_id from rule_activity where action like 'turn_off_%' and state = 'done' and undone_at is null
      group by ad_id having count(*) > 1`,
  );
  for (const { ad_id: id } of twiceOff.slice(0, 3)) {
    const entries = await db.query(
      `select a.id, a.rule_id, a.slot, a.action, a.state, a.run_id, a.snapshot_id, a.created_at, a.undone_at, a.reason
         from rule_activity a where a.ad_id = $1 order by a.id`,
      [id],
    );
    const runs = await db.query(
      `select r.id, r.rule_id, r.kind, r.slot, r.status, r.attempts, r.outcome, r.started_at, r.finished_at, r.note,
              r.error, s.fetched_at as snapshot_fetched_at
         from rule_runs r left join account_snapshots s on s.id = r.snapshot_id
        where r.id = any($1::int[])`,
      [entries.rows.map((e: { run_id: number | null }) => e.run_id).filter((x: number | null) => x !== null)],
    );
    const times = writes.filter((w) => w.id === id).map((w) => `${w.status} at ${w.at}`);
    examples.push(
      `${id} turned off twice: entries ${JSON.stringify(entries.rows)}; their runs ${JSON.stringify(runs.rows)}; platform writes ${times.join(', ')}`,
    );
  }

  // A pause is a PAUSED write to an object not paused by the previous write. A PAUSED write right
  // after another (a write whose answer was lost, sent again) changes nothing: counted apart.
  // Undo's ACTIVE writes turn an object back on: each allows one more pause.
  const paused = new Map<string, number>();
  const turnedOn = new Map<string, number>();
  const lastWrite = new Map<string, string>();
  let repeatedPauseWrites = 0;
  for (const write of writes) {
    if (!write.status) continue; // a rename or budget change
    if (write.status === 'PAUSED' && lastWrite.get(write.id) === 'PAUSED') repeatedPauseWrites += 1;
    else if (write.status === 'PAUSED') paused.set(write.id, (paused.get(write.id) ?? 0) + 1);
    else if (write.status === 'ACTIVE') turnedOn.set(write.id, (turnedOn.get(write.id) ?? 0) + 1);
    lastWrite.set(write.id, write.status);
  }
  const pausedTooOften = (id: string, n: number) => n > 1 + (turnedOn.get(id) ?? 0);
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

  const twiceIds = [...paused].filter(([id, n]) => pausedTooOften(id, n)).map(([id]) => id);
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
  const whileKilled = (a: ApiAnswer) =>
    (down[a.api] ?? []).some((d) => a.end >= d.from && a.at <= (d.to || Number.POSITIVE_INFINITY));
  const { rows: manual } = await db.query<{ n: number; settled: number }>(
    `select count(*)::int as n, count(*) filter (where note like '%settled by another process%')::int as settled
       from rule_runs where kind = 'manual'`,
  );
  const byStatus = (list: readonly { status: number }[]) =>
    JSON.stringify(
      Object.fromEntries(
        [...new Set(list.map((a) => a.status))].map((s) => [s, list.filter((a) => a.status === s).length]),
      ),
    );
  examples.push(
    `Run now answers by status ${byStatus(runNow)}, outcomes ${JSON.stringify(Object.fromEntries([...new Set(runNow.map((a) => a.outcome ?? '-'))].map((o) => [o, runNow.filter((a) => (a.outcome ?? '-') === o).length])))}; other API calls by status ${byStatus(input.answers)}`,
  );
  for (const detail of [
    ...new Set(runNow.filter((a) => a.status !== 200 && !whileKilled(a)).map((a) => `${a.status} ${a.detail ?? ''}`)),
  ].slice(0, 3))
    examples.push(`Run now answered ${detail}`);
  const measured = kills.filter((k) => k.seconds !== null);
  for (const k of kills.filter((k) => k.seconds === null))
    examples.push(`${k.what} at ${new Date(k.at).toISOString()}: ${k.rows} run(s) running then, not all moved on`);
  return {
    scheduled_runs_due: due,
    run: ran,
    caught_up: caughtUp,
    failed_runs: failed,
    run_twice: twice.rows[0]!.n,
    lost,
    run_now_pressed: runNow.length,
    run_now_pressed_together: runNow.filter((a) => a.together).length,
    run_now_answered: runNow.filter((a) => a.status === 200).length,
    run_now_turned_off: runNow.reduce((n, a) => n + a.turnedOff, 0),
    run_now_cut_by_kill: runNow.filter((a) => a.status === 0 && whileKilled(a)).length,
    manual_runs: manual[0]!.n,
    manual_runs_settled_by_another_process: manual[0]!.settled,
    objects_paused: paused.size,
    objects_paused_twice: twiceIds.length,
    objects_turned_off_twice: twiceOff.length,
    repeated_pause_writes: repeatedPauseWrites,
    runs_without_record: withoutRecord + pausedWithoutEntry + closedWithoutOutcome.length + stillRunning.length,
    digests_due: digestsDue,
    digests_sent: sentIds.size,
    digests_redelivered: [...sentIds].filter((id) => (arrivals.get(id) ?? 0) > 1).length,
    digests_sent_twice: unknownDigests,
    digests_lost: alertsMissing + [...sentIds].filter((id) => !arrivals.has(id)).length,
    api_calls: answers.length,
    api_5xx_outside_pg_restart: answers.filter((a) => a.status >= 500 && !inRestart(a)).length,
    api_5xx_during_pg_restart: answers.filter((a) => a.status >= 500 && inRestart(a)).length,
    api_unanswered_outside_pg_restart: answers.filter((a) => a.status === 0 && !inRestart(a) && !whileKilled(a)).length,
    api_unanswered_while_killed: answers.filter((a) => a.status === 0 && whileKilled(a)).length,
    kills_measured: measured.length,
    kills_not_resumed: kills.length - measured.length,
    seconds_to_resume: Math.max(0, ...measured.map((k) => k.seconds!)),
  };
}
