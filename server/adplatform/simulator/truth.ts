/**
 * An object's metrics as the tests and benches need to see them: what insights report at a moment,
 * and its settled truth — what its metrics will be once everything that happened up to that moment
 * has arrived (reporting.ts). Works for ads, ad sets, campaigns and ad accounts (`act_…`).
 */
import { DateTime } from 'luxon';
import { add, graphMetrics, statusAt, ZERO, type Totals } from './delivery';
import { effectiveStatus } from './nodes';
import { reportedTotals, reportFrame, settledTotals } from './reporting';
import type { SimAccount, SimAd, World } from './world';

export interface Truth {
  id: string;
  kind: 'account' | 'campaign' | 'adset' | 'ad';
  /** The moment it is read at (ISO 8601). */
  at: string;
  /** [since, until] in the account's time zone, or the whole life up to `at`. */
  since?: string;
  until?: string;
  /** What insights answer at `at`. */
  reported: Record<string, unknown>;
  /** What they will answer once every lead and every day's settling has arrived. */
  settled: Record<string, unknown>;
}

interface Scope {
  kind: Truth['kind'];
  account: SimAccount;
  ads: SimAd[];
}

function scopeOf(world: World, id: string): Scope | undefined {
  const live = (test: (ad: SimAd) => boolean) => [...world.ads.values()].filter((ad) => !ad.deleted && test(ad));
  if (id.startsWith('act_')) {
    const account = world.account(id);
    return account && { kind: 'account', account, ads: live((ad) => ad.accountId === account.accountId) };
  }
  const ad = world.ads.get(id);
  if (ad) return { kind: 'ad', account: world.account(ad.accountId)!, ads: ad.deleted ? [] : [ad] };
  const adset = world.adsets.get(id);
  if (adset) return { kind: 'adset', account: world.account(adset.accountId)!, ads: live((a) => a.adsetId === id) };
  const campaign = world.campaigns.get(id);
  if (campaign)
    return { kind: 'campaign', account: world.account(campaign.accountId)!, ads: live((a) => a.campaignId === id) };
  return undefined;
}

/**
 * Reported and settled metrics of an object at `at`, over its whole life or the days
 * [since, until] (YYYY-MM-DD in its account's time zone). Undefined when there is no such object.
 */
export function truthOf(
  world: World,
  id: string,
  at: number,
  days: { since?: string; until?: string } = {},
): Truth | undefined {
  const scope = scopeOf(world, id);
  if (!scope) return undefined;
  const zone = scope.account.timezone;
  const day = (value: string, name: string) => {
    const parsed = DateTime.fromISO(value, { zone });
    if (!parsed.isValid || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new Error(`${name} must be a date YYYY-MM-DD`);
    return parsed;
  };
  const from = days.since ? day(days.since, 'since').toMillis() : -Infinity;
  const to = Math.min(at, days.until ? day(days.until, 'until').plus({ days: 1 }).toMillis() : Infinity);
  const frame = reportFrame(at, zone);
  let reported: Totals = ZERO;
  let settled: Totals = ZERO;
  if (to > from) {
    for (const ad of scope.ads) {
      reported = add(reported, reportedTotals(world, ad, from, to, frame));
      settled = add(settled, settledTotals(world, ad, from, to));
    }
  }
  return {
    id,
    kind: scope.kind,
    at: new Date(at).toISOString(),
    ...(days.since ? { since: days.since } : {}),
    ...(days.until ? { until: days.until } : {}),
    reported: graphMetrics(reported),
    settled: graphMetrics(settled),
  };
}

/** An object's status now, and its lifetime metrics as reported now and as they will settle. */
export function inspect(world: World, now: number, id: string): Record<string, unknown> | undefined {
  const truth = truthOf(world, id, now);
  if (!truth) return undefined;
  const metrics = { lifetime: truth.reported, settled: truth.settled };
  if (truth.kind === 'account') return { id, kind: 'account', ...metrics };
  const ad = world.ads.get(id);
  if (ad) {
    return {
      id,
      kind: 'ad',
      name: ad.name,
      deleted: ad.deleted,
      status: statusAt(ad.statusLog, now),
      effective_status: effectiveStatus(world, ad, now),
      ...metrics,
    };
  }
  const node = world.campaigns.get(id) ?? world.adsets.get(id)!;
  return {
    id,
    kind: truth.kind,
    name: node.name,
    status: statusAt(node.statusLog, now),
    effective_status: effectiveStatus(world, node, now),
    ...metrics,
  };
}
