/**
 * A memo of each ad's cumulative metrics by moment, so reports made hour after hour do not work out
 * the same past hours again. An ad's cumulative metrics by `at` depend only on its profile and on
 * its delivery pieces before `at` (delivery.ts): when its pieces change (a budget or status write,
 * a relearning penalty cut short), only the values after the first moment the old and new pieces
 * deliver differently are dropped — with a clock that only moves forward, none of the past ones.
 * Keyed by the ad and its profile object: an ad given a new profile starts afresh. Speed only: the
 * numbers are exactly what delivery.ts works out.
 */
import { effectiveHoursBy, totalsAtEffective, type DeliveryPiece, type Totals } from './delivery';
import type { DeliveryProfile, SimAd } from './world';

interface Memo {
  profile: DeliveryProfile;
  /** The pieces the values were worked out from. */
  pieces: readonly DeliveryPiece[];
  values: Map<number, Totals>;
}

/** Past this many moments an ad's memo starts over (a long-running server asks about ever new moments). */
const MAX_MOMENTS = 4096;

const memos = new WeakMap<SimAd, Memo>();

/**
 * The earliest moment at which two piece lists deliver differently (Infinity when they never do).
 * Before it both have the same pieces, clipped to it: the same cumulative metrics up to and at it.
 */
export function firstDifference(a: readonly DeliveryPiece[], b: readonly DeliveryPiece[]): number {
  if (a === b) return Infinity;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const x = a[i];
    const y = b[i];
    if (!x || !y) return (x ?? y)!.from;
    if (x.from !== y.from || x.rate !== y.rate || x.leadFactor !== y.leadFactor) return Math.min(x.from, y.from);
    if (x.to !== y.to) return Math.min(x.to, y.to);
  }
  return Infinity;
}

function memoOf(ad: SimAd, pieces: readonly DeliveryPiece[]): Memo {
  let memo = memos.get(ad);
  if (!memo || memo.profile !== ad.profile) {
    memo = { profile: ad.profile, pieces, values: new Map() };
    memos.set(ad, memo);
  } else if (memo.pieces !== pieces) {
    const since = firstDifference(memo.pieces, pieces);
    if (since !== Infinity) for (const at of memo.values.keys()) if (at > since) memo.values.delete(at);
    memo.pieces = pieces;
  }
  if (memo.values.size > MAX_MOMENTS) memo.values.clear();
  return memo;
}

/** The ad's cumulative metrics by `at`, delivering in `pieces` (its current schedule). */
export function cumulativeTotals(ad: SimAd, pieces: readonly DeliveryPiece[], at: number): Totals {
  const memo = memoOf(ad, pieces);
  let totals = memo.values.get(at);
  if (totals === undefined) {
    totals = totalsAtEffective(ad.profile, pieces, effectiveHoursBy(pieces, at));
    memo.values.set(at, totals);
  }
  return totals;
}
