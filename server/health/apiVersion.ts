/**
 * The health check of the Graph API version the product calls (check `api_version`, kept with the
 * token's): a warning from VERSION_WARNING_DAYS before the version expires — the date Graph's
 * answers announce (Sunset, X-Ad-Api-Version-Warning), else Meta's calendar — and once Meta answers
 * it as another version (an expired one, auto-upgraded). A warning holds no run: calls still work.
 */
import type { VersionNotice } from '../adplatform/versionNotice';
import { dayText, expiryOf, newestLiveVersion, VERSION_WARNING_DAYS } from '../adplatform/versions';

const DAY_MS = 86_400_000;

export interface VersionVerdict {
  state: 'ok' | 'warning';
  detail: string;
}

export function judgeApiVersion(configured: string, notice: VersionNotice | undefined, at: Date): VersionVerdict {
  const upgradeTo = `set META_API_VERSION to ${newestLiveVersion(at.getTime())}`;
  const meta = notice?.warning ? ` (Meta: “${notice.warning}”)` : '';
  if (notice?.answeredAs && notice.answeredAs !== configured)
    return {
      state: 'warning',
      detail: `Meta answers ${configured} as ${notice.answeredAs}: ${configured} has expired${meta}; ${upgradeTo}`,
    };
  const expiry = notice?.sunset ?? expiryOf(configured);
  if (expiry) {
    const days = Math.ceil((expiry.getTime() - at.getTime()) / DAY_MS);
    if (days <= VERSION_WARNING_DAYS) {
      const when =
        days > 0
          ? `stops working on ${dayText(expiry)} (in ${days} day${days === 1 ? '' : 's'})`
          : `expired on ${dayText(expiry)}`;
      return { state: 'warning', detail: `Graph API ${configured} ${when}${meta}; ${upgradeTo}` };
    }
  }
  // A warning that names no date cannot be judged by the calendar: shown as Meta wrote it.
  if (notice?.warning && !expiry) return { state: 'warning', detail: `Graph API ${configured}${meta}; ${upgradeTo}` };
  return {
    state: 'ok',
    detail: expiry
      ? `Graph API ${configured} works until ${dayText(expiry)}`
      : `Graph API ${configured}: no end date announced`,
  };
}
