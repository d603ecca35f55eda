/**
 * Turn on: a rule whose action is turn_on switches on the paused ads or campaigns its conditions
 * hold for (`rule_turn_on_ad`, `rule_turn_on_campaign` entries). Exactly once, like turn-offs:
 * under a lock per object, a switch of the object in flight (pending) or made since the run read
 * its statuses — any rule's turn-off or turn-on, an undo, a revive — drops the plan; the others are
 * claimed pending, sent in batched status changes, then confirmed. A retry re-sends its own run's
 * pending ones (switching on is idempotent). What it turns on starts the rules' cool-down.
 */
import { and, eq, gte, inArray, or } from 'drizzle-orm';
import { ruleActivity } from '../../db/schema/index';
import { lockObjects, markDone, markFailed, pendingEntriesOf, type ActivityRow } from '../../activity/entries';
import type { SwitchPlan } from '../../judgement/conditions/judgeObjects';
import { groupBy, live, runReason, type InBatch } from './batch';
import type { EngineContext } from './context';

export const RULE_TURN_ON_ACTIONS = ['rule_turn_on_ad', 'rule_turn_on_campaign'] as const;
const SWITCH_ACTIONS = [
  'turn_off_ad',
  'turn_off_campaign',
  'turn_on_ad',
  'turn_on_campaign',
  'revive_ad',
  ...RULE_TURN_ON_ACTIONS,
];

async function claimTurnOns(ctx: EngineContext, item: InBatch, plans: SwitchPlan[]): Promise<ActivityRow[]> {
  const ids = plans.map((p) => p.objectId);
  const readAt = item.snapshot!.fetchedAt;
  const extra = runReason(item.run, item.rule.timezone, ctx.now());
  return ctx.db.transaction(async (tx) => {
    await lockObjects(tx, 'turn-off', ids);
    const moved = await tx
      .select({ adId: ruleActivity.adId })
      .from(ruleActivity)
      .where(
        and(
          inArray(ruleActivity.adId, ids),
          inArray(ruleActivity.action, SWITCH_ACTIONS),
          or(eq(ruleActivity.state, 'pending'), gte(ruleActivity.createdAt, readAt)),
        ),
      );
    const skip = new Set(moved.map((m) => m.adId));
    const values = plans
      .filter((p) => !skip.has(p.objectId))
      .map((p) => ({
        ruleId: item.rule.id,
        folderId: item.rule.folder.id,
        action: p.level === 'campaign' ? 'rule_turn_on_campaign' : 'rule_turn_on_ad',
        adId: p.objectId,
        objectType: p.level,
        reason: { ...p.reason, ...extra },
        state: 'pending',
        slot: item.run.slot,
        snapshotId: item.snapshot!.id,
        actorId: item.run.actorId ?? null,
        runId: item.runId,
        createdAt: ctx.now(),
      }));
    return values.length ? tx.insert(ruleActivity).values(values).returning() : [];
  });
}

/** Claims, sends and confirms the acting runs' turn-ons; each run keeps what it turned on. */
export async function actTurnOns(ctx: EngineContext, items: InBatch[]): Promise<void> {
  const acting = live(items).filter((item) => item.evaluation?.turnOns.length || item.rule.action?.kind === 'turn_on');
  if (!acting.length) return;
  await Promise.all(
    [...groupBy(acting, (item) => item.rule.account.adAccountId).entries()].map(async ([accountId, group]) => {
      try {
        // Turn-ons an earlier attempt of this slot claimed and did not confirm.
        const left = await pendingEntriesOf(
          ctx.db,
          group.map((i) => i.rule.id),
          group[0]!.run.slot,
          RULE_TURN_ON_ACTIONS,
        );
        const claimed: ActivityRow[] = [...left];
        for (const item of group) {
          const plans = item.evaluation!.turnOns.filter((p) => !left.some((e) => e.adId === p.objectId));
          if (plans.length) claimed.push(...(await claimTurnOns(ctx, item, plans)));
        }
        if (!claimed.length) return;
        const results = await ctx.client.setStatuses(
          claimed.map((e) => ({ id: e.adId!, status: 'ACTIVE' as const })),
          { accountId },
        );
        const ok = new Set(results.filter((r) => r.ok).map((r) => r.id));
        for (const entry of claimed.filter((e) => !ok.has(e.adId!))) {
          const error = results.find((r) => r.id === entry.adId)?.error ?? 'no answer from the ad platform';
          await markFailed(ctx.db, entry, error, ctx.now());
        }
        const done = claimed.filter((e) => ok.has(e.adId!));
        await markDone(
          ctx.db,
          done.map((e) => e.id),
          ctx.now(),
        );
        for (const item of group) {
          item.turnedOn = done.filter((e) => e.ruleId === item.rule.id);
          item.turnOnsFailed = claimed.filter((e) => e.ruleId === item.rule.id && !ok.has(e.adId!));
        }
      } catch (error) {
        for (const item of group) if (item.error === undefined && !item.finish) item.error = error;
      }
    }),
  );
}
