/**
 * Breakdowns by age, gender and publisher platform: each ad's audience splits in fixed shares
 * (drawn by hash from its id around the agency's targeting — ad sets aim at people 55 and over),
 * and every metric is apportioned by those shares with the largest-remainder rule, so the segments
 * of a row add up to the row exactly.
 */
import type { Totals } from './delivery';
import { unitHash } from './lag';

export const SEGMENT_DIMENSIONS = {
  age: { '18-24': 0, '25-34': 0, '35-44': 0, '45-54': 0.04, '55-64': 0.52, '65+': 0.44 },
  gender: { female: 0.52, male: 0.46, unknown: 0.02 },
  publisher_platform: { facebook: 0.7, instagram: 0.22, audience_network: 0.05, messenger: 0.03 },
} as const satisfies Record<string, Record<string, number>>;

export type SegmentDimension = keyof typeof SEGMENT_DIMENSIONS;

/** A segment: one value per dimension asked for, e.g. {age: '55-64', gender: 'female'}. */
export type Segment = Partial<Record<SegmentDimension, string>>;

/** The ad's shares of the values of one dimension: the base shares moved by up to ±30 % each. */
function sharesOf(adId: string, dimension: SegmentDimension): [string, number][] {
  const raw = Object.entries(SEGMENT_DIMENSIONS[dimension]).map(
    ([value, base]) => [value, base * (0.7 + 0.6 * unitHash(`${dimension}:${adId}:${value}`))] as [string, number],
  );
  const total = raw.reduce((sum, [, w]) => sum + w, 0);
  return raw.map(([value, w]) => [value, w / total]);
}

/** The segments of some dimensions with the ad's share of each (all combinations). */
export function segmentsOf(
  adId: string,
  dimensions: readonly SegmentDimension[],
): { segment: Segment; share: number }[] {
  let out: { segment: Segment; share: number }[] = [{ segment: {}, share: 1 }];
  for (const dimension of dimensions) {
    const shares = sharesOf(adId, dimension);
    out = out.flatMap(({ segment, share }) =>
      shares.map(([value, s]) => ({ segment: { ...segment, [dimension]: value }, share: share * s })),
    );
  }
  return out;
}

/** Splits a whole number by shares; the parts add up to it (largest remainders get the rest). */
export function apportion(total: number, shares: readonly number[]): number[] {
  const exact = shares.map((share) => total * share);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((sum, part) => sum + part, 0);
  const order = exact
    .map((value, i) => [value - Math.floor(value), i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}

/** Totals split by shares, every metric adding up to the whole. */
export function splitTotals(totals: Totals, shares: readonly number[]): Totals[] {
  const spendCents = apportion(Math.round(totals.spend * 100), shares);
  const metric = (key: Exclude<keyof Totals, 'spend'>) => apportion(totals[key], shares);
  const impressions = metric('impressions');
  const clicks = metric('clicks');
  const linkClicks = metric('linkClicks');
  const outboundClicks = metric('outboundClicks');
  const onsite = metric('onsiteLeads');
  const website = metric('websiteLeads');
  return shares.map((_, i) => ({
    spend: spendCents[i]! / 100,
    impressions: impressions[i]!,
    clicks: clicks[i]!,
    linkClicks: linkClicks[i]!,
    outboundClicks: outboundClicks[i]!,
    onsiteLeads: onsite[i]!,
    websiteLeads: website[i]!,
  }));
}
