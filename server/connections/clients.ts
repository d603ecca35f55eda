/**
 * The Graph client of each ad account: the token of the connection that serves it (the view
 * ad_account_connections: the oldest added connection reaching it, else the environment's), one
 * client per connection so each keeps its own pace (usage headers, back-off). Read from the
 * database and kept for a while (`ttlMs`); a change made in this process is seen at once (forget).
 */
import { GraphAuthError } from '../adplatform/errors';
import { actId, type GraphClient } from '../adplatform/graphClient';
import type { Database } from '../db/client';
import { adAccountConnections } from '../db/schema/index';
import { connectionScope, TOKEN_SCOPE } from '../../shared/health';
import type { CredentialCipher } from '../rules/credentials';
import { readIdentity, type TokenIdentity } from './identity';
import { connectionRows, type ConnectionRow } from './rows';
import { graphClientFor, type GraphAddress } from './tokenCheck';

export interface ServedConnection {
  id: number;
  name: string;
  environment: boolean;
  /** What its token's checks are kept under in account_health. */
  scope: string;
  /** null: this server's credentials key cannot open the stored token. */
  client: GraphClient | null;
  /** What its token is, asked of Graph now (throws GraphAuthError when refused). */
  identity(): Promise<TokenIdentity>;
}

interface Routing {
  connections: ServedConnection[];
  /** Ad account (act_…) → the connection serving it; absent: the environment's. */
  serving: Map<string, number>;
}

export interface ConnectionClientsDeps {
  db: Database;
  cipher: CredentialCipher;
  address: GraphAddress;
  /** The environment token's row (ensureEnvironmentConnection), its client and token. */
  environment: { id: number; client: GraphClient; token: string };
  ttlMs?: number;
  now?: () => number;
}

/** A stored token this server's credentials key cannot open: as unusable as one Meta refuses. */
export class UnreadableTokenError extends GraphAuthError {
  constructor(name: string) {
    super(0, {
      code: 190,
      message: `The stored token of the Meta connection “${name}” cannot be read with this server's credentials key: add the connection again`,
    });
    this.name = 'UnreadableTokenError';
  }
}

export class ConnectionClients {
  private routing: { at: number; value: Promise<Routing> } | undefined;
  /** Clients by connection, kept across reloads so each keeps its pace. */
  private readonly clients = new Map<number, GraphClient>();

  constructor(private readonly deps: ConnectionClientsDeps) {}

  /** The connections changed: read them again at the next call. */
  forget(): void {
    this.routing = undefined;
  }

  async connections(): Promise<ServedConnection[]> {
    return (await this.current()).connections;
  }

  /** The connection serving an ad account (act_… or digits); the environment's when none is known to. */
  async servingOf(adAccountId: string | undefined): Promise<ServedConnection> {
    const { connections, serving } = await this.current();
    const id = adAccountId === undefined ? undefined : serving.get(actId(adAccountId));
    return connections.find((c) => c.id === id) ?? connections.find((c) => c.environment)!;
  }

  /** The Graph client for an ad account's calls. */
  async forAccount(adAccountId: string | undefined): Promise<GraphClient> {
    const connection = await this.servingOf(adAccountId);
    if (!connection.client) throw new UnreadableTokenError(connection.name);
    return connection.client;
  }

  private current(): Promise<Routing> {
    const now = (this.deps.now ?? Date.now)();
    if (this.routing && now - this.routing.at < (this.deps.ttlMs ?? 30_000)) return this.routing.value;
    const value = this.load();
    this.routing = { at: now, value };
    value.catch(() => {
      if (this.routing?.value === value) this.routing = undefined;
    });
    return value;
  }

  private async load(): Promise<Routing> {
    const { db } = this.deps;
    const [rows, served] = await Promise.all([connectionRows(db), db.select().from(adAccountConnections)]);
    const connections = rows.map((row) => this.served(row));
    if (!connections.some((c) => c.environment)) connections.unshift(this.served(null));
    for (const id of this.clients.keys()) if (!rows.some((row) => row.id === id)) this.clients.delete(id);
    return { connections, serving: new Map(served.map((s) => [s.adAccountId, s.connectionId])) };
  }

  /** A row as served (null: the environment's, before its row exists). */
  private served(row: ConnectionRow | null): ServedConnection {
    const { environment, address, cipher } = this.deps;
    if (!row || row.source === 'environment')
      return {
        id: row?.id ?? environment.id,
        name: row?.name ?? 'META_ACCESS_TOKEN',
        environment: true,
        scope: TOKEN_SCOPE,
        client: environment.client,
        identity: () => readIdentity(environment.client, environment.token),
      };
    let token: string | null = null;
    try {
      token = row.token ? cipher.decryptText(row.token) : null;
    } catch {
      token = null;
    }
    let client = this.clients.get(row.id) ?? null;
    if (!client && token) {
      client = graphClientFor(address, token);
      this.clients.set(row.id, client);
    }
    return {
      id: row.id,
      name: row.name,
      environment: false,
      scope: connectionScope(row.id),
      client: token ? client : null,
      identity: async () => {
        if (!client || !token) throw new UnreadableTokenError(row.name);
        return readIdentity(client, token);
      },
    };
  }
}
