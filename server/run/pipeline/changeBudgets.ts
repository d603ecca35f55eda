/**
 * Budgets: the phase of a run for rules whose action changes daily budgets (docs/engine.md,
 * "Budget changes"). After evaluation, `planBudgets` adds the roll-backs a raising rule owes (a raise
 * of its, within the roll-back window, whose object's cost has since risen past the rule's line:
 * back to the budget before it, once) and previews every change against its object's recent
 * changes and the folder's ceilings — what Preview, held and notify-only runs show, and what the
 * blast radius weighs in money. An acting run then claims them (../budgets/claim.ts, the same
 * decision taken again under the object's lock) and sends them (../budgets/send.ts).
 */
import { createActivityStore, type ActivityRow } from '../../activity/entries';
import {
  budgetHistoryOf,
  claimBudgetChanges,
  decideBudget,
  type BudgetClaimRun,
  type ClaimedBudget,
} from '../budgetClaims';
import { sendBudgetChanges } from '../sendBudgetChanges';
import { moneyOf } from '../../judgement/budgets/moneyAtRisk';
import { costLine } from '../../judgement/conditions/evaluateConditions';
import type { PlannedBudget } from '../../judgement/conditions/judgeObjects';
import { DEFAULT_BUDGET_LIMITS } from '../../../shared/budgetLimits';
import { rollbackHoursOf } from '../../../shared/ruleActions';
import { metricSpec } from '../../../shared/ruleConditions';
import type { BudgetChangeDto, MoneyAtRiskDto } from '../../../shared/budgetChanges';
import { money } from '../../judgement/format';
import { failAll, groupBy, live, type InBatch } from './batch';
import type { AccountSnapshot, Evaluation } from '../../judgement/evaluate';
import type { ConditionInputs } from '../../judgement/conditions/inputs';
import type { LoadedEngineRule } from '../rulesSource';
import type { EngineContext } from './context';

const HOUR = 3_600_000;

export const hasBudgetWork = (item: InBatch) => Boolean(item.budgetFates?.length);

function claimRunOf(ctx: EngineContext, item: InBatch): BudgetClaimRun {
  return {
    scope: {
      ruleId: item.rule.id,
      folderId: item.rule.folder.id,
      slot: item.run.slot,
      snapshotId: item.snapshot!.id,
      actorId: item.run.actorId ?? null,
      runId: item.runId,
      at: ctx.now(),
      readAt: item.snapshot!.fetchedAt,
    },
    plans: [...(item.evaluation?.budgetPlans ?? []), ...(item.rollbacks ?? [])],
    limits: item.rule.folder.budgetLimits ?? DEFAULT_BUDGET_LIMITS,
    cooldownHours: item.rule.judging?.cooldown_hours ?? 0,
    budgets: item.inputs?.budgets ?? [],
    currency: item.rule.account.currency,
  };
}

/**
 * The roll-backs a raising rule owes: its raises of the window, not rolled back yet, whose object's
 * cost on the rule's line (judged as the rule judges, lag allowance included) is now past it, and
 * whose budget is still above what it was before the raise.
 */
async function rollbacksOf(ctx: EngineContext, item: InBatch): Promise<PlannedBudget[]> {
  const { rule } = item;
  const hours = rule.action ? rollbackHoursOf(rule.action) : null;
  const line = costLine(rule.conditions);
  const costNow = item.evaluation?.costNow;
  if (!hours || !line || !costNow?.size || ctx.budgetSafety === 'naive') return [];
  const since = new Date(ctx.now().getTime() - hours * HOUR);
  const raises = await createActivityStore(ctx.db).raisesToRollBack(rule.id, since);
  const budgets = new Map((item.inputs?.budgets ?? []).map((b) => [b.id, b]));
  const currency = rule.account.currency;
  const plans: PlannedBudget[] = [];
  for (const raise of raises.sort((a, b) => b.id - a.id)) {
    const objectId = raise.adId!;
    if (plans.some((p) => p.objectId === objectId)) continue;
    const now = costNow.get(objectId);
    const object = budgets.get(objectId);
    if (!now || !object?.dailyBudget) continue;
    const past = now.cost !== null ? now.cost > line.value : now.spend !== null && now.spend > line.value;
    if (!past) continue;
    if (object.dailyBudget <= raise.budgetBefore!) continue;
    plans.push({
      action: 'restore_budget',
      reverses: raise.id,
      objectId,
      level: object.level,
      name: object.name,
      campaignId: object.campaignId,
      before: object.dailyBudget,
      asked: raise.budgetBefore!,
      boundText: null,
      conditions: [],
      reason: {
        'Rolled back': `cost rose past the line within ${hours} h of the raise`,
        [metricSpec(line.metric)?.label ?? line.metric]:
          now.cost !== null
            ? `${money(now.cost, currency)} > ${money(line.value, currency)}`
            : `none for ${money(now.spend!, currency)} spent, over ${money(line.value, currency)}`,
        Raised: raise.createdAt.toISOString(),
      },
    });
  }
  return plans;
}

/** The daily budget each folder's rules added in the last 24 hours (cents), for the money limit. */
const addedLastDay = (ctx: EngineContext, folderIds: number[]): Promise<Map<number, number>> =>
  createActivityStore(ctx.db).budgetAddedSince(folderIds, new Date(ctx.now().getTime() - 24 * HOUR));

/** Plans the roll-backs and previews every budget change of the batch (nothing claimed yet). */
export async function planBudgets(ctx: EngineContext, work: InBatch[]): Promise<void> {
  const items = live(work).filter((item) => item.rule.action && item.inputs?.budgets);
  if (!items.length) return;
  try {
    for (const item of items) item.rollbacks = await rollbacksOf(ctx, item);
    const runs = items.map((item) => ({ item, run: claimRunOf(ctx, item) }));
    const ids = [...new Set(runs.flatMap(({ run }) => run.plans.map((p) => p.objectId)))];
    const [history, added] = await Promise.all([
      budgetHistoryOf(ctx.db, ids, ctx.now()),
      addedLastDay(ctx, [...new Set(items.map((i) => i.rule.folder.id))]),
    ]);
    const options = { ceilings: ctx.budgetSafety !== 'naive' };
    for (const { item, run } of runs) {
      item.budgetFates = run.plans.map((plan) => ({
        plan,
        entry: null,
        ...decideBudget(run, plan, history.get(plan.objectId) ?? [], ctx.now(), options),
      }));
      item.addedLastDay = added.get(item.rule.folder.id) ?? 0;
    }
  } catch (error) {
    failAll(items, error);
  }
}

/** Claims and sends the acting runs' budget changes, per account; each run keeps its claimed fates. */
export async function actBudgets(ctx: EngineContext, items: InBatch[]): Promise<void> {
  const acting = live(items).filter(hasBudgetWork);
  await Promise.all(
    [...groupBy(acting, (item) => item.rule.account.adAccountId).entries()].map(async ([accountId, group]) => {
      try {
        const claimed = await claimBudgetChanges(
          ctx.db,
          group.map((item) => claimRunOf(ctx, item)),
          { ceilings: ctx.budgetSafety !== 'naive' },
        );
        const left = group.flatMap((item) => item.leftOverBudgets ?? []);
        const entries = [...left, ...claimed.flatMap((c) => (c.entry ? [c.entry] : []))];
        const { done, failed } = await sendBudgetChanges(ctx, entries, accountId);
        const doneIds = new Set(done.map((e) => e.id));
        for (const item of group) {
          const own = claimed.filter((c) => c.entry?.ruleId === item.rule.id || (!c.entry && ownsPlan(item, c)));
          item.budgetFates = own;
          item.budgetDone = done.filter((e) => e.ruleId === item.rule.id);
          item.budgetFailed = failed.filter((e) => e.ruleId === item.rule.id);
          for (const fate of own)
            if (fate.entry && !doneIds.has(fate.entry.id)) fate.skipped = 'the platform refused it';
        }
      } catch (error) {
        failAll(group, error);
      }
    }),
  );
}

const ownsPlan = (item: InBatch, fate: ClaimedBudget) =>
  [...(item.evaluation?.budgetPlans ?? []), ...(item.rollbacks ?? [])].includes(fate.plan);

/** The budget changes of a run as the API answers them, and their money. */
export function budgetRecord(item: InBatch): { budgets: BudgetChangeDto[]; money: MoneyAtRiskDto | null } {
  const fates = item.budgetFates ?? [];
  if (!fates.length) return { budgets: [], money: null };
  const currency = item.rule.account.currency;
  const names = item.evaluation?.campaignNames ?? {};
  const dollars = (cents: number) => Math.round(cents) / 100;
  const budgets = fates.map(({ plan, decision, skipped }) => {
    const made = skipped === null;
    const allowed = made ? decision.allowed : plan.before;
    return {
      action: plan.action,
      object_id: plan.objectId,
      object_type: plan.level,
      name: plan.name,
      campaign_id: plan.campaignId,
      campaign_name: names[plan.campaignId] ?? '',
      before: dollars(plan.before),
      asked: dollars(plan.asked),
      allowed: dollars(allowed),
      daily_delta: dollars(allowed - plan.before),
      cut: decision.cutText ?? skipped,
      conditions: plan.conditions,
      reason: plan.reason,
    };
  });
  const risk = moneyOf(
    fates.filter((f) => f.skipped === null).map((f) => f.decision),
    currency,
  );
  const changed = fates.filter((f) => f.skipped === null).length;
  return {
    budgets,
    money: { added: dollars(risk.added), removed: dollars(risk.removed), objects: changed, text: risk.text },
  };
}

/** Daily budget (cents) a run would add: its raises' previews. */
export const addedBy = (item: InBatch) =>
  (item.budgetFates ?? [])
    .filter((f) => f.skipped === null && f.decision.allowed > f.plan.before)
    .reduce((sum, f) => sum + f.decision.allowed - f.plan.before, 0);

export type { ActivityRow };

/**
 * Preview's budget changes: the rule's plans and roll-backs decided as a run now would (its recent
 * changes, the ceilings), nothing claimed. Undefined for a rule without a budget action.
 */
export async function previewBudgets(
  ctx: EngineContext,
  rule: LoadedEngineRule,
  snapshot: { fetchedAt: Date; data: AccountSnapshot },
  evaluation: Evaluation,
  inputs: ConditionInputs | undefined,
): Promise<{ budgets: BudgetChangeDto[]; money: MoneyAtRiskDto | null; item: InBatch } | undefined> {
  if (!inputs?.budgets || !rule.action) return undefined;
  const item: InBatch = {
    run: { ruleId: rule.id, slot: snapshot.fetchedAt, kind: 'manual' },
    runId: null,
    rule,
    snapshot: { id: 0, ...snapshot },
    evaluation,
    inputs,
    leftOver: [],
    claimed: [],
    done: [],
    failed: [],
    label: `preview of rule ${rule.id}`,
  };
  await planBudgets(ctx, [item]);
  if (item.error !== undefined) throw item.error;
  const record = budgetRecord(item);
  return {
    budgets: record.budgets,
    money: record.money ?? { added: 0, removed: 0, objects: 0, text: 'no budget change' },
    // The planned run as the blast-radius limit weighs it (Preview says whether Run now would be held).
    item,
  };
}

/** Preview's objects with their conditions as judged: those the rule would act on first. */
export function conditionsShown(evaluation: Evaluation) {
  const judged = evaluation.objects.filter((o) => o.conditions);
  const acting = (o: (typeof judged)[number]) => (o.verdicts.conditions === 'acted' ? 0 : 1);
  return [...judged]
    .sort((a, b) => acting(a) - acting(b))
    .slice(0, 200)
    .map((o) => ({
      object_id: o.id,
      object_type: o.type,
      name: o.name,
      result: o.verdicts.conditions === 'acted' ? true : o.verdicts.conditions === 'no_data' ? null : false,
      values: o.conditions ?? [],
    }));
}
