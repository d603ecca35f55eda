/**
 * The platform's health as stored (account_health, account_day_readings): recording each check's
 * result, which accounts hold their rules' runs, claiming a problem's one alert, and the answers
 * of the health panel and the folder rows.
 */
import { and, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accountDayReadings, accountHealth, folders, metaAdAccounts } from '../db/schema/index';
import {
  TOKEN_SCOPE,
  type AccountHealthDto,
  type HealthCheck,
  type HealthProblemDto,
  type PlatformHealthDto,
} from '../../src/domain/health';
import { measureLeadLag, type DayReading } from './checks';

export type HealthState = 'ok' | 'problem' | 'warning';
type HealthRow = typeof accountHealth.$inferSelect;

/**
 * Records one check's result. A change of state starts a new `since` and clears the alert claim,
 * so a problem that comes back is alerted again; the same state only refreshes detail and time.
 */
export async function recordCheck(
  db: Database,
  adAccountId: string,
  check: HealthCheck,
  state: HealthState,
  detail: string,
  at: Date,
): Promise<void> {
  await db
    .insert(accountHealth)
    .values({ adAccountId, check, state, detail, since: at, checkedAt: at })
    .onConflictDoUpdate({
      target: [accountHealth.adAccountId, accountHealth.check],
      set: {
        detail: sql`excluded.detail`,
        checkedAt: sql`excluded.checked_at`,
        since: sql`case when ${accountHealth.state} = excluded.state then ${accountHealth.since} else excluded.since end`,
        alertedAt: sql`case when ${accountHealth.state} = excluded.state then ${accountHealth.alertedAt} else null end`,
        state: sql`excluded.state`,
      },
    });
}

/** Problems not yet alerted, each claimed by this caller (the first to claim mails it). */
export async function claimUnalerted(db: Database, at: Date): Promise<HealthRow[]> {
  return db
    .update(accountHealth)
    .set({ alertedAt: at })
    .where(and(eq(accountHealth.state, 'problem'), isNull(accountHealth.alertedAt)))
    .returning();
}

/** A claimed alert that could not be sent is claimable again at the next check. */
export async function releaseAlert(db: Database, row: Pick<HealthRow, 'adAccountId' | 'check'>): Promise<void> {
  await db
    .update(accountHealth)
    .set({ alertedAt: null })
    .where(and(eq(accountHealth.adAccountId, row.adAccountId), eq(accountHealth.check, row.check)));
}

/** Each of these accounts with its problems in the given states (the token's included); others are absent. */
async function problemsOf(
  db: Database,
  adAccountIds: string[],
  states: HealthState[],
): Promise<Map<string, HealthProblemDto[]>> {
  const byAccount = new Map<string, HealthProblemDto[]>();
  if (!adAccountIds.length) return byAccount;
  const rows = await db
    .select()
    .from(accountHealth)
    .where(
      and(inArray(accountHealth.state, states), inArray(accountHealth.adAccountId, [...adAccountIds, TOKEN_SCOPE])),
    );
  const token = rows.filter((r) => r.adAccountId === TOKEN_SCOPE).map(problemDto);
  for (const id of adAccountIds) {
    const own = [...token, ...rows.filter((r) => r.adAccountId === id).map(problemDto)];
    if (own.length) byAccount.set(id, own);
  }
  return byAccount;
}

/** The accounts among these whose rules' runs are held, each with its problems. */
export const heldAccounts = (db: Database, adAccountIds: string[]) => problemsOf(db, adAccountIds, ['problem']);

/** What the folder rows show: each account with a problem or warning. */
export const folderHealth = (db: Database, adAccountIds: string[]) =>
  problemsOf(db, adAccountIds, ['problem', 'warning']);

const problemDto = (row: HealthRow): HealthProblemDto => ({
  check: row.check as HealthCheck,
  state: row.state as HealthProblemDto['state'],
  detail: row.detail,
  since: row.since.toISOString(),
});

export async function saveReadings(db: Database, adAccountId: string, readings: DayReading[], at: Date) {
  if (!readings.length) return;
  await db
    .insert(accountDayReadings)
    .values(readings.map((r) => ({ adAccountId, ...r, readAt: at })))
    .onConflictDoNothing();
}

export async function readingsOf(
  db: Database,
  adAccountIds: string[],
  sinceDay: string,
): Promise<Map<string, DayReading[]>> {
  const byAccount = new Map<string, DayReading[]>();
  if (!adAccountIds.length) return byAccount;
  const rows = await db
    .select()
    .from(accountDayReadings)
    .where(and(inArray(accountDayReadings.adAccountId, adAccountIds), gte(accountDayReadings.day, sinceDay)));
  for (const r of rows)
    byAccount.set(r.adAccountId, [
      ...(byAccount.get(r.adAccountId) ?? []),
      {
        day: r.day,
        ageHours: r.ageHours,
        spend: r.spend,
        clicks: r.clicks,
        leads: r.leads,
        websiteLeads: r.websiteLeads,
      },
    ]);
  return byAccount;
}

export async function pruneReadings(db: Database, beforeDay: string): Promise<void> {
  await db.delete(accountDayReadings).where(lt(accountDayReadings.day, beforeDay));
}

/** The ad accounts of live folders: the ones whose health matters. */
export async function watchedAccounts(db: Database) {
  return db
    .selectDistinct({
      adAccountId: folders.adAccountId,
      accountName: metaAdAccounts.accountName,
      timezone: metaAdAccounts.timezoneName,
    })
    .from(folders)
    .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
    .where(eq(folders.isDeleted, false));
}

/** The live folders a problem concerns: the account's, or every one for the token's. */
export async function foldersConcerned(db: Database, adAccountId: string): Promise<number[]> {
  const live = eq(folders.isDeleted, false);
  const rows = await db
    .select({ id: folders.id })
    .from(folders)
    .where(adAccountId === TOKEN_SCOPE ? live : and(live, eq(folders.adAccountId, adAccountId)))
    .orderBy(folders.id);
  return rows.map((row) => row.id);
}

/** The health panel: the token's checks and every watched account's. */
export async function platformHealth(db: Database, readingsSince: string): Promise<PlatformHealthDto> {
  const [accounts, rows] = await Promise.all([watchedAccounts(db), db.select().from(accountHealth)]);
  const readings = await readingsOf(
    db,
    accounts.map((a) => a.adAccountId),
    readingsSince,
  );
  const tokenRows = rows.filter((r) => r.adAccountId === TOKEN_SCOPE);
  const latest = (own: HealthRow[]) =>
    own.length ? new Date(Math.max(...own.map((r) => r.checkedAt.getTime()))).toISOString() : null;
  const tokenProblems = tokenRows.filter((r) => r.state !== 'ok').map(problemDto);
  const dto = (a: (typeof accounts)[number]): AccountHealthDto => {
    const own = rows.filter((r) => r.adAccountId === a.adAccountId);
    const problems = [...tokenProblems, ...own.filter((r) => r.state !== 'ok').map(problemDto)];
    return {
      ad_account_id: a.adAccountId,
      account_name: a.accountName ?? a.adAccountId,
      state: problems.some((p) => p.state === 'problem') ? 'problem' : own.length ? 'ok' : 'unchecked',
      problems,
      checked_at: latest(own),
      lead_lag: measureLeadLag(readings.get(a.adAccountId) ?? []),
    };
  };
  return {
    token: { problems: tokenProblems, checked_at: latest(tokenRows) },
    accounts: accounts.map(dto).sort((x, y) => Number(y.state === 'problem') - Number(x.state === 'problem')),
  };
}
