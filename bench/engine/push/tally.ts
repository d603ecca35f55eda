/**
 * What one run of the push bench did, read back from its database and its simulator: every
 * decision (a turn-off made, by which run and why it ran), Graph's insights calls per idle account
 * and hour, and — under push — how late each decision came after it became due:
 *
 * - woken by a notification: from the start of the clock step in which the simulator saw the
 *   crossing (the crossing is somewhere in that step: a whole step is counted against it);
 * - by a recheck: from the step before the run (a recheck fires at the first step past its due time);
 * - by a scheduled hour: from the rule's run before it (it became due somewhere after that one).
 *
 * The wall time the product took in the decision's step is added: the simulated clock stood still meanwhile.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../server/db/client';
import { resultRows } from '../../../server/http/pagination';
import { HOUR_MS, PUSH_BENCH_START, type DrivenMode, type PushBenchOptions } from './drive';

export interface Decision {
  key: string;
  adId: string;
  slot: number;
  trigger: string;
  ruleId: number;
}

export interface ModeTally {
  decisions: Decision[];
  insightsPerIdleAccountHour: number;
  insightsPerAccountHour: number;
  readsTotal: number;
  /** Push only: seconds from when each decision became due to the decision. */
  lateness: number[];
  processingMs: number[];
  notifications: Record<string, number>;
  runsByTrigger: Record<string, number>;
  skippedHours: number;
}

const round = (n: number, digits = 3) => Number(n.toFixed(digits));

export function percentile(values: number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function tallyMode(db: Database, run: DrivenMode, options: PushBenchOptions): Promise<ModeTally> {
  const decisions = resultRows<{
    ad_id: string;
    action: string;
    slot: string | Date;
    trigger: string;
    rule_id: number;
  }>(
    await db.execute(sql`
      select a.ad_id, a.action, r.slot, coalesce(r.trigger, 'schedule') as trigger, r.rule_id
        from rule_activity a join rule_runs r on r.id = a.run_id
       where a.state = 'done' and (a.action like 'turn_off_%' or a.action = 'revive_ad')`),
  ).map((row) => ({
    key: `${row.action}:${row.ad_id}`,
    adId: row.ad_id,
    slot: new Date(row.slot).getTime(),
    trigger: row.trigger,
    ruleId: Number(row.rule_id),
  }));
  const runs = resultRows<{ rule_id: number; slot: string | Date; trigger: string | null; outcome: string | null }>(
    await db.execute(sql`select rule_id, slot, trigger, outcome from rule_runs where kind = 'run' order by slot`),
  );
  const runsByTrigger: Record<string, number> = {};
  let skippedHours = 0;
  for (const r of runs) {
    if (r.outcome === 'skipped') skippedHours += 1;
    else runsByTrigger[r.trigger ?? 'schedule'] = (runsByTrigger[r.trigger ?? 'schedule'] ?? 0) + 1;
  }

  const idle = new Set(run.ads.filter((ad) => ad.kind === 'idle_good').map((ad) => ad.accountId));
  const calls = [...run.sim.accountCalls.entries()];
  const insightsOf = (accounts: [string, { insights: number }][]) => accounts.reduce((t, [, c]) => t + c.insights, 0);
  const idleCalls = insightsOf(calls.filter(([account]) => idle.has(account)));

  const tally: ModeTally = {
    decisions,
    insightsPerIdleAccountHour: round(idleCalls / Math.max(1, idle.size * options.hours)),
    insightsPerAccountHour: round(insightsOf(calls) / Math.max(1, run.sim.world.accounts.length * options.hours)),
    readsTotal: calls.reduce((t, [, c]) => t + c.reads, 0),
    lateness: [],
    processingMs: [...run.stepWallMs.values()],
    notifications: {},
    runsByTrigger,
    skippedHours,
  };
  if (run.mode !== 'push') return tally;

  const notifications = resultRows<{ object_id: string | null; event_at: string | Date; state: string }>(
    await db.execute(sql`select object_id, event_at, state from meta_notifications order by event_at`),
  );
  for (const n of notifications) tally.notifications[n.state] = (tally.notifications[n.state] ?? 0) + 1;
  const step = options.stepSeconds * 1000;
  const ruleSlots = new Map<number, number[]>();
  for (const r of runs)
    if (r.outcome !== 'skipped')
      ruleSlots.set(Number(r.rule_id), [...(ruleSlots.get(Number(r.rule_id)) ?? []), new Date(r.slot).getTime()]);
  const previousRun = (d: Decision) =>
    (ruleSlots.get(d.ruleId) ?? []).filter((slot) => slot < d.slot).at(-1) ?? d.slot - HOUR_MS;
  for (const d of decisions) {
    // What the first look finds was due before the bench began, the same both ways.
    if (d.slot === PUSH_BENCH_START) continue;
    let due: number;
    if (d.trigger === 'push') {
      const crossed = notifications
        .filter((n) => n.object_id === d.adId && new Date(n.event_at).getTime() <= d.slot)
        .at(-1);
      due = crossed ? new Date(crossed.event_at).getTime() - step : previousRun(d);
    } else if (d.trigger === 'recheck') due = d.slot - step;
    else due = previousRun(d);
    tally.lateness.push((d.slot - due + (run.stepWallMs.get(d.slot) ?? 0)) / 1000);
  }
  return tally;
}
