/**
 * Turn on: a rule whose action is turn_on switches on the paused ads or campaigns its conditions
 * hold for (`rule_turn_on_ad`, `rule_turn_on_campaign` entries). Exactly once, like turn-offs:
 * under a lock per object, a switch of the object in flight (pending) or made since the run read
 * its statuses — any rule's turn-off or turn-on, an undo, a revive — drops the plan; the others are
 * claimed pending, sent in batched status changes, then confirmed. A retry re-sends its own run's
 * pending ones (switching on is idempotent). What it turns on starts the rules' cool-down.
 */
import { createActivityStore, RULE_TURN_ON_ACTIONS, type ActivityRow } from '../../activity/entries';
import type { SwitchPlan } from '../../judgement/conditions/judgeObjects';
import { groupBy, live, runReason, type InBatch } from './batch';
import type { EngineContext } from './context';

function claimTurnOns(ctx: EngineContext, item: InBatch, plans: SwitchPlan[]): Promise<ActivityRow[]> {
  const extra = runReason(item.run, item.rule.timezone, ctx.now());
  return createActivityStore(ctx.db).claimTurnOns(
    {
      ruleId: item.rule.id,
      folderId: item.rule.folder.id,
      slot: item.run.slot,
      snapshotId: item.snapshot!.id,
      actorId: item.run.actorId ?? null,
      runId: item.runId,
      at: ctx.now(),
      readAt: item.snapshot!.fetchedAt,
    },
    plans.map((p) => ({ objectId: p.objectId, level: p.level, reason: { ...p.reason, ...extra } })),
  );
}

/** Claims, sends and confirms the acting runs' turn-ons; each run keeps what it turned on. */
export async function actTurnOns(ctx: EngineContext, items: InBatch[]): Promise<void> {
  const acting = live(items).filter((item) => item.evaluation?.turnOns.length || item.rule.action?.kind === 'turn_on');
  if (!acting.length) return;
  const activity = createActivityStore(ctx.db);
  await Promise.all(
    [...groupBy(acting, (item) => item.rule.account.adAccountId).entries()].map(async ([accountId, group]) => {
      try {
        // Turn-ons an earlier attempt of this slot claimed and did not confirm.
        const left = await activity.pendingEntriesOf(
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
          await activity.markFailed(entry, error, ctx.now());
        }
        const done = claimed.filter((e) => ok.has(e.adId!));
        await activity.markDone(
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
