/**
 * Under push, a rule runs when Meta tells of a change. What no notification tells is time passing:
 * an ad that crossed a line while too early to judge (its maturity) or while cooling down can be
 * acted on later without any number moving. So each run keeps, per rule, when it is to look again:
 * the moment the first such ad matures or cools down (`due_at`), known from its hours of delivery
 * and the rule's settings — or, when what it waits for cannot be timed (impressions still short, a
 * lag allowance that shrinks as spend ages), that its scheduled hours must run (`hourly_because`).
 * Only ads that would be acted on if they were judged count (the rule evaluated without maturity
 * and cool-down); the rest wait for a crossing like any other.
 */
import { and, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleRechecks } from '../db/schema/index';
import type { InBatch } from '../run/pipeline/batch';
import { evaluate, viewOf, type AccountSnapshot, type Evaluation } from '../judgement/evaluate';
import type { ObjectHistory } from '../judgement/lateData';
import { CARRIED_OVER_JUDGING } from '../../shared/judging';
import type { EngineRule } from '../judgement/ruleShape';

export interface Recheck {
  dueAt: Date | null;
  hourlyBecause: string | null;
}

const HOUR_MS = 3_600_000;
const WAITING = new Set(['too_early', 'cooling_down', 'lag_allowance']);

/** When the rule is to look again without a notification; null: only a notification (or the daily floor) brings it back. */
export function recheckOf(
  rule: EngineRule,
  snapshot: AccountSnapshot,
  evaluation: Evaluation,
  options: { history?: ReadonlyMap<string, ObjectHistory>; now: Date },
): Recheck | null {
  const waiting = evaluation.objects.filter((o) => Object.values(o.verdicts).some((v) => WAITING.has(v!)));
  if (!waiting.length) return null;
  if (waiting.some((o) => Object.values(o.verdicts).includes('lag_allowance')))
    return { dueAt: null, hourlyBecause: 'a lag allowance spares an ad over the line' };
  const judging = rule.judging ?? CARRIED_OVER_JUDGING;
  const exempt = new Set(
    evaluation.objects.filter((o) => Object.values(o.verdicts).includes('exempt')).map((o) => o.id),
  );
  const judgedNow = evaluate(
    { ...rule, judging: { ...judging, maturity_hours: 0, maturity_impressions: 0, cooldown_hours: 0 } },
    snapshot,
    {
      exempt,
      history: options.history,
      now: options.now,
    },
  );
  const wouldAct = new Set(judgedNow.actions.map((a) => a.objectId));
  const view = viewOf(rule, snapshot, { history: options.history, now: options.now });
  const dues: number[] = [];
  for (const object of waiting.filter((o) => wouldAct.has(o.id))) {
    const verdicts = Object.values(object.verdicts);
    const impressions = object.metrics?.impressions ?? null;
    const facts = view.factsOf(object.id, impressions);
    if (verdicts.includes('cooling_down') && facts.lastTurnedOnAt) {
      dues.push(facts.lastTurnedOnAt.getTime() + judging.cooldown_hours * HOUR_MS);
      continue;
    }
    if ((impressions ?? 0) < judging.maturity_impressions)
      return { dueAt: null, hourlyBecause: 'an ad over the line has too few impressions to be judged' };
    if (facts.hoursDelivered === null)
      return { dueAt: null, hourlyBecause: 'an ad over the line has delivered for hours not known' };
    dues.push(options.now.getTime() + Math.max(0, judging.maturity_hours - facts.hoursDelivered) * HOUR_MS);
  }
  return dues.length ? { dueAt: new Date(Math.min(...dues)), hourlyBecause: null } : null;
}

/** Keeps the rechecks of a batch's evaluated runs (a rule with none loses its row). A failure is only told. */
export async function keepRechecks(
  db: Database,
  items: InBatch[],
  now: Date,
  warn: (message: string) => void,
): Promise<void> {
  const judged = items.filter((item) => item.evaluation && item.snapshot && item.error === undefined);
  if (!judged.length) return;
  try {
    const rows = judged.flatMap((item) => {
      const recheck = recheckOf(item.rule, item.snapshot!.data, item.evaluation!, { history: item.history, now });
      return recheck ? [{ ruleId: item.rule.id, adAccountId: item.rule.account.adAccountId, ...recheck }] : [];
    });
    const kept = rows.map((r) => r.ruleId);
    const cleared = judged.map((item) => item.rule.id).filter((id) => !kept.includes(id));
    if (cleared.length) await db.delete(ruleRechecks).where(inArray(ruleRechecks.ruleId, cleared));
    if (rows.length)
      await db
        .insert(ruleRechecks)
        .values(rows)
        .onConflictDoUpdate({
          target: ruleRechecks.ruleId,
          set: {
            adAccountId: sql`excluded.ad_account_id`,
            dueAt: sql`excluded.due_at`,
            hourlyBecause: sql`excluded.hourly_because`,
            updatedAt: sql`now()`,
          },
        });
  } catch (error) {
    warn(`push: when to look again could not be kept: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Takes the rechecks due at `now` of the rules `runnable` lets through (a rule whose hour is off
 * keeps its row: the floor then keeps its next scheduled run). Claimed by one statement, so of two
 * workers looking at once only one runs each.
 */
export async function takeDueRechecks(
  db: Database,
  now: Date,
  runnable: (ruleIds: number[]) => Promise<Set<number>>,
): Promise<{ ruleId: number; adAccountId: string }[]> {
  const due = await db.select({ ruleId: ruleRechecks.ruleId }).from(ruleRechecks).where(lte(ruleRechecks.dueAt, now));
  if (!due.length) return [];
  const allowed = await runnable(due.map((r) => r.ruleId));
  const ids = due.map((r) => r.ruleId).filter((id) => allowed.has(id));
  if (!ids.length) return [];
  return db
    .update(ruleRechecks)
    .set({ dueAt: null })
    .where(and(inArray(ruleRechecks.ruleId, ids), lte(ruleRechecks.dueAt, now)))
    .returning({ ruleId: ruleRechecks.ruleId, adAccountId: ruleRechecks.adAccountId });
}
