/**
 * Revive: the runs whose rule revives turn back on the ads it turned off whose numbers no longer
 * cross its tasks (../revive.ts decides). Exactly once, like turn-offs: each revive is claimed as a
 * pending `revive_ad` entry naming the turn-off it reverses (a unique index allows one per
 * turn-off, whichever run, worker or retry gets there first), then sent, then confirmed; a retry
 * re-sends its own run's pending revives. At most the blast radius's action limit per run.
 */
import { createActivityStore, type ActivityRow } from '../../activity/entries';
import { DEFAULT_LIMITS } from '../../judgement/blastRadius';
import { lastSwitches } from '../onOffHistory';
import { reviveDecisions, type PausedByRule } from '../../judgement/revive';
import { live, runReason, type InBatch } from './batch';
import type { EngineContext } from './context';

const reviving = (item: InBatch) => item.rule.judging?.revive_hours != null && !item.rule.notifyOnly;

export async function reviveBatch(ctx: EngineContext, work: InBatch[]): Promise<void> {
  for (const item of live(work).filter(reviving)) {
    try {
      item.revived = await reviveFor(ctx, item);
      const revivedIds = new Set(item.revived.map((e) => e.adId));
      for (const object of item.evaluation!.objects)
        if (revivedIds.has(object.id))
          for (const task of Object.keys(object.verdicts))
            object.verdicts[task as keyof typeof object.verdicts] = 'revived';
    } catch (error) {
      item.error = error;
    }
  }
}

async function reviveFor(ctx: EngineContext, item: InBatch): Promise<ActivityRow[]> {
  const activity = createActivityStore(ctx.db);
  const { rule, run } = item;
  const ownOff = [...lastSwitches(item.switches ?? []).values()].filter(
    (s) => s.turned === 'off' && s.source === 'rule' && s.ruleId === rule.id,
  );
  const reasons = ownOff.length ? await activity.reasonsOf(ownOff.map((s) => s.entryId)) : [];
  const adTurnOff = new Map(reasons.filter((r) => r.action === 'turn_off_ad').map((r) => [r.id, r.reason]));
  const paused: PausedByRule[] = ownOff
    .filter((s) => adTurnOff.has(s.entryId))
    .map((s) => ({ entryId: s.entryId, objectId: s.objectId, at: s.at, reason: adTurnOff.get(s.entryId)! }));
  const limit = ctx.limits?.maxActions ?? DEFAULT_LIMITS.maxActions;
  const decisions = reviveDecisions(rule, item.snapshot!.data, paused, { now: ctx.now(), history: item.history }).slice(
    0,
    limit,
  );
  const extra = runReason(run, rule.timezone, ctx.now());
  const claimed = await activity.claimRevives(
    { ruleId: rule.id, folderId: rule.folder.id, slot: run.slot, actorId: run.actorId ?? null, runId: item.runId },
    decisions.map((d) => ({ objectId: d.objectId, reason: { ...d.reason, ...extra }, reverses: d.entryId })),
  );
  const leftOver = await activity.pendingRevives(rule.id, run.slot, item.runId);
  const toSend = [...new Map([...leftOver, ...claimed].map((e) => [e.id, e])).values()];
  if (!toSend.length) return [];
  const results = await ctx.client.setStatuses(
    toSend.map((e) => ({ id: e.adId!, status: 'ACTIVE' as const })),
    { accountId: rule.account.adAccountId },
  );
  const okIds = new Set(results.filter((r) => r.ok).map((r) => r.id));
  const done = toSend.filter((e) => okIds.has(e.adId!));
  for (const entry of toSend.filter((e) => !okIds.has(e.adId!)))
    await activity.markFailed(
      entry,
      results.find((r) => r.id === entry.adId)?.error ?? 'no answer from the ad platform',
      ctx.now(),
    );
  await activity.markDone(
    done.map((e) => e.id),
    ctx.now(),
  );
  return done;
}
