/**
 * The platform's health as stored (account_health, account_day_readings): recording each check's
 * result, which accounts hold their rules' runs, claiming a problem's one alert, and the answers
 * of the health panel and the folder rows.
 *
 * A check is kept under an ad account, or under a token's scope: an account's problems are its own,
 * its serving connection's token's (ad_account_connections: '*' for the environment's token,
 * 'connection:<id>' for an added one), and the whole platform's (the other checks kept under '*').
 */
import { and, eq, gte, inArray, isNull, lt, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  accountDayReadings,
  accountHealth,
  adAccountConnections,
  folders,
  metaAdAccounts,
  metaConnections,
} from '../db/schema/index';
import {
  connectionScope,
  TOKEN_CHECKS,
  TOKEN_SCOPE,
  type AccountHealthDto,
  type HealthCheck,
  type HealthProblemDto,
  type PlatformHealthDto,
} from '../../shared/health';
import { measureLeadLag, type DayReading } from './checks';

export type HealthState = 'ok' | 'problem' | 'warning';
type HealthRow = typeof accountHealth.$inferSelect;

/** The condition on account_health (joined to the account `account` and its serving connection) of the rows that concern it. */
const concerns = (account: SQL) => sql`(${accountHealth.adAccountId} = ${account}
  or ${accountHealth.adAccountId} = coalesce(${adAccountConnections.healthScope}, ${TOKEN_SCOPE})
  or (${accountHealth.adAccountId} = ${TOKEN_SCOPE} and ${accountHealth.check} <> all(${sql.param(TOKEN_CHECKS)}::text[])))`;

const problemDto = (row: HealthRow): HealthProblemDto => ({
  check: row.check as HealthCheck,
  state: row.state as HealthProblemDto['state'],
  detail: row.detail,
  since: row.since.toISOString(),
});

/** Each check's result as recorded, a problem's one alert claimed or released, a removed scope's checks dropped. */
function checkRecordsOf(db: Database) {
  /**
   * Records one check's result. A change of state starts a new `since` and clears the alert claim,
   * so a problem that comes back is alerted again; the same state only refreshes detail and time.
   */
  async function recordCheck(
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
  async function claimUnalerted(at: Date): Promise<HealthRow[]> {
    return db
      .update(accountHealth)
      .set({ alertedAt: at })
      .where(and(eq(accountHealth.state, 'problem'), isNull(accountHealth.alertedAt)))
      .returning();
  }

  /** A claimed alert that could not be sent is claimable again at the next check. */
  async function releaseAlert(row: Pick<HealthRow, 'adAccountId' | 'check'>): Promise<void> {
    await db
      .update(accountHealth)
      .set({ alertedAt: null })
      .where(and(eq(accountHealth.adAccountId, row.adAccountId), eq(accountHealth.check, row.check)));
  }

  /** Every check kept under this account or token scope goes (a removed connection's token's). */
  async function removeChecksOf(adAccountId: string): Promise<void> {
    await db.delete(accountHealth).where(eq(accountHealth.adAccountId, adAccountId));
  }

  return { recordCheck, removeChecksOf, claimUnalerted, releaseAlert };
}

/** The problems of accounts, as the runs' hold and the folder rows ask for them. */
function accountProblemsOf(db: Database) {
  /**
   * Each of these accounts with its problems in the given states, its token's and the platform's
   * first; accounts with none are absent. One statement: the folder list reads it with every page.
   */
  async function problemsOf(adAccountIds: string[], states: HealthState[]): Promise<Map<string, HealthProblemDto[]>> {
    const byAccount = new Map<string, HealthProblemDto[]>();
    if (!adAccountIds.length) return byAccount;
    const asked = sql.raw('asked.id');
    const rows = await db
      .select({ account: sql<string>`${asked}`, row: accountHealth })
      .from(sql`unnest(${sql.param(adAccountIds)}::text[]) as asked(id)`)
      .leftJoin(adAccountConnections, eq(adAccountConnections.adAccountId, asked))
      .innerJoin(accountHealth, and(inArray(accountHealth.state, states), concerns(asked)));
    for (const id of adAccountIds) {
      const own = rows.filter((r) => r.account === id);
      const ordered = [...own.filter((r) => r.row.adAccountId !== id), ...own.filter((r) => r.row.adAccountId === id)];
      if (ordered.length)
        byAccount.set(
          id,
          ordered.map((r) => problemDto(r.row)),
        );
    }
    return byAccount;
  }

  /** The accounts among these whose rules' runs are held, each with its problems. */
  const heldAccounts = (adAccountIds: string[]) => problemsOf(adAccountIds, ['problem']);

  /** What the folder rows show: each account with a problem or warning. */
  const folderHealth = (adAccountIds: string[]) => problemsOf(adAccountIds, ['problem', 'warning']);

  return { heldAccounts, folderHealth };
}

/** The daily readings the lead-lag measure is worked out from. */
function dayReadingsOf(db: Database) {
  async function saveReadings(adAccountId: string, readings: DayReading[], at: Date) {
    if (!readings.length) return;
    await db
      .insert(accountDayReadings)
      .values(readings.map((r) => ({ adAccountId, ...r, readAt: at })))
      .onConflictDoNothing();
  }

  async function readingsOf(adAccountIds: string[], sinceDay: string): Promise<Map<string, DayReading[]>> {
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

  async function pruneReadings(beforeDay: string): Promise<void> {
    await db.delete(accountDayReadings).where(lt(accountDayReadings.day, beforeDay));
  }

  return { saveReadings, readingsOf, pruneReadings };
}

/** The accounts whose health matters, and the folders a problem concerns. */
function watchedAccountsOf(db: Database) {
  /** The ad accounts of live folders: the ones whose health matters. */
  async function watchedAccounts() {
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

  /** The accounts a connection's token serves (by its health scope). */
  const servedUnder = (scope: string, served = true) =>
    db
      .select({ id: adAccountConnections.adAccountId })
      .from(adAccountConnections)
      .where(served ? eq(adAccountConnections.healthScope, scope) : ne(adAccountConnections.healthScope, scope));

  /** The folders' accounts a problem kept under `scope` concerns; undefined: every one. */
  function accountsConcerned(scope: string, check: string): SQL | undefined {
    if (scope.startsWith('connection:')) return inArray(folders.adAccountId, servedUnder(scope));
    if (scope !== TOKEN_SCOPE) return eq(folders.adAccountId, scope);
    // The environment token's own checks: the accounts no added connection serves.
    if (TOKEN_CHECKS.includes(check as HealthCheck))
      return notInArray(folders.adAccountId, servedUnder(TOKEN_SCOPE, false));
    return undefined;
  }

  /** The live folders a problem concerns: the account's, those its token serves, or every one for the platform's. */
  async function foldersConcerned(scope: string, check: string): Promise<number[]> {
    const rows = await db
      .select({ id: folders.id })
      .from(folders)
      .where(and(eq(folders.isDeleted, false), accountsConcerned(scope, check)))
      .orderBy(folders.id);
    return rows.map((row) => row.id);
  }

  return { watchedAccounts, foldersConcerned };
}

/** The health panel's answer. */
function healthPanelOf(db: Database) {
  const { readingsOf } = dayReadingsOf(db);
  const { watchedAccounts } = watchedAccountsOf(db);

  /** The health panel: the environment token's checks, each added connection's, and every watched account's. */
  async function platformHealth(readingsSince: string): Promise<PlatformHealthDto> {
    const [accounts, rows, serving, connections] = await Promise.all([
      watchedAccounts(),
      db.select().from(accountHealth),
      db.select().from(adAccountConnections),
      db
        .select({ id: metaConnections.id, name: metaConnections.name })
        .from(metaConnections)
        .where(eq(metaConnections.source, 'added'))
        .orderBy(metaConnections.id),
    ]);
    const readings = await readingsOf(
      accounts.map((a) => a.adAccountId),
      readingsSince,
    );
    const latest = (own: HealthRow[]) =>
      own.length ? new Date(Math.max(...own.map((r) => r.checkedAt.getTime()))).toISOString() : null;
    const problemsUnder = (scope: string, checks = (_check: string) => true) =>
      rows.filter((r) => r.adAccountId === scope && r.state !== 'ok' && checks(r.check)).map(problemDto);
    const tokenRows = rows.filter((r) => r.adAccountId === TOKEN_SCOPE);
    const tokenProblems = problemsUnder(TOKEN_SCOPE);
    const platformProblems = problemsUnder(TOKEN_SCOPE, (check) => !TOKEN_CHECKS.includes(check as HealthCheck));
    const scopeOf = new Map(serving.map((s) => [s.adAccountId, s.healthScope]));
    const dto = (a: (typeof accounts)[number]): AccountHealthDto => {
      const own = rows.filter((r) => r.adAccountId === a.adAccountId);
      const scope = scopeOf.get(a.adAccountId) ?? TOKEN_SCOPE;
      const problems = [
        ...(scope === TOKEN_SCOPE ? tokenProblems : [...problemsUnder(scope), ...platformProblems]),
        ...own.filter((r) => r.state !== 'ok').map(problemDto),
      ];
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
      connections: connections.map((c) => {
        const scope = connectionScope(c.id);
        return {
          id: c.id,
          name: c.name,
          problems: problemsUnder(scope),
          checked_at: latest(rows.filter((r) => r.adAccountId === scope)),
        };
      }),
      accounts: accounts.map(dto).sort((x, y) => Number(y.state === 'problem') - Number(x.state === 'problem')),
    };
  }

  return { platformHealth };
}

export function createHealthStore(db: Database) {
  return {
    ...checkRecordsOf(db),
    ...accountProblemsOf(db),
    ...dayReadingsOf(db),
    ...watchedAccountsOf(db),
    ...healthPanelOf(db),
  };
}

export type HealthStore = ReturnType<typeof createHealthStore>;
