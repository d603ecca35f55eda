/**
 * The platform health check, run after every sync: each Meta connection's token (works? expires
 * soon? its problems concern the ad accounts it serves, server/connections/), the API
 * version called (expires soon? apiVersion.ts), each
 * watched ad account's access (among the accounts the token reads, and its insights readable), and
 * its lead tracking (today's and yesterday's leads against its own leads per click of the week
 * before). Each account's daily totals are kept as read at each hour after the day (the measured
 * lead lag). Every new problem is mailed once (its row's alert claim); while it lasts the
 * account's rules' runs are held (server/run/pipeline/healthHold.ts).
 */
import { DateTime } from 'luxon';
import { leadCount, websiteLeadCount } from '../adplatform/insightValues';
import type { AdAccount, AdPlatformClient, InsightRow } from '../adplatform/types';
import type { Database } from '../db/client';
import { errorMessage } from '../errorMessage';
import { numberOrNull } from '../judgement/objectMetrics';
import type { EngineLog, HeldAlerts } from '../run/pipeline/context';
import { sendPlainAlert, type PlainAlert } from '../alerts/plainAlert';
import { queueWebhooks } from '../alerts/engineWebhooks';
import { slackMessage } from '../alerts/slackMessage';
import { validZone } from '../judgement/scheduleSlots';
import { TOKEN_CHECKS, TOKEN_SCOPE, type HealthCheck } from '../../shared/health';
import { isAccessLost, isTokenInvalid, judgeLeadTracking, type DayReading } from './checks';
import { recordTokenRefused, recordTokenWorks } from './tokenChecks';
import { judgeApiVersion } from './apiVersion';
import { readingsSinceDay } from './report';
import { createHealthStore } from './store';

/** A token the check asks about (an added Meta connection's, or the environment's). */
export interface CheckedToken {
  /** What its checks are kept under: TOKEN_SCOPE, or connectionScope(id). */
  scope: string;
  name: string;
  /** Graph's word on it now; throws GraphAuthError when refused. Absent: nothing to ask. */
  identity?(): Promise<{ expiresAt: Date | null }>;
  listAdAccounts(): Promise<AdAccount[]>;
}

export interface HealthDeps {
  db: Database;
  client: AdPlatformClient;
  /** The tokens and which one serves each account; absent: `client`'s own token serves them all. */
  connections?: { list(): Promise<CheckedToken[]>; scopeOf(adAccountId: string): Promise<string> };
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

/** The tokens to check: the connections', or the client's own. */
function tokensOf(deps: HealthDeps): Promise<CheckedToken[]> {
  if (deps.connections) return deps.connections.list();
  const { client } = deps;
  const own: CheckedToken = {
    scope: TOKEN_SCOPE,
    name: 'the access token',
    identity: client.checkToken && (() => client.checkToken!()),
    listAdAccounts: () => client.listAdAccounts(),
  };
  return Promise.resolve([own]);
}

async function checkToken(deps: HealthDeps, token: CheckedToken, at: Date): Promise<boolean> {
  if (!token.identity) return true;
  try {
    const { expiresAt } = await token.identity();
    await recordTokenWorks(deps.db, token.scope, expiresAt, at);
    return true;
  } catch (error) {
    if (!isTokenInvalid(error)) {
      deps.log.warn(`health: ${token.name} could not be checked: ${errorMessage(error)}`);
      return true;
    }
    await recordTokenRefused(deps.db, token.scope, errorMessage(error), at);
    return false;
  }
}

/** The accounts a working token lists (null: unknown, it could not list them). */
async function readableBy(deps: HealthDeps, token: CheckedToken): Promise<Set<string> | null> {
  try {
    return new Set((await token.listAdAccounts()).map((a) => (a.id.startsWith('act_') ? a.id : `act_${a.account_id}`)));
  } catch (error) {
    deps.log.warn(`health: the ad accounts of ${token.name} could not be listed: ${errorMessage(error)}`);
    return null;
  }
}

async function checkApiVersion(deps: HealthDeps, at: Date): Promise<void> {
  const version = deps.client.apiVersion?.();
  if (!version) return;
  const verdict = judgeApiVersion(version.configured, version.notice, at);
  await createHealthStore(deps.db).recordCheck(TOKEN_SCOPE, 'api_version', verdict.state, verdict.detail, at);
}

async function checkAccount(
  deps: HealthDeps,
  account: { adAccountId: string; timezone: string | null },
  readable: Set<string> | null,
  at: Date,
): Promise<void> {
  const { client } = deps;
  const health = createHealthStore(deps.db);
  const id = account.adAccountId;
  if (readable && !readable.has(id)) {
    await health.recordCheck(id, 'access', 'problem', 'not among the ad accounts the token can read', at);
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
    if (isAccessLost(error)) await health.recordCheck(id, 'access', 'problem', errorMessage(error), at);
    else deps.log.warn(`health: ${id} could not be read: ${errorMessage(error)}`);
    return;
  }
  await health.recordCheck(id, 'access', 'ok', 'the token reads the account', at);
  await health.saveReadings(id, readingsFrom(rows, zone, at), at);
  const readings = (await health.readingsOf([id], readingsSinceDay(at))).get(id) ?? [];
  const verdict = judgeLeadTracking(readings, today.toISODate()!);
  await health.recordCheck(id, 'lead_tracking', verdict.broken ? 'problem' : 'ok', verdict.detail, at);
}

async function mailNewProblems(deps: HealthDeps, at: Date, names: Map<string, string>): Promise<void> {
  const health = createHealthStore(deps.db);
  for (const row of await health.claimUnalerted(at)) {
    const where =
      row.adAccountId === TOKEN_SCOPE && !(deps.connections && TOKEN_CHECKS.includes(row.check as HealthCheck))
        ? 'every ad account'
        : (names.get(row.adAccountId) ?? row.adAccountId);
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
    if (!sent) await health.releaseAlert(row);
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
  const folderIds = await createHealthStore(deps.db).foldersConcerned(row.adAccountId, row.check);
  // The same key for each folder: a global destination is claimed by the first and skipped after.
  for (const folderId of folderIds.length ? folderIds : [null])
    await queueWebhooks(deps, webhooks, { source: 'health', sourceKey, folderId, message });
}

/** One health check of the platform; never throws (a failed check is logged and retried next sync). */
export async function checkPlatformHealth(deps: HealthDeps): Promise<void> {
  const at = deps.now();
  const health = createHealthStore(deps.db);
  try {
    const accounts = await health.watchedAccounts();
    await checkApiVersion(deps, at);
    const tokens = await tokensOf(deps);
    // Each working token's readable accounts; a token that does not work leaves its accounts to its problem.
    const readable = new Map<string, Set<string> | null>();
    for (const token of tokens)
      if (await checkToken(deps, token, at)) readable.set(token.scope, await readableBy(deps, token));
    for (const account of accounts) {
      const scope = deps.connections ? await deps.connections.scopeOf(account.adAccountId) : TOKEN_SCOPE;
      if (readable.has(scope)) await checkAccount(deps, account, readable.get(scope)!, at);
    }
    const names = new Map([
      ...tokens.map((t) => [t.scope, `the ad accounts of the Meta connection “${t.name}”`] as const),
      ...accounts.map((a) => [a.adAccountId, a.accountName ?? a.adAccountId] as const),
    ]);
    await mailNewProblems(deps, at, names);
    await health.pruneReadings(readingsSinceDay(at));
  } catch (error) {
    deps.log.warn(`health: the check failed: ${errorMessage(error)}`);
  }
}
