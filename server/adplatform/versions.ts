/**
 * Meta's Marketing API calendar: when each Graph API version was released and when it expires (its
 * versions page; null while Meta has announced no date). The product calls META_API_VERSION
 * (default below); start-up refuses a version that is not live, the health check warns before the
 * configured one expires, and the simulator answers a version only while it is live on its clock.
 */

export interface ApiVersionDates {
  version: string;
  /** YYYY-MM-DD: live from the start of this day (UTC). */
  released: string;
  /** YYYY-MM-DD: no longer answered from the start of this day (UTC); null: not announced. */
  expires: string | null;
}

export const META_API_CALENDAR: readonly ApiVersionDates[] = [
  { version: 'v19.0', released: '2024-01-23', expires: '2025-02-04' },
  { version: 'v20.0', released: '2024-05-21', expires: '2025-05-06' },
  { version: 'v21.0', released: '2024-10-02', expires: '2025-09-09' },
  { version: 'v22.0', released: '2025-01-21', expires: '2026-02-19' },
  { version: 'v23.0', released: '2025-05-29', expires: '2026-06-09' },
  { version: 'v24.0', released: '2025-10-08', expires: '2026-11-10' },
  { version: 'v25.0', released: '2026-02-18', expires: '2027-02-23' },
  { version: 'v26.0', released: '2026-07-29', expires: null },
  { version: 'v27.0', released: '2026-11-04', expires: null },
];

/** Live, with no expiry announced (docs/decisions.md says why this one). */
export const DEFAULT_META_API_VERSION = 'v26.0';

/** Days before the configured version expires that the health panel starts warning. */
export const VERSION_WARNING_DAYS = 60;

const DAY_MS = 86_400_000;
const startOfDay = (date: string) => Date.parse(`${date}T00:00:00Z`);

export const datesOf = (version: string): ApiVersionDates | undefined =>
  META_API_CALENDAR.find((entry) => entry.version === version);

/** When the version stops being answered; null when Meta has not said (or the version is unknown). */
export function expiryOf(version: string): Date | null {
  const expires = datesOf(version)?.expires;
  return expires ? new Date(startOfDay(expires)) : null;
}

export type VersionState = 'live' | 'expired' | 'unreleased' | 'unknown';

export function versionState(version: string, at: number): VersionState {
  const dates = datesOf(version);
  if (!dates) return 'unknown';
  if (at < startOfDay(dates.released)) return 'unreleased';
  if (dates.expires && at >= startOfDay(dates.expires)) return 'expired';
  return 'live';
}

/** The versions answered at this moment, oldest first. */
export const liveVersions = (at: number): string[] =>
  META_API_CALENDAR.filter((entry) => versionState(entry.version, at) === 'live').map((entry) => entry.version);

/** The newest version live at this moment (the last one when none is, which no calendar date gives). */
export const newestLiveVersion = (at: number): string => liveVersions(at).at(-1) ?? META_API_CALENDAR.at(-1)!.version;

/** Whole days from `at` until the version expires; null without an announced date. */
export function daysUntilExpiry(version: string, at: number): number | null {
  const expiry = expiryOf(version);
  return expiry ? Math.ceil((expiry.getTime() - at) / DAY_MS) : null;
}

/** '2027-02-23' → '23 February 2027'. */
export const dayText = (date: Date): string =>
  date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * Why a configured version cannot be used at `at`, naming the live ones; undefined when it is live.
 * Start-up refuses it: every call to a version Graph no longer answers fails (#2635).
 */
export function versionProblem(version: string, at: number): string | undefined {
  const state = versionState(version, at);
  if (state === 'live') return undefined;
  const live = liveVersions(at).join(', ');
  const day = new Date(at).toISOString().slice(0, 10);
  const why =
    state === 'expired'
      ? `expired on ${dayText(expiryOf(version)!)}`
      : state === 'unreleased'
        ? `was not released yet on ${day} (released ${dayText(new Date(startOfDay(datesOf(version)!.released)))})`
        : 'is not a version in Meta’s calendar';
  return `META_API_VERSION ${version} ${why}. The versions Graph answers on ${day}: ${live}. Set META_API_VERSION to one of them.`;
}
