/**
 * The connections' rows as the sync, the health check and the Graph clients read and write them:
 * the environment's one row, what a token was last found to be, and the ad accounts it reached.
 */
import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { metaConnectionAccounts, metaConnections } from '../db/schema/index';
import { actId } from '../adplatform/graphClient';
import type { AdAccount } from '../adplatform/types';
import type { TokenIdentity } from './identity';

export type ConnectionRow = typeof metaConnections.$inferSelect;

/** The environment token's row (META_ACCESS_TOKEN, or the simulator's), created on first start; its id. */
export async function ensureEnvironmentConnection(db: Database, name: string): Promise<number> {
  const [row] = await db
    .insert(metaConnections)
    .values({ name, source: 'environment' })
    .onConflictDoUpdate({
      target: metaConnections.source,
      targetWhere: sql`source = 'environment'`,
      set: { name: sql`excluded.name` },
    })
    .returning({ id: metaConnections.id });
  return row!.id;
}

/** Every connection, the environment's first, then the added ones in the order they were added. */
export const connectionRows = (db: Database) =>
  db
    .select()
    .from(metaConnections)
    .orderBy(sql`${metaConnections.source} = 'environment' desc`, asc(metaConnections.id));

export const identityColumns = (identity: TokenIdentity) => ({
  systemUserId: identity.systemUser.id,
  systemUserName: identity.systemUser.name,
  businessId: identity.business?.id ?? null,
  businessName: identity.business?.name ?? null,
  tokenType: identity.tokenType,
  scopes: identity.scopes,
  expiresAt: identity.expiresAt,
});

export async function saveIdentity(db: Database, connectionId: number, identity: TokenIdentity, at: Date) {
  await db
    .update(metaConnections)
    .set({ ...identityColumns(identity), checkedAt: at })
    .where(eq(metaConnections.id, connectionId));
}

/** An ad account as Graph lists it → its id as the product keeps it (act_…). */
export const accountIdOf = (account: AdAccount) => actId(account.id || account.account_id);

/**
 * The accounts a connection's token reaches now: those listed are kept (their names refreshed),
 * the others dropped. Safe when two processes record the same listing at once.
 */
export async function saveReach(db: Database, connectionId: number, accounts: AdAccount[]): Promise<void> {
  const reached = [...new Map(accounts.map((a) => [accountIdOf(a), a.name])).entries()];
  const mine = eq(metaConnectionAccounts.connectionId, connectionId);
  await db.delete(metaConnectionAccounts).where(
    reached.length
      ? and(
          mine,
          notInArray(
            metaConnectionAccounts.adAccountId,
            reached.map(([id]) => id),
          ),
        )
      : mine,
  );
  if (!reached.length) return;
  await db
    .insert(metaConnectionAccounts)
    .values(reached.map(([adAccountId, accountName]) => ({ connectionId, adAccountId, accountName })))
    .onConflictDoUpdate({
      target: [metaConnectionAccounts.connectionId, metaConnectionAccounts.adAccountId],
      set: { accountName: sql`excluded.account_name` },
      setWhere: sql`${metaConnectionAccounts.accountName} <> excluded.account_name`,
    });
}
