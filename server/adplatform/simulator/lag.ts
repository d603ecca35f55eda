/**
 * How late Meta's numbers arrive (docs/simulator.md, "Late and changing data").
 *
 * A lead happens at one moment and shows in insights a lag later, credited to the hour it
 * happened. Each lead's lag is drawn from its ad's lag profile by a hash of (ad id, lead number),
 * so the same seed and clock always show the same leads.
 *
 * A day's delivery metrics (spend, impressions, clicks) settle after the account's midnight: the day
 * in progress shows 90 % of what was delivered, then 97 % two hours after midnight, 99 % three hours
 * after, and the final figure from 18 hours after.
 */
import { HOUR } from './naming';

const MINUTE = 60_000;

/** A piecewise-uniform lag distribution: `share` of the leads arrive with a lag in [from, to). */
export interface LagBand {
  share: number;
  fromMs: number;
  toMs: number;
}

export type LagProfile = readonly LagBand[];

/** Pixel (website) leads: about 35 % within an hour, 50 % within a day, the rest by 72 hours. */
export const WEBSITE_LAG: LagProfile = [
  { share: 0.35, fromMs: 0, toMs: HOUR },
  { share: 0.15, fromMs: HOUR, toMs: 24 * HOUR },
  { share: 0.5, fromMs: 24 * HOUR, toMs: 72 * HOUR },
];

/** Instant-form (on-Facebook) leads: within minutes, 90 % inside five. */
export const INSTANT_FORM_LAG: LagProfile = [
  { share: 0.9, fromMs: 0, toMs: 5 * MINUTE },
  { share: 0.1, fromMs: 5 * MINUTE, toMs: 15 * MINUTE },
];

/** Leads reported only the next day or the one after (an offline CRM upload, a slow postback). */
export const NEXT_DAY_LAG: LagProfile = [{ share: 1, fromMs: 20 * HOUR, toMs: 60 * HOUR }];

/** The lag profiles by name, as scenarios and the admin API name them. */
export const LAG_PROFILES = {
  website: WEBSITE_LAG,
  instant_form: INSTANT_FORM_LAG,
  next_day: NEXT_DAY_LAG,
} as const satisfies Record<string, LagProfile>;
export type LagName = keyof typeof LAG_PROFILES;

/** No lead arrives later than this after it happened; older leads are final. */
export const LONGEST_LAG_MS = 72 * HOUR;

/** A uniform number in [0, 1) from a string key (FNV-1a, then a mulberry32 round). */
export function unitHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  let t = (h + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** The lag at quantile `u` of a profile. */
export function lagAt(profile: LagProfile, u: number): number {
  let below = 0;
  for (const band of profile) {
    if (u < below + band.share) return band.fromMs + ((u - below) / band.share) * (band.toMs - band.fromMs);
    below += band.share;
  }
  const last = profile.at(-1)!;
  return last.toMs;
}

/** The lag of one lead: `key` names it (ad id and lead number). */
export const leadLag = (profile: LagProfile, key: string) => lagAt(profile, unitHash(`lag:${key}`));

/** Share of a profile's leads that have arrived `ms` after they happened. */
export function arrivedShare(profile: LagProfile, ms: number): number {
  let share = 0;
  for (const band of profile) {
    if (ms >= band.toMs) share += band.share;
    else if (ms > band.fromMs) share += (band.share * (ms - band.fromMs)) / (band.toMs - band.fromMs);
  }
  return share;
}

/** (hours after the account's midnight, share of the day's delivery reported). */
const SETTLING: readonly (readonly [number, number])[] = [
  [0, 0.9],
  [2, 0.97],
  [3, 0.99],
  [18, 1],
];

/** Share of a day's spend, impressions and clicks reported `msAfterDayEnd` after its midnight (negative: still running). */
export function settledShare(msAfterDayEnd: number): number {
  const hours = msAfterDayEnd / HOUR;
  if (hours <= 0) return SETTLING[0]![1];
  for (let i = 1; i < SETTLING.length; i += 1) {
    const [h1, s1] = SETTLING[i]!;
    if (hours < h1) {
      const [h0, s0] = SETTLING[i - 1]!;
      return s0 + ((hours - h0) / (h1 - h0)) * (s1 - s0);
    }
  }
  return 1;
}

/** After this long past its midnight a day's delivery metrics are final. */
export const SETTLED_AFTER_MS = 18 * HOUR;
