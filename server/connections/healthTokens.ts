/**
 * The Meta connections as the platform health check asks about them (server/health/monitor.ts):
 * each token's identity, read from Graph and kept on its row, and which one serves each account.
 */
import type { Database } from '../db/client';
import type { CheckedToken, HealthDeps } from '../health/monitor';
import type { ConnectionClients } from './clients';
import { UnreadableTokenError } from './clients';
import { saveIdentity } from './rows';

export function healthTokens(clients: ConnectionClients, db: Database): NonNullable<HealthDeps['connections']> {
  return {
    async list(): Promise<CheckedToken[]> {
      return (await clients.connections()).map((connection) => ({
        scope: connection.scope,
        name: connection.name,
        async identity() {
          const identity = await connection.identity();
          await saveIdentity(db, connection.id, identity, new Date());
          return identity;
        },
        listAdAccounts: () =>
          connection.client
            ? connection.client.listAdAccounts()
            : Promise.reject(new UnreadableTokenError(connection.name)),
      }));
    },
    scopeOf: async (adAccountId) => (await clients.servingOf(adAccountId)).scope,
  };
}
