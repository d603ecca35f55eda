/**
 * Held runs (blast radius exceeded, see blastRadius.ts; the alert is sent by pipeline/hold.ts): the two
 * ways out — Approve carries out exactly the planned turn-offs that are still valid (statuses read
 * again), once, however many people or processes press it at the same moment, and never for a rule
 * that is now notify-only or was switched off since (a Run now of a rule that is off stays approvable:
 * the person ran it on purpose); Dismiss drops them.
 *
 * Exactly once: the decision is taken by one conditional UPDATE (the first caller wins), and the
 * carrying out is itself a ledger run (kind `approval`) with pending claims like any run, so a crash
 * half-way is resumed by pressing Approve again without acting twice.
 */
import { ApiError, notFound } from '../http/errors';
import { createActivityStore, type RunScope } from '../activity/entries';
import type { ObjectReport, PlannedAction, Verdict } from '../judgement/evaluate';
import { createLedgerStore, type RunRow } from './ledger';
import { apply } from './pipeline/act';
import { DEFAULT_RUN_LEASE_MS, type EngineContext, type RunResult } from './pipeline/context';
import { exemptionsOf } from './pipeline/load';
import { compactObjects, countVerdicts, type StoredDetails } from '../judgement/runRecord';
import type { LoadedEngineRule } from './rulesSource';
import { isOn } from '../judgement/deliveryStatus';
import { keptAlive } from './runHeartbeat';
import { claimBudgetChanges, pendingBudgetChangesOf } from './budgetClaims';
import { sendBudgetChanges } from './sendBudgetChanges';
import { budgetRecord } from './pipeline/changeBudgets';
import type { InBatch } from './pipeline/batch';
import { DEFAULT_BUDGET_LIMITS } from '../../shared/budgetLimits';

export interface Decider {
  id: number;
  name: string;
}

async function heldRun(ctx: EngineContext, runId: number) {
  const row = await createLedgerStore(ctx.db).runById(runId);
  if (row?.outcome !== 'held') throw notFound();
  return row;
}

/** Takes the decision; the first caller wins. Answers the held run's row. */
const decide = (ctx: EngineContext, runId: number, decision: 'approved' | 'dismissed', by: Decider) =>
  createLedgerStore(ctx.db).decideHeldRun(runId, decision, by.id);

export async function dismissHeldRun(ctx: EngineContext, runId: number, by: Decider) {
  const row = await decide(ctx, runId, 'dismissed', by);
  if (row) return row;
  const current = await heldRun(ctx, runId);
  throw new ApiError(409, { detail: `This held run was already ${current.decision}.` });
}

export async function approveHeldRun(
  ctx: EngineContext,
  runId: number,
  by: Decider,
  rule: (id: number) => Promise<LoadedEngineRule | null>,
): Promise<RunResult> {
  const current = await heldRun(ctx, runId);
  // Switching a rule off or to notify-only dismisses its held runs; one that slipped past is refused.
  // A Run now of a rule that is switched off is a person trying it deliberately: it stays approvable.
  const ruleNow = await rule(current.ruleId);
  const switchedOff = ruleNow && !ruleNow.isActive && current.kind !== 'manual';
  if (ruleNow && !ruleNow.isDeleted && (switchedOff || ruleNow.notifyOnly))
    throw new ApiError(409, {
      detail: `The rule is ${ruleNow.notifyOnly ? 'set to notify only' : 'switched off'}: its held run cannot be approved.`,
    });
  const decided = await decide(ctx, runId, 'approved', by);
  const row = decided ?? (await heldRun(ctx, runId));
  if (row.decision === 'dismissed') throw new ApiError(409, { detail: 'This held run was already dismissed.' });

  const { claim, id: approvalId } = await createLedgerStore(ctx.db).claimRun(
    row.ruleId,
    row.slot,
    'approval',
    ctx.runLeaseMs ?? DEFAULT_RUN_LEASE_MS,
    'approval',
  );
  if (claim === 'finished') throw new ApiError(409, { detail: 'This held run was already approved.' });
  if (claim === 'busy') throw new ApiError(409, { detail: 'This held run is being carried out.' });
  return keptAlive(ctx.heartbeat, [approvalId], () => carryOut(ctx, row, approvalId, by, rule));
}

/** Turns off what the approved run planned and is still delivering, as the ledger run `approvalId`. */
async function carryOut(
  ctx: EngineContext,
  row: RunRow,
  approvalId: number | null,
  by: Decider,
  rule: (id: number) => Promise<LoadedEngineRule | null>,
): Promise<RunResult> {
  const ledger = createLedgerStore(ctx.db);
  const loaded = await rule(row.ruleId);
  const planned = ((row.details as StoredDetails | null)?.planned ?? []) as PlannedAction[];
  if (!loaded || loaded.isDeleted) {
    await ledger.finishRun(row.ruleId, row.slot, 'approval', {
      status: 'done',
      note: 'the rule was deleted',
      record: { trigger: 'approval', outcome: 'skipped' },
    });
    return { status: 'rule_unavailable', turnedOff: [], failed: [], note: 'the rule was deleted', runId: approvalId };
  }

  // Read the statuses again: only what is still delivering and not exempt now is turned off.
  const account = loaded.account.adAccountId;
  const readAt = ctx.now();
  const { ads, campaigns } = await ctx.client.listCampaignsWithAds(account);
  const on = new Set([...ads.filter(isOn), ...campaigns.filter(isOn)].map((o) => o.id));
  const exempt = await exemptionsOf(ctx.db, row.ruleId);
  const verdictOf = (a: PlannedAction): Verdict =>
    exempt.has(a.objectId) ? 'exempt' : on.has(a.objectId) ? 'acted' : 'already_off';
  const valid = planned.filter((a) => verdictOf(a) === 'acted');
  const approvedBy = { Approved: `by ${by.name}` };
  const scope = {
    ruleId: row.ruleId,
    folderId: loaded.folder.id,
    slot: row.slot,
    snapshotId: row.snapshotId,
    actorId: by.id,
    runId: approvalId,
    at: ctx.now(),
    readAt,
  };
  const activity = createActivityStore(ctx.db);
  const leftOver = await activity.pendingTurnOffs(row.ruleId, row.slot);
  const claimed = await activity.claimTurnOffs(
    scope,
    valid.map((a) => ({ ...a, reason: { ...a.reason, ...approvedBy } })),
  );
  const { done, failed } = await apply(ctx, [...leftOver, ...claimed], account);
  const budgets = await carryOutBudgets(ctx, row, loaded, scope, by);

  const objects: ObjectReport[] = planned.map((a) => ({
    type: a.action === 'turn_off_campaign' ? 'campaign' : 'ad',
    id: a.objectId,
    name: a.reason.Ad ?? a.reason.Campaign ?? a.objectId,
    campaignId: a.campaignId,
    metrics: null,
    verdicts: { [a.task]: verdictOf(a) },
  }));
  const stored = compactObjects(objects, 'act');
  const allFailed = failed.length + budgets.failed;
  const counts = { ...countVerdicts(stored), failed: allFailed };
  const note = `approved by ${by.name}: ${done.length} of ${planned.length} planned turn-offs made${
    budgets.planned ? `, ${budgets.done} of ${budgets.planned} budget changes` : ''
  }${allFailed ? `, ${allFailed} failed` : ''}`;
  await ledger.finishRun(row.ruleId, row.slot, 'approval', {
    status: 'done',
    note,
    record: {
      trigger: 'approval',
      outcome: allFailed ? (done.length + budgets.done ? 'partly_failed' : 'failed') : 'done',
      counts,
      details: {
        v: 1,
        objects: stored,
        ...(budgets.record.budgets.length ? { budgets: budgets.record.budgets, money: budgets.record.money } : {}),
      } satisfies StoredDetails,
      snapshotId: row.snapshotId,
    },
  });
  ctx.log.info(`rule ${row.ruleId} held run ${row.id}: ${note}`);
  return { status: 'done', turnedOff: done, failed, note, runId: approvalId };
}

/**
 * The held run's budget changes, carried out: budgets read again, a change still planned from the
 * budget its object has now is claimed under today's ceilings (claim.ts) and sent; one whose budget
 * moved since is left, and says so.
 */
async function carryOutBudgets(ctx: EngineContext, row: RunRow, rule: LoadedEngineRule, scope: RunScope, by: Decider) {
  const plans = (row.details as StoredDetails | null)?.plannedBudgets ?? [];
  const none = {
    planned: 0,
    done: 0,
    failed: 0,
    record: { budgets: [], money: null } as ReturnType<typeof budgetRecord>,
  };
  if (!plans.length || !ctx.client.listBudgets) return none;
  const budgets = await ctx.client.listBudgets(rule.account.adAccountId);
  const current = new Map(budgets.map((b) => [b.id, b.dailyBudget]));
  const still = plans.filter((p) => current.get(p.objectId) === p.before);
  const claimed = await claimBudgetChanges(
    ctx.db,
    [
      {
        scope,
        plans: still.map((p) => ({ ...p, reason: { ...p.reason, Approved: `by ${by.name}` } })),
        limits: rule.folder.budgetLimits ?? DEFAULT_BUDGET_LIMITS,
        cooldownHours: rule.judging?.cooldown_hours ?? 0,
        budgets,
        currency: rule.account.currency,
      },
    ],
    { ceilings: ctx.budgetSafety !== 'naive' },
  );
  const left = await pendingBudgetChangesOf(ctx.db, [rule.id], row.slot);
  const sent = await sendBudgetChanges(ctx, left, rule.account.adAccountId);
  const moved = plans
    .filter((p) => !still.includes(p))
    .map((plan) => ({
      plan,
      decision: {
        objectId: plan.objectId,
        level: plan.level,
        before: plan.before,
        asked: plan.asked,
        allowed: plan.before,
        cutBy: null,
        cutText: null,
      },
      entry: null,
      skipped: 'its budget changed since the run was held',
    }));
  // The held run's campaign names, as its record read them.
  const campaignNames = (row.details as StoredDetails | null)?.campaigns ?? {};
  const item = { rule, evaluation: { campaignNames }, budgetFates: [...claimed, ...moved] } as unknown as InBatch;
  return { planned: plans.length, done: sent.done.length, failed: sent.failed.length, record: budgetRecord(item) };
}
