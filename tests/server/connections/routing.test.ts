/**
 * Every ad account's calls go out with the token of the connection that serves it, on both
 * databases against the Graph simulator: the built-in token reaches every account, an added
 * business's token two of them and serves those. When that token is revoked, its accounts' calls
 * fail and the health check shows its problem on every folder of those accounts (and on the
 * connection, the health panel and the ad accounts list), while the built-in token's folder is untouched.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphAuthError } from '../../../server/adplatform/errors';
import { GraphClient } from '../../../server/adplatform/graphClient';
import { startSimulator, type Simulator } from '../../../server/adplatform/simulator/index';
import { CampaignSync } from '../../../server/campaigns/sync';
import { ConnectionClients } from '../../../server/connections/clients';
import { healthTokens } from '../../../server/connections/healthTokens';
import { AccountRoutedClient } from '../../../server/connections/routedClient';
import { ensureEnvironmentConnection } from '../../../server/connections/rows';
import { createTokenChecker } from '../../../server/connections/tokenCheck';
import { adAccountConnections, metaConnectionAccounts, metaConnections } from '../../../server/db/schema/index';
import { createCredentialCipher } from '../../../server/rules/credentials';
import { checkPlatformHealth } from '../../../server/health/monitor';
import { createHealthStore } from '../../../server/health/store';
import { connectionScope, TOKEN_SCOPE } from '../../../shared/health';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';

const START = Math.floor(Date.now() / 3_600_000) * 3_600_000;
const ENVIRONMENT_TOKEN = 'simulator-token';
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

eachDatabase((engine) => {
  describe(`calls routed by ad account on ${engine}`, () => {
    let sim: Simulator;
    let api: TestApi;
    let admin: TestUser;
    let clients: ConnectionClients;
    let routed: AccountRoutedClient;
    let accounts: string[];
    let token: string;
    let connectionId: number;
    const folders = new Map<string, number>();

    beforeAll(async () => {
      sim = await startSimulator({ scenarios: [], start: START, speed: 0, accounts: 3, campaignsPerAccount: 1 });
      accounts = sim.world.accounts.map((a) => `act_${a.accountId}`);
      const address = { baseUrl: sim.url, apiVersion: 'v25.0' };
      const environmentClient = new GraphClient({ ...address, accessToken: ENVIRONMENT_TOKEN, maxAttempts: 1 });
      api = await createTestApi(engine, {
        services: { metaConnections: { check: createTokenChecker(address).check, changed: () => clients.forget() } },
      });
      clients = new ConnectionClients({
        db: api.dbh.db,
        cipher: api.app.credentials,
        address,
        environment: {
          id: await ensureEnvironmentConnection(api.dbh.db, 'Built-in: the Graph simulator'),
          client: environmentClient,
          token: ENVIRONMENT_TOKEN,
        },
      });
      routed = new AccountRoutedClient(clients, api.dbh.db, quiet);
      admin = await api.userWith('superuser');
      token = sim.issueToken({ business: 'Northwind Advisors', accounts: accounts.slice(0, 2) });
      const added = await api.request(admin.token, {
        method: 'POST',
        url: '/api/meta_connections/',
        payload: { token },
      });
      expect(added.statusCode, added.body).toBe(201);
      connectionId = added.json().id;
      await new CampaignSync(api.dbh.db, routed).syncAdAccounts();
      for (const [index, account] of [accounts[0]!, accounts[2]!].entries()) {
        const folder = await api.request(admin.token, {
          method: 'POST',
          url: '/api/general_page/',
          payload: {
            client_type: 'EDM',
            plan: 'solo',
            meta_ad_account_id: account,
            name: `Folder ${index}`,
            extension: { external_credentials: { demio: null } },
          },
        });
        expect(folder.statusCode, folder.body).toBe(201);
        folders.set(account, folder.json().id);
      }
    });
    afterAll(async () => {
      await api.close();
      await sim.close();
    });

    const firstAdOf = (account: string) =>
      [...sim.world.ads.values()].find((ad) => `act_${ad.accountId}` === account)!.id;

    it('lists every account once and records which token reaches which; the added one serves its accounts', async () => {
      const listed = await routed.listAdAccounts();
      expect(listed.map((a) => a.id).sort()).toEqual([...accounts].sort());
      const reach = await api.dbh.db
        .select()
        .from(metaConnectionAccounts)
        .where(eq(metaConnectionAccounts.connectionId, connectionId));
      expect(reach.map((r) => r.adAccountId).sort()).toEqual(accounts.slice(0, 2).sort());
      const serving = await api.dbh.db.select().from(adAccountConnections);
      expect(Object.fromEntries(serving.map((s) => [s.adAccountId, s.healthScope]))).toEqual({
        [accounts[0]!]: `connection:${connectionId}`,
        [accounts[1]!]: `connection:${connectionId}`,
        [accounts[2]!]: '*',
      });
    });

    it("sends each account's calls, reads and writes, with its serving connection's token", async () => {
      const ad = firstAdOf(accounts[0]!);
      const [paused] = await routed.setStatuses([{ id: ad, status: 'PAUSED' }], { accountId: accounts[0] });
      expect(paused).toEqual({ id: ad, ok: true });
      expect(sim.inspect(ad).status).toBe('PAUSED');
      await routed.setStatuses([{ id: ad, status: 'ACTIVE' }], { accountId: accounts[0] });

      sim.tokens.revoke(token);
      await expect(routed.listCampaigns(accounts[0]!)).rejects.toBeInstanceOf(GraphAuthError);
      await expect(routed.getInsights(accounts[1]!, { level: 'campaign' })).rejects.toBeInstanceOf(GraphAuthError);
      const [refused] = await routed.setStatuses([{ id: ad, status: 'PAUSED' }], { accountId: accounts[0] });
      expect(refused!.ok).toBe(false);
      expect(sim.inspect(ad).status).toBe('ACTIVE');
      // The built-in token's account is untouched.
      expect((await routed.listCampaigns(accounts[2]!)).length).toBeGreaterThan(0);
    });

    it("shows a revoked token on every folder it serves, on the connection and on the health panel, and no one else's", async () => {
      await checkPlatformHealth({
        db: api.dbh.db,
        client: routed,
        connections: healthTokens(clients, api.dbh.db),
        now: () => new Date(),
        log: quiet,
      });
      const rows = (await api.request(admin.token, { method: 'GET', url: '/api/general_page/?limit=20' })).json()
        .results as { id: number; health?: { check: string; state: string; detail: string }[] }[];
      const healthOf = (account: string) => rows.find((f) => f.id === folders.get(account))!.health ?? [];
      expect(healthOf(accounts[0]!)).toEqual([
        expect.objectContaining({
          check: 'token',
          state: 'problem',
          detail: expect.stringMatching(/^Error validating access token: The session has been invalidated/),
        }),
      ]);
      expect(healthOf(accounts[2]!).filter((p) => p.state === 'problem')).toEqual([]);

      const connection = (
        await api.request(admin.token, { method: 'GET', url: `/api/meta_connections/${connectionId}/` })
      ).json();
      expect(connection.status).toBe('problem');
      const panel = (await api.request(admin.token, { method: 'GET', url: '/api/platform_health/' })).json();
      expect(panel.connections).toEqual([
        expect.objectContaining({ id: connectionId, problems: [expect.objectContaining({ check: 'token' })] }),
      ]);
      expect(panel.token.problems).toEqual([]);
      const stateOf = (account: string) =>
        panel.accounts.find((a: { ad_account_id: string }) => a.ad_account_id === account).state;
      expect([stateOf(accounts[0]!), stateOf(accounts[2]!)]).toEqual(['problem', 'ok']);
      const listed = (await api.request(admin.token, { method: 'GET', url: '/api/meta_ad_account/?limit=400' })).json();
      const health = Object.fromEntries(
        listed.results.map((a: { ad_account_id: string; health: string }) => [a.ad_account_id, a.health]),
      );
      expect([health[accounts[0]!], health[accounts[1]!]]).toEqual(['problem', 'problem']);
      expect(health[accounts[2]!]).not.toBe('problem');

      // Its alert goes to the webhooks of the folders it serves; the built-in token's to the others'.
      const healthStore = createHealthStore(api.dbh.db);
      expect(await healthStore.foldersConcerned(connectionScope(connectionId), 'token')).toEqual([
        folders.get(accounts[0]!),
      ]);
      expect(await healthStore.foldersConcerned(TOKEN_SCOPE, 'token')).toEqual([folders.get(accounts[2]!)]);
      expect(await healthStore.foldersConcerned(TOKEN_SCOPE, 'api_version')).toEqual(
        [...folders.values()].sort((a, b) => a - b),
      );
    });

    it('lets the built-in token serve the accounts again once the connection is removed', async () => {
      const removed = await api.request(admin.token, {
        method: 'DELETE',
        url: `/api/meta_connections/${connectionId}/`,
      });
      expect(removed.statusCode).toBe(204);
      expect((await routed.listCampaigns(accounts[0]!)).length).toBeGreaterThan(0);
      const rows = (await api.request(admin.token, { method: 'GET', url: '/api/general_page/?limit=20' })).json()
        .results as { id: number; health?: { check: string }[] }[];
      expect(rows.find((f) => f.id === folders.get(accounts[0]!))!.health ?? []).not.toContainEqual(
        expect.objectContaining({ check: 'token' }),
      );
    });

    it("shows a stored token this server's key cannot read as its connection's problem, and fails its calls", async () => {
      const foreign = createCredentialCipher('another-key-of-at-least-32-bytes-long!');
      const [moved] = await api.dbh.db
        .insert(metaConnections)
        .values({ name: 'Moved here', token: foreign.encryptText(sim.issueToken()) })
        .returning();
      await api.dbh.db
        .insert(metaConnectionAccounts)
        .values({ connectionId: moved!.id, adAccountId: accounts[1]!, accountName: 'Moved account' });
      clients.forget();
      await expect(routed.listCampaigns(accounts[1]!)).rejects.toBeInstanceOf(GraphAuthError);
      await checkPlatformHealth({
        db: api.dbh.db,
        client: routed,
        connections: healthTokens(clients, api.dbh.db),
        now: () => new Date(),
        log: quiet,
      });
      const connection = (
        await api.request(admin.token, { method: 'GET', url: `/api/meta_connections/${moved!.id}/` })
      ).json();
      expect(connection.status).toBe('problem');
      expect(connection.problems[0].detail).toMatch(/cannot be read with this server's credentials key/);
    });
  });
});
