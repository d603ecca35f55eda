/**
 * The API version in a path (`/v25.0/act_1/ads`): one of the versions the simulator answers, or
 * Graph's refusal of a retired version (#2635, as in facebook/facebook-java-business-sdk#136).
 * A path without a version is answered, as Graph answers it with the app's default version.
 */
import { DEFAULT_META_API_VERSION, LATEST_API_VERSION, LIVE_API_VERSIONS } from '../versions';
import { errorAnswer, type GraphAnswer } from './answers';

const VERSION_PREFIX = /^\/*(v\d+\.\d+)(?=\/|$)/;

/** The versions answered: the live ones, the product's default, and any the caller adds (its META_API_VERSION). */
export function answeredVersions(extra: readonly string[] = []): readonly string[] {
  return [...new Set([DEFAULT_META_API_VERSION, ...LIVE_API_VERSIONS, ...extra])];
}

export const versionOf = (pathname: string): string | undefined => VERSION_PREFIX.exec(pathname)?.[1];

/** `/v21.0/act_1/insights` → `act_1/insights`. */
export const graphPath = (pathname: string) =>
  pathname.replace(VERSION_PREFIX, '').replace(/^\/+/, '').replace(/\/+$/, '');

export function versionRefusal(version: string | undefined, answered: readonly string[]): GraphAnswer | undefined {
  if (version === undefined || answered.includes(version)) return undefined;
  return errorAnswer(
    400,
    2635,
    `(#2635) You are calling a deprecated version of the Ads API. Please update to the latest version: ${LATEST_API_VERSION}.`,
  );
}
