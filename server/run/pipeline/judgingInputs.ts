/**
 * Judging inputs: each account's on/off switches over the longest cool-down or revive window of
 * its rules (at least a day, for the flapping alert), with the changes made outside the product
 * that the snapshot shows, each recorded once: turn-ons by hand on the platform since the last
 * turn-off, and pauses Meta made itself (Activity, ../metaPauses.ts). Preview reads the same
 * history (without recording), so it judges as a run would.
 */
import type { RuleJudging } from '../../../shared/judging';
import type { Database } from '../../db/client';
import type { AccountSnapshot } from '../../judgement/evaluate';
import type { ObjectHistory } from '../../judgement/lateData';
import { historyFrom, lastSwitches, recordPlatformTurnOns, switchesOf, type Switch } from '../onOffHistory';
import { failAll, groupBy, live, type InBatch } from './batch';
import type { EngineContext } from './context';
import { recordMetaPauses } from '../metaPauses';
import { errorMessage } from '../../errorMessage';

const HOUR_MS = 3_600_000;
const AT_LEAST_HOURS = 24;

/** The hours of on/off history a rule's judging reads. */
export const historyHours = (judging: RuleJudging | undefined) =>
  Math.max(AT_LEAST_HOURS, judging?.cooldown_hours ?? 0, judging?.revive_hours ?? 0);

/** A rule reads the snapshot's hourly delivery when it has a maturity in hours or a lag allowance. */
export const readsHourly = (judging: RuleJudging | undefined) =>
  (judging?.maturity_hours ?? 0) > 0 || judging?.lag_hours != null;

/**
 * The switches of the snapshot's objects over the last `hours`, with the turn-ons by hand the
 * snapshot shows (an object the engine turned off that is on again), each object's history, and
 * those turn-ons by hand (for the caller to record).
 */
export async function judgingHistory(
  db: Database,
  data: AccountSnapshot,
  fetchedAt: Date,
  since: Date,
): Promise<{ switches: Switch[]; history: Map<string, ObjectHistory>; seenOn: { objectId: string; after: Switch }[] }> {
  const statusOf = new Map([...data.ads, ...data.campaigns].map((o) => [o.id, o.status]));
  const switches = await switchesOf(db, [...statusOf.keys()], since);
  const seenOn = [...lastSwitches(switches).values()]
    .filter((s) => s.turned === 'off' && statusOf.get(s.objectId) === 'ACTIVE')
    .map((after) => ({ objectId: after.objectId, after }));
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
  return { switches: all, history: historyFrom(all), seenOn };
}

export async function loadJudgingInputs(ctx: EngineContext, work: InBatch[]): Promise<void> {
  await Promise.all(
    [...groupBy(live(work), (item) => item.snapshot!.id).values()].map(async (items) => {
      try {
        const { data, fetchedAt } = items[0]!.snapshot!;
        const hours = Math.max(...items.map((item) => historyHours(item.rule.judging)));
        const since = new Date(ctx.now().getTime() - hours * HOUR_MS);
        const { switches, history, seenOn } = await judgingHistory(ctx.db, data, fetchedAt, since);
        const first = items[0]!;
        await recordPlatformTurnOns(ctx.db, first.rule.account.adAccountId, seenOn, fetchedAt);
        const where = { folderId: first.rule.folder.id, accountName: first.rule.account.accountName };
        await recordMetaPauses(ctx.db, { data, ...where, slot: first.run.slot, snapshotId: first.snapshot!.id }).catch(
          (error: unknown) =>
            ctx.log.warn(`pauses by Meta of ${first.rule.account.adAccountId}: ${errorMessage(error)}`),
        );
        for (const item of items) {
          item.switches = switches;
          item.history = history;
        }
      } catch (error) {
        failAll(items, error);
      }
    }),
  );
}
