/**
 * Claiming budget changes, exactly once and within the ceilings, across rules, workers and
 * processes (docs/engine.md, "Budget changes"). Under a lock per object (taken in one order, so
 * two claimers never deadlock), each planned change sees every budget change of its object of the
 * last 7 days — any rule's, pending or done — and:
 * - is dropped when one is pending (in flight) or was made since the run read the budget: the
 *   budget it planned from is no longer the budget;
 * - is left alone when another rule moved the object the other way within the rule's cool-down
 *   (one rule raising what another lowers);
 * - is cut by the folder's ceilings (ceilings.ts) — several rules' raises add up there.
 * What is left is written pending (rule_activity, budget_before/budget_after in cents a day) and
 * sent after (send.ts); a retry re-sends exactly the pending ones.
 */
import { and, gte, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleActivity } from '../db/schema/index';
import { createActivityStore, lockObjects, type ActivityRow, type RunScope } from '../activity/entries';
import type { BudgetLimits } from '../../shared/budgetLimits';
import type { PlannedBudget } from '../judgement/conditions/judgeObjects';
import { applyCeilings } from '../judgement/budgets/ceilings';
import type { BudgetChangeRecord, BudgetDecision, BudgetObject } from '../judgement/budgets/types';
import { money } from '../judgement/format';

export const BUDGET_ACTIONS = ['raise_budget', 'lower_budget', 'restore_budget'] as const;
const HOUR = 3_600_000;
const HISTORY_DAYS = 7;

/** A planned change as it came out of the claim: made (claimed), cut to nothing, or left to another. */
export interface ClaimedBudget {
  plan: PlannedBudget;
  decision: BudgetDecision;
  entry: ActivityRow | null;
  /** Why nothing was claimed, when nothing was (cut to nothing, changed since read, cooling down). */
  skipped: string | null;
}

export interface BudgetClaimRun {
  scope: RunScope;
  plans: PlannedBudget[];
  limits: BudgetLimits;
  /** Hours a rule leaves an object alone after another rule moved it the other way. */
  cooldownHours: number;
  budgets: BudgetObject[];
  currency: string;
}

/** Each object's budget changes of the last 7 days (any rule), oldest first. */
export async function budgetHistoryOf(
  db: Pick<Database, 'select'>,
  objectIds: string[],
  now: Date,
): Promise<Map<string, (BudgetChangeRecord & { ruleId: number | null; action: string })[]>> {
  const byObject = new Map<string, (BudgetChangeRecord & { ruleId: number | null; action: string })[]>();
  if (!objectIds.length) return byObject;
  const rows = await db
    .select({
      objectId: ruleActivity.adId,
      at: ruleActivity.createdAt,
      before: ruleActivity.budgetBefore,
      after: ruleActivity.budgetAfter,
      state: ruleActivity.state,
      ruleId: ruleActivity.ruleId,
      action: ruleActivity.action,
    })
    .from(ruleActivity)
    .where(
      and(
        inArray(ruleActivity.action, [...BUDGET_ACTIONS]),
        inArray(ruleActivity.adId, objectIds),
        inArray(ruleActivity.state, ['pending', 'done']),
        gte(ruleActivity.createdAt, new Date(now.getTime() - HISTORY_DAYS * 24 * HOUR)),
      ),
    )
    .orderBy(ruleActivity.createdAt, ruleActivity.id);
  for (const row of rows) {
    if (row.before === null || row.after === null || !row.objectId) continue;
    const record = {
      objectId: row.objectId,
      at: row.at,
      before: row.before,
      after: row.after,
      state: row.state as 'pending' | 'done',
      ruleId: row.ruleId,
      action: row.action,
    };
    const own = byObject.get(row.objectId);
    if (own) own.push(record);
    else byObject.set(row.objectId, [record]);
  }
  return byObject;
}

const perDay = (cents: number, currency: string) => `${money(cents / 100, currency)} a day`;

/**
 * What one planned change comes to against its object's recent changes: dropped (changed since
 * read, in flight), left alone (another rule moved it the other way within the cool-down), or cut by
 * the ceilings; `skipped` says why nothing is to be made. The claim and the previews (Preview, held
 * and notify-only runs) decide the same way.
 */
export function decideBudget(
  run: Pick<BudgetClaimRun, 'scope' | 'limits' | 'cooldownHours' | 'budgets'>,
  plan: PlannedBudget,
  own: (BudgetChangeRecord & { ruleId: number | null })[],
  now: Date,
  options: { ceilings: boolean },
): { decision: BudgetDecision; skipped: string | null } {
  const unchanged: BudgetDecision = {
    objectId: plan.objectId,
    level: plan.level,
    before: plan.before,
    asked: plan.asked,
    allowed: plan.before,
    cutBy: null,
    cutText: null,
  };
  if (own.some((h) => h.state === 'pending' || h.at >= run.scope.readAt))
    return { decision: unchanged, skipped: 'its budget changed since this run read it' };
  const raising = plan.asked > plan.before;
  const opposite = [...own]
    .reverse()
    .find(
      (h) =>
        h.ruleId !== run.scope.ruleId &&
        h.after > h.before !== raising &&
        now.getTime() - h.at.getTime() < run.cooldownHours * HOUR,
    );
  if (opposite) {
    const hours = Math.max(1, Math.round((now.getTime() - opposite.at.getTime()) / HOUR));
    return {
      decision: unchanged,
      skipped: `cooling down: another rule ${opposite.after > opposite.before ? 'raised' : 'lowered'} it ${hours} h ago`,
    };
  }
  const object = run.budgets.find((b) => b.id === plan.objectId);
  const decision =
    options.ceilings && object
      ? applyCeilings({ object, before: plan.before, asked: plan.asked, history: own, limits: run.limits, now })
      : { ...unchanged, allowed: plan.asked };
  if (decision.allowed === plan.before) return { decision, skipped: decision.cutText ?? 'nothing to change' };
  return { decision, skipped: null };
}

/** Claims the runs' budget changes in one transaction; answers each plan's fate. */
export async function claimBudgetChanges(
  db: Database,
  runs: BudgetClaimRun[],
  options: { ceilings: boolean },
): Promise<ClaimedBudget[]> {
  const plans = runs.flatMap((run) => run.plans.map((plan) => ({ run, plan })));
  if (!plans.length) return [];
  const ids = [...new Set(plans.map((p) => p.plan.objectId))];
  const activity = createActivityStore(db);
  return db.transaction(async (tx) => {
    await lockObjects(tx, 'budget', ids);
    const now = runs[0]!.scope.at;
    const history = await budgetHistoryOf(tx, ids, now);
    const results: ClaimedBudget[] = [];
    for (const { run, plan } of plans) {
      const own = history.get(plan.objectId) ?? [];
      const fate = decideBudget(run, plan, own, now, options);
      if (fate.skipped !== null) {
        results.push({ plan, decision: fate.decision, entry: null, skipped: fate.skipped });
        continue;
      }
      const { decision } = fate;
      const reason: Record<string, string> = {
        Budget: `${perDay(plan.before, run.currency)} → ${perDay(decision.allowed, run.currency)}`,
        ...(decision.cutText ? { Ceiling: decision.cutText } : {}),
        ...(plan.boundText ? { Bound: plan.boundText } : {}),
        ...plan.reason,
        [plan.level === 'adset' ? 'Ad set' : 'Campaign']: plan.name,
      };
      const entry = await activity.claimBudgetChange(tx, {
        scope: { ...run.scope, at: now },
        action: plan.action,
        objectId: plan.objectId,
        objectType: plan.level,
        reason,
        before: plan.before,
        after: decision.allowed,
        reverses: plan.reverses ?? null,
      });
      if (entry)
        own.push({
          objectId: plan.objectId,
          at: now,
          before: plan.before,
          after: decision.allowed,
          state: 'pending',
          ruleId: run.scope.ruleId,
          action: plan.action,
        });
      results.push({
        plan,
        decision,
        entry: entry ?? null,
        skipped: entry ? null : 'another rule changed it on this reading',
      });
    }
    return results;
  });
}

/** Budget changes of these rules' slot claimed by an earlier attempt that did not live to confirm them. */
export const pendingBudgetChangesOf = (db: Database, ruleIds: number[], slot: Date): Promise<ActivityRow[]> =>
  createActivityStore(db).pendingEntriesOf(ruleIds, slot, BUDGET_ACTIONS);
