/**
 * The API version in a path (`/v25.0/act_1/ads`), judged on the simulator's clock against Meta's
 * calendar (../versions.ts): a live version is answered, with Graph's `facebook-api-version` header
 * and, within VERSION_NOTICE_DAYS of its announced expiry, a deprecation notice
 * (`X-Ad-Api-Version-Warning`, `Sunset`, `Deprecation`). An expired version is refused as Graph
 * refuses it (#2635; as in facebook/facebook-java-business-sdk#136) or, with `autoUpgrade`,
 * answered as the oldest live version with a warning saying so. A version not released yet (or
 * none Meta ever had) is an unknown path component, as Graph answers `/v99.0/me`. A path without
 * a version is answered as the newest live version, a new app's default.
 */
import { expiryOf, liveVersions, META_API_CALENDAR, newestLiveVersion, versionState } from '../versions';
import { errorAnswer, type GraphAnswer } from './answers';

const VERSION_PREFIX = /^\/*(v\d+\.\d+)(?=\/|$)/;

/** Graph announces a version's end this many days ahead (its 90-day grace after a successor). */
export const VERSION_NOTICE_DAYS = 90;
const DAY_MS = 86_400_000;

export const versionOf = (pathname: string): string | undefined => VERSION_PREFIX.exec(pathname)?.[1];

/** `/v21.0/act_1/insights` → `act_1/insights`. */
export const graphPath = (pathname: string) =>
  pathname.replace(VERSION_PREFIX, '').replace(/^\/+/, '').replace(/\/+$/, '');

/** How a call's version is answered: by which version, with which headers, or refused. */
export type VersionAnswer = { answeredAs: string; headers: Record<string, string> } | { refusal: GraphAnswer };

export interface VersionOptions {
  /** Answer an expired version as the oldest live one (Meta's auto-upgrade) instead of refusing it. */
  autoUpgrade?: boolean;
}

const httpDate = (ms: number) => new Date(ms).toUTCString();

/** The deprecation headers of a live version whose announced expiry is near. */
function noticeHeaders(version: string, now: number): Record<string, string> {
  const expiry = expiryOf(version)?.getTime();
  if (expiry === undefined || expiry - now > VERSION_NOTICE_DAYS * DAY_MS) return {};
  const successor = META_API_CALENDAR[META_API_CALENDAR.findIndex((entry) => entry.version === version) + 1];
  const day = new Date(expiry).toISOString().slice(0, 10);
  return {
    'x-ad-api-version-warning': `${version} will be deprecated on ${day}. Please upgrade to ${newestLiveVersion(now)}.`,
    sunset: httpDate(expiry),
    // RFC 9745: deprecated since its successor came out (an instant as `@` Unix seconds).
    ...(successor ? { deprecation: `@${Math.floor(Date.parse(successor.released) / 1000)}` } : {}),
  };
}

export function answerVersion(
  version: string | undefined,
  path: string,
  now: number,
  options: VersionOptions = {},
): VersionAnswer {
  const asked = version ?? newestLiveVersion(now);
  const state = versionState(asked, now);
  if (state === 'live')
    return { answeredAs: asked, headers: { 'facebook-api-version': asked, ...noticeHeaders(asked, now) } };
  if (state === 'expired') {
    const oldestLive = liveVersions(now)[0];
    if (options.autoUpgrade && oldestLive)
      return {
        answeredAs: oldestLive,
        headers: {
          'facebook-api-version': oldestLive,
          'x-ad-api-version-warning': `The call has been auto-upgraded to ${oldestLive} as ${asked} is deprecated.`,
        },
      };
    return {
      refusal: errorAnswer(
        400,
        2635,
        `(#2635) You are calling a deprecated version of the Ads API. Please update to the latest version: ${newestLiveVersion(now)}.`,
      ),
    };
  }
  return { refusal: errorAnswer(400, 2500, `Unknown path components: /${asked}/${path}`) };
}
