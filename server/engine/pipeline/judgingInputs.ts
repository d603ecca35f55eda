/**
 * Judging inputs: each account's on/off switches over the longest cool-down or revive window of
 * its rules (at least a day, for the flapping alert), with the turn-ons made by hand on the
 * platform since the engine's last turn-off noticed in the snapshot and recorded once.
 */
import { historyFrom, lastSwitches, recordPlatformTurnOns, switchesOf } from '../onOffHistory';
import { failAll, groupBy, live, type InBatch } from './batch';
import type { EngineContext } from './context';

const HOUR_MS = 3_600_000;
const AT_LEAST_HOURS = 24;

const windowHours = (item: InBatch) => {
  const j = item.rule.judging;
  return Math.max(AT_LEAST_HOURS, j?.cooldown_hours ?? 0, j?.revive_hours ?? 0);
};

export async function loadJudgingInputs(ctx: EngineContext, work: InBatch[]): Promise<void> {
  await Promise.all(
    [...groupBy(live(work), (item) => item.snapshot!.id).values()].map(async (items) => {
      try {
        const { data, fetchedAt } = items[0]!.snapshot!;
        const now = ctx.now();
        const since = new Date(now.getTime() - Math.max(...items.map(windowHours)) * HOUR_MS);
        const statusOf = new Map([...data.ads, ...data.campaigns].map((o) => [o.id, o.status]));
        const switches = await switchesOf(ctx.db, [...statusOf.keys()], since);
        const seenOn = [...lastSwitches(switches).values()]
          .filter((s) => s.turned === 'off' && statusOf.get(s.objectId) === 'ACTIVE')
          .map((after) => ({ objectId: after.objectId, after }));
        await recordPlatformTurnOns(ctx.db, items[0]!.rule.account.adAccountId, seenOn, fetchedAt);
        const all = [
          ...switches,
          ...seenOn.map(({ objectId, after }) => ({
            objectId,
            turned: 'on' as const,
            at: fetchedAt,
            entryId: after.entryId,
            source: 'platform' as const,
            ruleId: after.ruleId,
          })),
        ];
        const history = historyFrom(all);
        for (const item of items) {
          item.switches = all;
          item.history = history;
        }
      } catch (error) {
        failAll(items, error);
      }
    }),
  );
}
