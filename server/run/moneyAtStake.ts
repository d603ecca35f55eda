/**
 * The money a held run would move a day, what an approval limit is weighed against:
 *
 * - spend stopped: the last 24 hours' spend, before the run was held, of every ad it would turn
 *   off (a campaign's turn-off: each of its ads delivering then), from the metric history the
 *   engine keeps at each read (server/history/). With less than a day of readings, the spend
 *   between the first and the last is scaled to a day; with a single reading (or none, then the
 *   run record's figure), what the ad has spent in all — at least a day's worth, so an approval
 *   limit is never passed on a guess too low. Either is marked estimated.
 * - budget added: the daily budget its budget changes add, as the held run's record computed it
 *   against the folder's ceilings (budgets/moneyAtRisk.ts).
 *
 * And the objects it would change, named, for a reviewer.
 */
import { APPROVAL_OBJECTS_SHOWN, type ApprovalObjectDto } from '../../shared/approvals';
import type { Database } from '../db/client';
import { DAY_MS, HOUR_MS } from '../history/reading';
import { hourIndex, loadTimeline, type AdSeries, type Timeline } from '../history/timeline';
import type { PlannedAction } from '../judgement/evaluate';
import type { StoredDetails } from '../judgement/runRecord';

/** A held run as its stake is worked out from. */
export interface HeldRunMoney {
  id: number;
  adAccountId: string;
  /** When it was held: the spend stopped is that of the 24 hours before. */
  heldAt: Date;
  details: unknown;
}

export interface MoneyAtStake {
  /** Account currency a day. */
  spendStopped: number;
  spendEstimated: boolean;
  budgetAdded: number;
  total: number;
  /** The objects it would change (the first APPROVAL_OBJECTS_SHOWN) and how many in all. */
  objects: ApprovalObjectDto[];
  objectCount: number;
}

const detailsOf = (run: HeldRunMoney) => (run.details ?? {}) as Partial<StoredDetails>;
const plannedOf = (run: HeldRunMoney): PlannedAction[] => detailsOf(run).planned ?? [];

/** The turn-offs first, then the budget changes, each named as the run's record named it. */
function objectsOf(details: Partial<StoredDetails>): ApprovalObjectDto[] {
  const turnOffs = (details.planned ?? []).map(
    (a): ApprovalObjectDto => ({
      id: a.objectId,
      name: a.reason.Ad ?? a.reason.Campaign ?? a.objectId,
      type: a.action === 'turn_off_campaign' ? 'campaign' : 'ad',
      change: a.action,
    }),
  );
  const budgets = (details.budgets ?? []).map(
    (b): ApprovalObjectDto => ({ id: b.object_id, name: b.name, type: b.object_type, change: b.action }),
  );
  return [...turnOffs, ...budgets];
}

/** The lifetime spend the run's record read for an object (the fallback when history has none). */
function recordedSpend(details: Partial<StoredDetails>, objectId: string): number {
  const stored = (details.objects ?? []).find((o) => o[1] === objectId);
  const spend = stored?.[4]?.[0];
  return typeof spend === 'number' ? spend : 0;
}

/** One ad's spend (cents) in the day before `heldHour`, and whether it is estimated; null: no reading. */
function daySpendCents(series: AdSeries, heldHour: number): { cents: number; estimated: boolean } | null {
  const spend = series.values.spendCents;
  const last = series.latest[heldHour] ?? -1;
  if (last < 0 || Number.isNaN(spend[last]!)) return null;
  const end = spend[last]!;
  const dayBefore = heldHour - 24;
  const start = dayBefore >= 0 ? (series.latest[dayBefore] ?? -1) : -1;
  if (start >= 0 && !Number.isNaN(spend[start]!)) return { cents: Math.max(0, end - spend[start]!), estimated: false };
  for (let h = Math.max(0, dayBefore + 1); h < last; h += 1) {
    if (series.read[h] && !Number.isNaN(spend[h]!))
      return { cents: (Math.max(0, end - spend[h]!) * 24) / (last - h), estimated: true };
  }
  return { cents: end, estimated: true };
}

/** The spend (account currency a day) the run's turn-offs would stop, from the account's timeline. */
function spendStopped(run: HeldRunMoney, timeline: Timeline | null): { amount: number; estimated: boolean } {
  const planned = plannedOf(run);
  if (!planned.length) return { amount: 0, estimated: false };
  const details = detailsOf(run);
  const heldHour = timeline ? hourIndex(timeline, run.heldAt.getTime()) : -1;
  const ads = new Set(planned.filter((a) => a.action === 'turn_off_ad').map((a) => a.objectId));
  const campaigns = new Set(planned.filter((a) => a.action === 'turn_off_campaign').map((a) => a.objectId));
  const seen = new Set<string>();
  let cents = 0;
  let estimated = false;
  for (const series of timeline?.ads ?? []) {
    const last = heldHour >= 0 ? (series.latest[heldHour] ?? -1) : -1;
    const stops = ads.has(series.adId) || (campaigns.has(series.campaignId) && last >= 0 && series.on[last] === 1);
    if (!stops) continue;
    const day = daySpendCents(series, heldHour);
    if (!day) continue;
    seen.add(series.adId);
    seen.add(series.campaignId);
    cents += day.cents;
    estimated ||= day.estimated;
  }
  // Objects the history holds nothing of: what the run's record read of them, in all.
  let unrecorded = 0;
  for (const action of planned) {
    if (seen.has(action.objectId)) continue;
    unrecorded += recordedSpend(details, action.objectId);
    estimated = true;
  }
  return { amount: Math.round(cents) / 100 + unrecorded, estimated };
}

const roundCents = (amount: number) => Math.round(amount * 100) / 100;

/** The money at stake of each of these held runs, by id. */
export async function moneyAtStake(db: Database, runs: readonly HeldRunMoney[]): Promise<Map<number, MoneyAtStake>> {
  const timelines = new Map<string, Timeline>();
  const byAccount = new Map<string, HeldRunMoney[]>();
  for (const run of runs) {
    if (plannedOf(run).length) byAccount.set(run.adAccountId, [...(byAccount.get(run.adAccountId) ?? []), run]);
  }
  await Promise.all(
    [...byAccount].map(async ([adAccountId, accountRuns]) => {
      const planned = accountRuns.flatMap(plannedOf);
      const times = accountRuns.map((run) => run.heldAt.getTime());
      const timeline = await loadTimeline(
        db,
        adAccountId,
        Math.min(...times) - DAY_MS,
        Math.max(...times) + HOUR_MS,
        2,
        {
          adIds: planned.filter((a) => a.action === 'turn_off_ad').map((a) => a.objectId),
          campaignIds: planned.filter((a) => a.action === 'turn_off_campaign').map((a) => a.objectId),
        },
        ['spendCents'],
      );
      timelines.set(adAccountId, timeline);
    }),
  );
  return new Map(
    runs.map((run) => {
      const details = detailsOf(run);
      const spend = spendStopped(run, timelines.get(run.adAccountId) ?? null);
      const budgetAdded = roundCents(details.money?.added ?? 0);
      const objects = objectsOf(details);
      const spendAmount = roundCents(spend.amount);
      return [
        run.id,
        {
          spendStopped: spendAmount,
          spendEstimated: spend.estimated,
          budgetAdded,
          total: roundCents(spendAmount + budgetAdded),
          objects: objects.slice(0, APPROVAL_OBJECTS_SHOWN),
          objectCount: objects.length,
        },
      ];
    }),
  );
}
