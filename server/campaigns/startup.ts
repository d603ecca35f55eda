/**
 * Starts the ad platform (Meta or the simulator) with its Meta connections (every ad account's
 * calls made with the token of the connection that serves it, server/connections/), the campaign
 * sync service and, in processes that run background work (ROLE all or worker), the periodic sync
 * job. Ad accounts are synced before the server starts answering, so a fresh `npm start` lists them
 * at once; a slow or unreachable platform delays startup by at most ACCOUNT_SYNC_WAIT_MS and is
 * retried by the job.
 */
import type { Config } from '../config';
import type { DbHandle } from '../db/client';
import { SIMULATOR_TOKEN, startAdPlatform, type AdPlatform } from '../adplatform/index';
import { ConnectionClients } from '../connections/clients';
import { AccountRoutedClient } from '../connections/routedClient';
import { ensureEnvironmentConnection } from '../connections/rows';
import type { MetaConnectionsService } from '../connections/store';
import { createTokenChecker, type GraphAddress } from '../connections/tokenCheck';
import { credentialCipherFor } from '../rules/credentials';
import { CampaignSync, type SyncLog } from './sync';
import { startSyncJob } from './job';

const ACCOUNT_SYNC_WAIT_MS = 10_000;

export interface CampaignServices {
  platform: AdPlatform;
  services: { adPlatform: AccountRoutedClient; campaignSync: CampaignSync; metaConnections: MetaConnectionsService };
  /** Every connection with its client: the health check asks each token. */
  connections: ConnectionClients;
  stop(): Promise<void>;
}

const consoleLog: SyncLog = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
};

export async function startCampaignServices(
  config: Config,
  dbh: DbHandle,
  env: NodeJS.ProcessEnv = process.env,
  log: SyncLog = consoleLog,
): Promise<CampaignServices> {
  const platform = await startAdPlatform(config, env, log);
  const address: GraphAddress = {
    baseUrl: platform.baseUrl,
    apiVersion: config.metaApiVersion,
    onEvent: platform.onEvent,
  };
  const environment = {
    id: await ensureEnvironmentConnection(
      dbh.db,
      platform.mode === 'meta' ? 'Built-in: META_ACCESS_TOKEN' : 'Built-in: the Graph simulator',
    ),
    client: platform.client,
    token: config.metaAccessToken ?? SIMULATOR_TOKEN,
  };
  const connections = new ConnectionClients({
    db: dbh.db,
    cipher: await credentialCipherFor(config),
    address,
    environment,
  });
  const client = new AccountRoutedClient(connections, dbh.db, log);
  const metaConnections: MetaConnectionsService = {
    check: createTokenChecker(address).check,
    changed: () => connections.forget(),
  };
  const sync = new CampaignSync(dbh.db, client, { log });

  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ACCOUNT_SYNC_WAIT_MS);
  });
  const first = await Promise.race([sync.syncAdAccounts().catch((error: unknown) => error), waited]);
  clearTimeout(timer);
  if (first === 'late') log.warn('sync: the ad platform is slow; ad accounts will appear when the sync finishes');
  else if (first instanceof Error)
    log.warn(`sync: could not read ad accounts (${first.message}); the sync job retries`);

  const job =
    config.role === 'api'
      ? undefined
      : startSyncJob(dbh.db, sync, { intervalMinutes: config.campaignSyncMinutes, log });
  return {
    platform,
    services: { adPlatform: client, campaignSync: sync, metaConnections },
    connections,
    async stop() {
      await job?.stop();
      await platform.stop();
    },
  };
}
