/**
 * Load: the taken runs' rules (a deleted or paused rule's scheduled run is skipped), then what
 * their evaluation needs — each account's snapshot (one fetch per account and slot, shared; with the
 * attribution windows its rules count leads in), the rules' exempt objects and the turn-offs an
 * earlier attempt claimed but did not confirm.
 */
import type { Database } from '../../db/client';
import { createActivityStore } from '../../activity/entries';
import { loadEngineRules } from '../rulesSource';
import { failAll, groupBy, type InBatch } from './batch';
import type { TakenRun } from './claim';
import type { EngineContext } from './context';
import { readsHourly } from './judgingInputs';
import { hourlyHoursOf } from '../hourlyRead';
import { readsOutcomes, withQuality } from '../../judgement/outcomeTasks';
import { readConditionInputs } from '../../judgement/conditions/inputs';
import { readsOutcomes as conditionsReadOutcomes } from '../../judgement/conditions/evaluateConditions';
import { pendingBudgetChangesOf } from '../budgetClaims';
import type { StoredSnapshot } from '../accountSnapshots';
import { errorMessage } from '../../errorMessage';
import { isRemovedWindow } from '../../../shared/judging';
import type { AttributionWindowKey } from '../../adplatform/types';

/** The windows the rules of a batch count leads in (Meta's default needs none). */
export function windowsOf(items: InBatch[]): AttributionWindowKey[] {
  const windows = items.map((i) => i.rule.judging?.attribution_window).filter((w) => w && !isRemovedWindow(w));
  return [...new Set(windows as AttributionWindowKey[])].sort();
}

/** The objects a rule leaves alone (an undo adds one). */
export async function exemptionsOf(db: Database, ruleId: number): Promise<Set<string>> {
  return (await createActivityStore(db).exemptObjectsOf([ruleId])).get(ruleId) ?? new Set();
}

/** The taken runs whose rule can run (work) and those whose rule is gone or paused (skipped). */
export async function loadRules(db: Database, taken: TakenRun[]): Promise<{ work: InBatch[]; skipped: TakenRun[] }> {
  const rules = await loadEngineRules(
    db,
    taken.map((t) => t.run.ruleId),
  );
  const work: InBatch[] = [];
  const skipped: TakenRun[] = [];
  for (const { run, runId } of taken) {
    const rule = rules.get(run.ruleId);
    if (!rule || rule.isDeleted || (run.kind === 'run' && !rule.isActive)) skipped.push({ run, runId });
    else
      work.push({
        run,
        runId,
        rule,
        leftOver: [],
        claimed: [],
        done: [],
        failed: [],
        label: `rule ${rule.id} "${rule.name}" ${run.kind} at ${run.slot.toISOString()}`,
      });
  }
  return { work, skipped };
}

/**
 * The snapshot with what its ads' leads became as known when it was read (the context's quality
 * source). Without a source, or when it fails, the ads carry none: the outcome tasks answer "no
 * outcome data" and never act, while the rules' other tasks run as ever.
 */
export async function withOutcomes(ctx: EngineContext, adAccountId: string, stored: StoredSnapshot) {
  if (!ctx.quality) return stored;
  try {
    const byAd = await ctx.quality.qualityAt(adAccountId, stored.fetchedAt);
    return { ...stored, data: withQuality(stored.data, byAd) };
  } catch (error) {
    ctx.log.warn(`outcomes of ${adAccountId} could not be read: ${errorMessage(error)}`);
    return stored;
  }
}

/**
 * Sets each run's snapshot and left-over claims; answers the rules' exemptions. A snapshot that
 * cannot be had fails the runs of its account only.
 */
export async function loadInputs(ctx: EngineContext, work: InBatch[]): Promise<Map<number, Set<string>>> {
  const { slot } = work[0]!.run;
  const ruleIds = work.map((item) => item.rule.id);
  const snapshots = Promise.all(
    [...groupBy(work, (item) => item.rule.account.adAccountId).values()].map(async (items) => {
      const { account } = items[0]!.rule;
      try {
        // The hourly delivery only when a rule reads it (a maturity in hours, a lag allowance), over
        // the hours the rules of the batch look back.
        const reading = items.filter((i) => readsHourly(i.rule.judging));
        const hourly = reading.length
          ? { zone: account.timezone, hours: Math.max(...reading.map((i) => hourlyHoursOf(i.rule.judging))) }
          : undefined;
        const stored = await ctx.snapshots.get(account.adAccountId, account.currency, slot, hourly, windowsOf(items));
        const snapshot = items.some((i) => readsOutcomes(i.rule) || conditionsReadOutcomes(i.rule.conditions))
          ? await withOutcomes(ctx, account.adAccountId, stored)
          : stored;
        // What conditions and budget actions read: each (level, window) once, the budgets, now.
        const inputs = await readConditionInputs(
          ctx.client,
          account.adAccountId,
          account.timezone,
          ctx.now(),
          items.map((i) => i.rule),
        );
        for (const item of items) {
          item.snapshot = snapshot;
          if (inputs) item.inputs = inputs;
        }
      } catch (error) {
        failAll(items, error);
      }
    }),
  );
  const activity = createActivityStore(ctx.db);
  const [exempt, leftOver, leftOverBudgets] = await Promise.all([
    activity.exemptObjectsOf(ruleIds),
    activity.pendingTurnOffsOf(ruleIds, slot),
    pendingBudgetChangesOf(ctx.db, ruleIds, slot),
  ]);
  await snapshots;
  const leftOverOf = groupBy(leftOver, (entry) => entry.ruleId!);
  const leftOverBudgetsOf = groupBy(leftOverBudgets, (entry) => entry.ruleId!);
  for (const item of work) {
    item.leftOver = leftOverOf.get(item.rule.id) ?? [];
    item.leftOverBudgets = leftOverBudgetsOf.get(item.rule.id) ?? [];
  }
  return exempt;
}
