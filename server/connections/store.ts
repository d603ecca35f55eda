/**
 * The Meta connections' API (routes.ts): the list with each token's status, one connection with the
 * ad accounts it reaches, adding one (the token checked with Graph, stored encrypted, its accounts
 * known at once) and removing one, each change with its audit entry. A token is never answered.
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  accountHealth,
  adAccountConnections,
  metaAdAccounts,
  metaConnectionAccounts,
  metaConnections,
} from '../db/schema/index';
import { describeValues, recordAudit, type AuditActor } from '../audit/log';
import { badRequest, notFound, ValidationError } from '../http/errors';
import type { PageRequest, Slice } from '../http/pagination';
import type { CredentialCipher } from '../rules/credentials';
import { saveAdAccounts } from '../campaigns/sync';
import { createHealthStore } from '../health/store';
import { recordTokenWorks } from '../health/tokenChecks';
import { connectionScope, TOKEN_CHECKS, TOKEN_SCOPE, type HealthProblemDto } from '../../shared/health';
import {
  CONNECTION_MESSAGES,
  type ConnectionAdAccountDto,
  type MetaConnectionDetailDto,
  type MetaConnectionDto,
  type MetaConnectionInput,
} from '../../shared/metaConnections';
import { connectionRows, identityColumns, saveReach, type ConnectionRow } from './rows';
import type { CheckedToken } from './tokenCheck';

/** What adding and removing need beyond the database: Graph's word on a token, and the clients told. */
export interface MetaConnectionsService {
  /** Who the token is and what it reaches; a refusal as `{token: [...]}` (tokenCheck.ts). */
  check(token: string): Promise<CheckedToken>;
  /** The connections changed: the Graph clients per ad account are read again (clients.ts). */
  changed(): void;
}

type HealthRow = typeof accountHealth.$inferSelect;

const scopeOf = (row: ConnectionRow) => (row.source === 'environment' ? TOKEN_SCOPE : connectionScope(row.id));
const iso = (date: Date | null) => (date ? date.toISOString() : null);

function statusOf(health: HealthRow[]): MetaConnectionDto['status'] {
  if (health.some((h) => h.state === 'problem')) return 'problem';
  if (health.some((h) => h.state === 'warning')) return 'warning';
  return health.length ? 'ok' : 'unchecked';
}

function toDto(row: ConnectionRow, accounts: number, health: HealthRow[]): MetaConnectionDto {
  const problems: HealthProblemDto[] = health
    .filter((h) => h.state !== 'ok')
    .map((h) => ({
      check: h.check as HealthProblemDto['check'],
      state: h.state as HealthProblemDto['state'],
      detail: h.detail,
      since: h.since.toISOString(),
    }));
  return {
    id: row.id,
    name: row.name,
    source: row.source === 'environment' ? 'environment' : 'added',
    system_user: row.systemUserId ? { id: row.systemUserId, name: row.systemUserName ?? row.systemUserId } : null,
    business: row.businessId ? { id: row.businessId, name: row.businessName ?? row.businessId } : null,
    token_type: row.tokenType,
    scopes: row.scopes,
    expires_at: iso(row.expiresAt),
    ad_accounts_count: accounts,
    status: statusOf(health),
    problems,
    checked_at: iso(row.checkedAt),
    created_at: row.createdAt.toISOString(),
  };
}

/** PostgreSQL's unique_violation: adding, only the one-connection-per-system-user index can raise it. */
const isSameSystemUser = (error: unknown): boolean => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
};

export function createMetaConnectionStore(
  db: Database,
  { cipher, service }: { cipher: CredentialCipher; service: MetaConnectionsService },
) {
  async function dtosOf(rows: ConnectionRow[]): Promise<MetaConnectionDto[]> {
    if (!rows.length) return [];
    const scopes = rows.map(scopeOf);
    const [counts, health] = await Promise.all([
      db
        .select({ id: metaConnectionAccounts.connectionId, n: count() })
        .from(metaConnectionAccounts)
        .where(
          inArray(
            metaConnectionAccounts.connectionId,
            rows.map((r) => r.id),
          ),
        )
        .groupBy(metaConnectionAccounts.connectionId),
      db
        .select()
        .from(accountHealth)
        .where(and(inArray(accountHealth.adAccountId, scopes), inArray(accountHealth.check, [...TOKEN_CHECKS]))),
    ]);
    return rows.map((row) =>
      toDto(
        row,
        counts.find((c) => c.id === row.id)?.n ?? 0,
        health.filter((h) => h.adAccountId === scopeOf(row)),
      ),
    );
  }

  async function find(id: number): Promise<ConnectionRow> {
    const [row] = await db.select().from(metaConnections).where(eq(metaConnections.id, id));
    if (!row) throw notFound();
    return row;
  }

  async function accountsOf(id: number): Promise<ConnectionAdAccountDto[]> {
    const rows = await db
      .select({
        ad_account_id: metaConnectionAccounts.adAccountId,
        account_name: sql<string>`coalesce(${metaAdAccounts.accountName}, ${metaConnectionAccounts.accountName})`,
        served: sql<boolean>`coalesce(${adAccountConnections.connectionId} = ${metaConnectionAccounts.connectionId}, false)`,
      })
      .from(metaConnectionAccounts)
      .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, metaConnectionAccounts.adAccountId))
      .leftJoin(adAccountConnections, eq(adAccountConnections.adAccountId, metaConnectionAccounts.adAccountId))
      .where(eq(metaConnectionAccounts.connectionId, id))
      .orderBy(sql`2`, asc(metaConnectionAccounts.adAccountId));
    return rows.map((r) => ({ ...r, served: Boolean(r.served) }));
  }

  async function get(id: number): Promise<MetaConnectionDetailDto> {
    const row = await find(id);
    const [[dto], accounts] = await Promise.all([dtosOf([row]), accountsOf(id)]);
    return { ...dto!, reached_accounts: accounts };
  }

  async function list({ limit, offset }: PageRequest): Promise<Slice<MetaConnectionDto>> {
    const rows = await connectionRows(db);
    return { count: rows.length, results: await dtosOf(rows.slice(offset, offset + limit)) };
  }

  async function add(actor: AuditActor, input: MetaConnectionInput): Promise<MetaConnectionDetailDto> {
    const { identity, accounts } = await service.check(input.token);
    const name = input.name?.trim() || identity.business?.name || identity.systemUser.name;
    const at = new Date();
    let id: number;
    try {
      id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(metaConnections)
          .values({
            name,
            source: 'added',
            token: cipher.encryptText(input.token),
            ...identityColumns(identity),
            checkedAt: at,
            createdBy: actor.id,
          })
          .returning({ id: metaConnections.id });
        await saveReach(tx, row!.id, accounts);
        await saveAdAccounts(tx, accounts, at);
        await recordAudit(tx, actor, {
          action: `Added Meta connection ${name}`,
          changesText: describeValues({
            Business: identity.business?.name,
            'System user': identity.systemUser.name,
            'Ad accounts': accounts.length,
            Permissions: identity.scopes.join(', '),
            Expires: identity.expiresAt ? identity.expiresAt.toISOString().slice(0, 10) : 'never',
          }),
        });
        return row!.id;
      });
    } catch (error) {
      if (!isSameSystemUser(error)) throw error;
      const [other] = await db
        .select({ name: metaConnections.name })
        .from(metaConnections)
        .where(and(eq(metaConnections.source, 'added'), eq(metaConnections.systemUserId, identity.systemUser.id)));
      throw new ValidationError({
        token: [CONNECTION_MESSAGES.sameSystemUser(other?.name ?? identity.systemUser.name)],
      });
    }
    await recordTokenWorks(db, connectionScope(id), identity.expiresAt, at);
    service.changed();
    return get(id);
  }

  async function remove(actor: AuditActor, id: number): Promise<void> {
    await db.transaction(async (tx) => {
      const [row] = await tx.select().from(metaConnections).where(eq(metaConnections.id, id)).for('update');
      if (!row) throw notFound();
      if (row.source === 'environment') throw badRequest(CONNECTION_MESSAGES.builtIn);
      const [reached] = await tx
        .select({ n: count() })
        .from(metaConnectionAccounts)
        .where(eq(metaConnectionAccounts.connectionId, id));
      await createHealthStore(tx).removeChecksOf(connectionScope(id));
      await tx.delete(metaConnections).where(eq(metaConnections.id, id));
      await recordAudit(tx, actor, {
        action: `Removed Meta connection ${row.name}`,
        changesText: describeValues({
          Business: row.businessName,
          'System user': row.systemUserName,
          'Ad accounts': reached?.n ?? 0,
        }),
      });
    });
    service.changed();
  }

  return { list, get, add, remove };
}

export type MetaConnectionStore = ReturnType<typeof createMetaConnectionStore>;
