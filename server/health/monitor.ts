/**
 * The platform health check, run after every sync: the Graph token (works? expires soon?), the API
 * version called (expires soon? apiVersion.ts), each
 * watched ad account's access (among the accounts the token reads, and its insights readable), and
 * its lead tracking (today's and yesterday's leads against its own leads per click of the week
 * before). Each account's daily totals are kept as read at each hour after the day (the measured
 * lead lag). Every new problem is mailed once (its row's alert claim); while it lasts the
 * account's rules' runs are held (server/engine/pipeline/healthHold.ts).
 */
import { DateTime } from 'luxon';
import { leadCount, websiteLeadCount } from '../adplatform/insightValues';
import type { AdPlatformClient, InsightRow } from '../adplatform/types';
import type { Database } from '../db/client';
import { errorMessage } from '../errorMessage';
import { numberOrNull } from '../engine/objectMetrics';
import type { EngineLog, HeldAlerts } from '../engine/pipeline/context';
import { sendPlainAlert, type PlainAlert } from '../engine/plainAlert';
import { queueWebhooks } from '../alerts/engineWebhooks';
import { slackMessage } from '../alerts/slackMessage';
import { validZone } from '../engine/schedule';
import { TOKEN_SCOPE, type HealthCheck } from '../../src/domain/health';
import { isAccessLost, isTokenInvalid, judgeLeadTracking, TOKEN_WARNING_DAYS, type DayReading } from './checks';
import { judgeApiVersion } from './apiVersion';
import { readingsSinceDay } from './report';
import {
  claimUnalerted,
  foldersConcerned,
  pruneReadings,
  readingsOf,
  recordCheck,
  releaseAlert,
  saveReadings,
  watchedAccounts,
} from './store';

export interface HealthDeps {
  db: Database;
  client: AdPlatformClient;
  now(): Date;
  alerts?: HeldAlerts;
  log: EngineLog;
}

/** Days of daily totals read at each check: the baseline week, yesterday and today. */
const READ_DAYS = 9;
const HOUR_MS = 3_600_000;

const CHECK_TITLES: Record<HealthCheck, string> = {
  token: 'the access token no longer works',
  token_expiry: 'the access token expires soon',
  api_version: 'the Graph API version expires soon',
  access: 'the token can no longer read the ad account',
  lead_tracking: 'lead tracking looks broken',
  webinar_key: 'Demio refuses a folder’s webinar key',
};

/** Daily account rows (one per day of the range) → readings aged from each day's end in the zone. */
export function readingsFrom(rows: InsightRow[], zone: string, at: Date): DayReading[] {
  return rows
    .filter((row) => row.date_start && row.date_start === row.date_stop)
    .map((row) => {
      const end = DateTime.fromISO(row.date_start!, { zone: validZone(zone) })
        .plus({ days: 1 })
        .toMillis();
      return {
        day: row.date_start!,
        ageHours: Math.floor((at.getTime() - end) / HOUR_MS),
        spend: numberOrNull(row.spend) ?? 0,
        clicks: numberOrNull(row.clicks) ?? 0,
        leads: leadCount(row.actions),
        websiteLeads: websiteLeadCount(row.actions) ?? 0,
      };
    });
}

async function checkToken(deps: HealthDeps, at: Date): Promise<boolean> {
  if (!deps.client.checkToken) return true;
  try {
    const { expiresAt } = await deps.client.checkToken();
    await recordCheck(deps.db, TOKEN_SCOPE, 'token', 'ok', 'the token works', at);
    const soon = expiresAt && expiresAt.getTime() - at.getTime() < TOKEN_WARNING_DAYS * 24 * HOUR_MS;
    await recordCheck(
      deps.db,
      TOKEN_SCOPE,
      'token_expiry',
      soon ? 'warning' : 'ok',
      expiresAt ? `expires ${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'no expiry known',
      at,
    );
    return true;
  } catch (error) {
    if (!isTokenInvalid(error)) {
      deps.log.warn(`health: the token could not be checked: ${errorMessage(error)}`);
      return true;
    }
    await recordCheck(deps.db, TOKEN_SCOPE, 'token', 'problem', errorMessage(error), at);
    return false;
  }
}

async function checkApiVersion(deps: HealthDeps, at: Date): Promise<void> {
  const version = deps.client.apiVersion?.();
  if (!version) return;
  const verdict = judgeApiVersion(version.configured, version.notice, at);
  await recordCheck(deps.db, TOKEN_SCOPE, 'api_version', verdict.state, verdict.detail, at);
}

async function checkAccount(
  deps: HealthDeps,
  account: { adAccountId: string; timezone: string | null },
  readable: Set<string> | null,
  at: Date,
): Promise<void> {
  const { db, client } = deps;
  const id = account.adAccountId;
  if (readable && !readable.has(id)) {
    await recordCheck(db, id, 'access', 'problem', 'not among the ad accounts the token can read', at);
    return;
  }
  const zone = validZone(account.timezone ?? 'UTC');
  const today = DateTime.fromJSDate(at, { zone });
  let rows: InsightRow[];
  try {
    rows = await client.getInsights(id, {
      level: 'account',
      timeRange: { since: today.minus({ days: READ_DAYS - 1 }).toISODate()!, until: today.toISODate()! },
      timeIncrement: 1,
    });
  } catch (error) {
    if (isAccessLost(error)) await recordCheck(db, id, 'access', 'problem', errorMessage(error), at);
    else deps.log.warn(`health: ${id} could not be read: ${errorMessage(error)}`);
    return;
  }
  await recordCheck(db, id, 'access', 'ok', 'the token reads the account', at);
  await saveReadings(db, id, readingsFrom(rows, zone, at), at);
  const readings = (await readingsOf(db, [id], readingsSinceDay(at))).get(id) ?? [];
  const verdict = judgeLeadTracking(readings, today.toISODate()!);
  await recordCheck(db, id, 'lead_tracking', verdict.broken ? 'problem' : 'ok', verdict.detail, at);
}

async function mailNewProblems(deps: HealthDeps, at: Date, names: Map<string, string>): Promise<void> {
  for (const row of await claimUnalerted(deps.db, at)) {
    const where =
      row.adAccountId === TOKEN_SCOPE ? 'every ad account' : (names.get(row.adAccountId) ?? row.adAccountId);
    const title = CHECK_TITLES[row.check as HealthCheck] ?? row.check;
    deps.log.warn(`health: ${where}: ${title} (${row.detail})`);
    const alert: PlainAlert = {
      subject: `Platform health: ${title} — ${where}`,
      paragraphs: [
        `${where}: ${title}. ${row.detail}.`,
        'Its rules’ runs are held until the problem is gone: nothing acts on numbers that cannot be trusted.',
      ],
      path: '/health',
      label: 'Open the health panel',
    };
    const sent = await sendPlainAlert(deps.alerts, alert, deps.log);
    if (!sent) await releaseAlert(deps.db, row);
    await postToWebhooks(deps, row, alert);
  }
}

/**
 * The problem's webhook message, to the global destinations and those of each folder it concerns;
 * once per problem (its key holds when it began, so a problem that comes back is posted again).
 */
async function postToWebhooks(
  deps: HealthDeps,
  row: { adAccountId: string; check: string; since: Date },
  alert: PlainAlert,
): Promise<void> {
  const webhooks = deps.alerts?.webhooks;
  if (!webhooks) return;
  const message = slackMessage({
    title: alert.subject,
    paragraphs: alert.paragraphs,
    action: { label: alert.label, url: `${deps.alerts!.publicUrl}${alert.path}` },
  });
  const sourceKey = `${row.adAccountId}:${row.check}:${row.since.toISOString()}`;
  const folderIds = await foldersConcerned(deps.db, row.adAccountId);
  // The same key for each folder: a global destination is claimed by the first and skipped after.
  for (const folderId of folderIds.length ? folderIds : [null])
    await queueWebhooks(deps, webhooks, { source: 'health', sourceKey, folderId, message });
}

/** One health check of the platform; never throws (a failed check is logged and retried next sync). */
export async function checkPlatformHealth(deps: HealthDeps): Promise<void> {
  const at = deps.now();
  try {
    const accounts = await watchedAccounts(deps.db);
    await checkApiVersion(deps, at);
    if (await checkToken(deps, at)) {
      let readable: Set<string> | null = null;
      try {
        readable = new Set(
          (await deps.client.listAdAccounts()).map((a) => (a.id.startsWith('act_') ? a.id : `act_${a.account_id}`)),
        );
      } catch (error) {
        deps.log.warn(`health: the ad accounts could not be listed: ${errorMessage(error)}`);
      }
      for (const account of accounts) await checkAccount(deps, account, readable, at);
    }
    await mailNewProblems(deps, at, new Map(accounts.map((a) => [a.adAccountId, a.accountName ?? a.adAccountId])));
    await pruneReadings(deps.db, readingsSinceDay(at));
  } catch (error) {
    deps.log.warn(`health: the check failed: ${errorMessage(error)}`);
  }
}
