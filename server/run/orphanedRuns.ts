/**
 * Runs whose process died. A Run now or an approval is never retried, so when the process running
 * it stops (a crash, a kill -9, a lost machine) another process settles it: every few seconds each
 * process takes over the running attempts whose heartbeat stopped (runHeartbeat.ts), reads back
 * from the ad platform the turn-offs they had claimed, confirms those that landed and turns the
 * others into error entries, and closes the run with what happened. A scheduled run is left to its
 * job's retry first (pg-boss fails a job whose worker stops beating and runs it again, resending
 * the claims); one still silent after SCHEDULED_SILENCE_MS had no retry left and is settled the same way.
 */
import { errorMessage } from '../errorMessage';
import { createActivityStore } from '../activity/entries';
import { pendingBudgetChangesOf } from './budgetClaims';
import { createLedgerStore, type SilentRun } from './ledger';
import type { EngineContext } from './pipeline/context';
import { recordRunFailure } from './pipeline/record';
import { loadEngineRule } from './rulesSource';
import { keptAlive, RUN_SILENCE_MS } from './runHeartbeat';

/** A scheduled run silent this long is past its job's retries. */
export const SCHEDULED_SILENCE_MS = 5 * 60_000;
/** How often each process looks for runs to settle. */
export const ORPHAN_SWEEP_MS = 10_000;
/** Runs taken over per sweep; the next sweep takes the rest. */
const PER_SWEEP = 20;

const STOPPED = 'the process running it stopped before it finished';

/**
 * Takes over the silent runs (one conditional update: of two processes sweeping at once, each
 * run goes to one) and settles each. Answers how many were settled.
 */
export async function settleOrphanedRuns(
  ctx: EngineContext,
  silence = { manualMs: ctx.runLeaseMs ?? RUN_SILENCE_MS, scheduledMs: SCHEDULED_SILENCE_MS },
): Promise<number> {
  const taken = await createLedgerStore(ctx.db).takeOverSilentRuns(silence, PER_SWEEP);
  let settled = 0;
  for (const run of taken) {
    try {
      await keptAlive(ctx.heartbeat, [run.id], () => settle(ctx, run));
      settled += 1;
    } catch (error) {
      // The platform or the database did not answer: the run goes silent again and a later sweep retries.
      ctx.log.warn(`run ${run.id} of rule ${run.ruleId}: could not settle it yet: ${errorMessage(error)}`);
    }
  }
  return settled;
}

/** Reads back the run's claimed turn-offs, records each as it is, and closes the run. */
async function settle(ctx: EngineContext, run: SilentRun): Promise<void> {
  // The claims of the run's (rule, slot), as a retry of it would re-send them.
  const activity = createActivityStore(ctx.db);
  const claims = await activity.pendingTurnOffs(run.ruleId, run.slot);
  const budgetClaims = await pendingBudgetChangesOf(ctx.db, [run.ruleId], run.slot);
  const slotRun = { ruleId: run.ruleId, slot: run.slot, kind: run.kind as 'run' | 'manual' };
  if (!claims.length && !budgetClaims.length) {
    // Nothing was claimed, so nothing was sent: the run failed, and says so in Activity.
    await recordRunFailure(ctx, slotRun, new Error(`${STOPPED}; nothing was turned off`));
    ctx.log.warn(`run ${run.id} of rule ${run.ruleId}: ${STOPPED}; closed with nothing turned off`);
    return;
  }

  const rule = await loadEngineRule(ctx.db, run.ruleId);
  if (!rule) throw new Error('its rule is gone');
  const { ads, campaigns } = await ctx.client.listCampaignsWithAds(rule.account.adAccountId);
  const statusOf = new Map([...ads, ...campaigns].map((o) => [o.id, o.status]));
  // A budget change landed when the object's daily budget is now the one it set.
  const budgetOf =
    budgetClaims.length && ctx.client.listBudgets
      ? new Map((await ctx.client.listBudgets(rule.account.adAccountId)).map((b) => [b.id, b.dailyBudget]))
      : new Map<string, number | null>();
  const budgetLanded = budgetClaims.filter((c) => budgetOf.get(c.adId!) === c.budgetAfter);
  const landed = [...claims.filter((c) => statusOf.get(c.adId!) === 'PAUSED'), ...budgetLanded];
  const notLanded = [
    ...claims.filter((c) => statusOf.get(c.adId!) !== 'PAUSED'),
    ...budgetClaims.filter((c) => !budgetLanded.includes(c)),
  ];
  const at = ctx.now();
  await activity.confirmTurnOffs(landed, at, "read back from the ad platform after the run's process stopped");
  for (const claim of notLanded)
    await activity.markFailed(
      claim,
      `${STOPPED} and the ad platform shows ${budgetClaims.includes(claim) ? 'the budget unchanged' : 'it still on'}`,
      at,
    );

  const outcome = notLanded.length ? (landed.length ? 'partly_failed' : 'failed') : 'done';
  const note = `${STOPPED}; settled by another process: ${landed.length} ${budgetClaims.length ? 'made' : 'turned off'}${
    notLanded.length ? `, ${notLanded.length} not` : ''
  }`;
  await createLedgerStore(ctx.db).finishRun(run.ruleId, run.slot, run.kind as 'run' | 'manual' | 'approval', {
    status: 'done',
    note,
    record: { outcome, counts: { acted: landed.length, failed: notLanded.length } },
  });
  ctx.log.warn(`run ${run.id} of rule ${run.ruleId}: ${note}`);
}

/** Sweeps every ORPHAN_SWEEP_MS until stopped; a failed sweep is told and the next one tries again. */
export function startOrphanSweep(ctx: EngineContext, everyMs = ORPHAN_SWEEP_MS): { stop(): Promise<void> } {
  let sweeping: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (sweeping) return; // the last sweep is still settling: this one would find the same runs
    sweeping = settleOrphanedRuns(ctx)
      .catch((error: unknown) => ctx.log.error(`orphaned runs: ${errorMessage(error)}`))
      .finally(() => {
        sweeping = null;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await sweeping;
    },
  };
}
