import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, pgView, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { adAccountId, instant, instantNow, serialId } from './columns';
import { users } from './people';

/**
 * Meta business connections (server/connections/): the tokens the product reads and writes Graph
 * with. `source` 'added': a system-user token an admin added in the app, stored encrypted (never
 * answered, logged or shown again); 'environment': META_ACCESS_TOKEN (or the simulator's), one row
 * that holds what was read of it but never the token. What the token is (system user, business,
 * scopes, expiry) is as Graph last said (`checked_at`).
 */
export const metaConnections = pgTable(
  'meta_connections',
  {
    id: serialId(),
    name: text('name').notNull(),
    source: text('source').notNull().default('added'),
    /** The token, encrypted with the credentials key (server/rules/credentials.ts); null for the environment's. */
    token: text('token'),
    systemUserId: text('system_user_id'),
    systemUserName: text('system_user_name'),
    businessId: text('business_id'),
    businessName: text('business_name'),
    /** SYSTEM_USER, USER … as debug_token says. */
    tokenType: text('token_type'),
    scopes: jsonb('scopes').$type<string[]>().notNull().default([]),
    /** null: it never expires (or Graph did not say). */
    expiresAt: instant('expires_at'),
    checkedAt: instant('checked_at'),
    createdAt: instantNow('created_at'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('meta_connections_environment_unique').on(t.source).where(sql`source = 'environment'`),
    // One connection per system user: a second token of the same one is a mistake, not a new business.
    uniqueIndex('meta_connections_system_user_unique').on(t.systemUserId).where(sql`source = 'added'`),
  ],
);

/** The ad accounts each connection's token reached when last listed (`/me/adaccounts`). */
export const metaConnectionAccounts = pgTable(
  'meta_connection_accounts',
  {
    connectionId: integer('connection_id')
      .notNull()
      .references(() => metaConnections.id, { onDelete: 'cascade' }),
    adAccountId: adAccountId().notNull(),
    accountName: text('account_name').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.adAccountId] }),
    index('meta_connection_accounts_account_idx').on(t.adAccountId, t.connectionId),
  ],
);

/**
 * The connection that serves each ad account it reaches (its Graph client, its token's health):
 * the oldest added connection that reaches it, else the environment's. An account no connection
 * is known to reach is served by the environment's too (TOKEN_SCOPE). `health_scope` is what the
 * token's checks are kept under in account_health: '*' for the environment's, 'connection:<id>'.
 * Created by migration 0040 (drizzle-kit does not write views).
 */
export const adAccountConnections = pgView('ad_account_connections', {
  adAccountId: adAccountId().notNull(),
  connectionId: integer('connection_id').notNull(),
  healthScope: text('health_scope').notNull(),
}).existing();
