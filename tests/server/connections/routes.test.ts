/**
 * The Meta connections' API on both databases against the Graph simulator's system-user tokens: an
 * admin adds a business's token, which Meta checks and the server keeps encrypted and never answers;
 * what Meta refuses comes back on the token field; only admins add and remove; every change is in
 * the audit log (without the token).
 */
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../server/adplatform/simulator/index';
import { ensureEnvironmentConnection } from '../../../server/connections/rows';
import { createTokenChecker } from '../../../server/connections/tokenCheck';
import { createCredentialCipher } from '../../../server/rules/credentials';
import { unreadableSecrets } from '../../../server/rules/unreadableSecrets';
import {
  accountHealth,
  auditLog,
  metaAdAccounts,
  metaConnectionAccounts,
  metaConnections,
} from '../../../server/db/schema/index';
import { connectionScope } from '../../../shared/health';
import { CONNECTION_MESSAGES } from '../../../shared/metaConnections';
import { PERMISSIONS } from '../../../shared/permissions';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';

// The simulator's clock at the server's: a token's expiry is judged against the server's clock.
const START = Math.floor(Date.now() / 3_600_000) * 3_600_000;
const DAY = 24 * 3_600_000;

eachDatabase((engine) => {
  describe(`Meta connections API on ${engine}`, () => {
    let sim: Simulator;
    let api: TestApi;
    let admin: TestUser;
    let changes = 0;
    let accounts: string[];

    beforeAll(async () => {
      sim = await startSimulator({ scenarios: [], start: START, speed: 0, accounts: 3, campaignsPerAccount: 1 });
      accounts = sim.world.accounts.map((a) => `act_${a.accountId}`);
      const check = createTokenChecker({ baseUrl: sim.url, apiVersion: 'v25.0' }).check;
      api = await createTestApi(engine, {
        services: { metaConnections: { check, changed: () => (changes += 1) } },
      });
      admin = await api.userWith('superuser', { firstName: 'Ada', lastName: 'Admin' });
    });
    afterAll(async () => {
      await api.close();
      await sim.close();
    });

    const call = (user: TestUser | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      api.request(user?.token ?? null, { method, url, ...(payload && { payload }) });
    const add = (payload: object, user: TestUser = admin) => call(user, 'POST', '/api/meta_connections/', payload);
    const lastAudit = async () => (await api.dbh.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0]!;

    it('adds a business connection: Meta checks the token, its accounts are known at once, the token stays inside', async () => {
      const token = sim.issueToken({
        system_user: 'Rules Robot',
        business: 'Northwind Advisors',
        accounts: accounts.slice(0, 2),
        expires_in_days: 60,
      });
      const before = changes;
      const response = await add({ name: '', token });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.body).not.toContain(token);
      const created = response.json();
      expect(created).toMatchObject({
        name: 'Northwind Advisors',
        source: 'added',
        business: { name: 'Northwind Advisors' },
        system_user: { name: 'Rules Robot' },
        token_type: 'SYSTEM_USER',
        scopes: ['ads_management', 'ads_read', 'business_management', 'leads_retrieval'],
        expires_at: new Date(START + 60 * DAY).toISOString(),
        ad_accounts_count: 2,
        status: 'ok',
        problems: [],
      });
      expect(created.reached_accounts.map((a: { ad_account_id: string }) => a.ad_account_id).sort()).toEqual(
        accounts.slice(0, 2).sort(),
      );
      expect(created.reached_accounts.every((a: { served: boolean }) => a.served)).toBe(true);
      expect(changes).toBe(before + 1);

      // Stored encrypted; the folders' account choices have its accounts at once.
      const [row] = await api.dbh.db.select().from(metaConnections).where(eq(metaConnections.id, created.id));
      expect(row!.token).not.toContain(token);
      expect(api.app.credentials.decryptText(row!.token!)).toBe(token);
      const known = await api.dbh.db.select().from(metaAdAccounts);
      expect(known.map((a) => a.adAccountId)).toEqual(expect.arrayContaining(accounts.slice(0, 2)));

      const entry = await lastAudit();
      expect(entry.action).toBe('Added Meta connection Northwind Advisors');
      expect(entry.changesText).toContain('Ad accounts: 2');
      expect(entry.changesText).not.toContain(token);

      const one = await call(admin, 'GET', `/api/meta_connections/${created.id}/`);
      expect(one.json()).toEqual(created);
      expect(one.body).not.toContain(token);
    });

    it('lists the built-in connection first, read-only', async () => {
      const builtIn = await ensureEnvironmentConnection(api.dbh.db, 'Built-in: META_ACCESS_TOKEN');
      const list = (await call(admin, 'GET', '/api/meta_connections/')).json();
      expect(list.results[0]).toMatchObject({ id: builtIn, source: 'environment', status: 'unchecked' });
      expect(list.count).toBe(list.results.length);
      const removed = await call(admin, 'DELETE', `/api/meta_connections/${builtIn}/`);
      expect(removed.statusCode).toBe(400);
      expect(removed.json()).toEqual({ detail: CONNECTION_MESSAGES.builtIn });
    });

    it('answers what Meta refuses on the token field', async () => {
      const refusedWith = async (token: string) => {
        const response = await add({ token });
        expect(response.statusCode, response.body).toBe(400);
        return response.json();
      };
      expect(await refusedWith('EAAnot-one-meta-issued')).toEqual({
        token: ['Meta refused this token: Invalid OAuth access token - Cannot parse access token'],
      });
      const revoked = sim.issueToken();
      sim.tokens.revoke(revoked);
      expect((await refusedWith(revoked)).token[0]).toMatch(
        /^Meta refused this token: Error validating access token: The session has been invalidated/,
      );
      const expired = sim.issueToken({ expires_in_days: 1 });
      sim.tokens.change(expired, { expires_at: new Date(START - DAY).toISOString() });
      expect((await refusedWith(expired)).token[0]).toMatch(/^Meta refused this token: .*Session has expired/);
      expect(await refusedWith(sim.issueToken({ scopes: ['ads_read'] }))).toEqual({
        token: [CONNECTION_MESSAGES.missingScope],
      });
      expect(await refusedWith('EAA has spaces')).toEqual({ token: [CONNECTION_MESSAGES.tokenOneWord] });
      expect((await add({ name: 'x'.repeat(101), token: '' })).json()).toEqual({
        name: ['Field must be at most 100 characters'],
        token: ['Field is required'],
      });
    });

    it('refuses a second connection of the same system user', async () => {
      const token = sim.issueToken({ system_user: 'Twice', business: 'Harbor Group', accounts: [accounts[2]!] });
      expect((await add({ name: 'Harbor', token })).statusCode).toBe(201);
      sim.tokens.change(token, { accounts: accounts });
      const again = await add({ name: 'Harbor again', token });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ token: [CONNECTION_MESSAGES.sameSystemUser('Harbor')] });
    });

    it('answers 502 when Meta cannot be asked', async () => {
      const check = createTokenChecker({ baseUrl: 'http://127.0.0.1:9', apiVersion: 'v25.0' }).check;
      await expect(check('EAAwhatever')).rejects.toMatchObject({
        statusCode: 502,
        body: { detail: expect.stringMatching(/^Meta could not be asked about this token: /) },
      });
    });

    it('lets only admins add and remove, and whoever sees the ad accounts read', async () => {
      const everything = await api.userWith([...PERMISSIONS]);
      const token = sim.issueToken({ system_user: 'Not by them' });
      const refused = await add({ token }, everything);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: CONNECTION_MESSAGES.adminsOnly });
      const [some] = (await call(admin, 'GET', '/api/meta_connections/')).json().results.slice(-1);
      expect((await call(everything, 'DELETE', `/api/meta_connections/${some.id}/`)).statusCode).toBe(403);
      for (const permission of ['read_rules', 'create_update_rules', 'add_edit_campaigns'] as const) {
        const reader = await api.userWith([permission]);
        expect((await call(reader, 'GET', '/api/meta_connections/')).statusCode).toBe(200);
        expect((await call(reader, 'GET', `/api/meta_connections/${some.id}/`)).statusCode).toBe(200);
      }
      expect((await call(await api.userWith(['view_logs']), 'GET', '/api/meta_connections/')).statusCode).toBe(403);
      expect((await call(null, 'GET', '/api/meta_connections/')).statusCode).toBe(401);
    });

    it('counts a stored token this server cannot read among the secrets a restore reports', async () => {
      const foreign = createCredentialCipher('another-key-of-at-least-32-bytes-long!');
      await api.dbh.db.insert(metaConnections).values({ name: 'Moved', token: foreign.encryptText('EAAmoved') });
      const report = await unreadableSecrets(api.dbh.sql, api.app.credentials);
      expect(report.unreadable['Meta connections (tokens)']).toBe(1);
    });

    it('removes an added connection with its accounts and token checks, and logs it', async () => {
      const token = sim.issueToken({ system_user: 'Leaving', business: 'Gone Ltd', accounts: [accounts[1]!] });
      const { id } = (await add({ token })).json();
      expect(
        await api.dbh.db
          .select()
          .from(accountHealth)
          .where(eq(accountHealth.adAccountId, connectionScope(id))),
      ).not.toHaveLength(0);
      const removed = await call(admin, 'DELETE', `/api/meta_connections/${id}/`);
      expect(removed.statusCode).toBe(204);
      expect((await call(admin, 'GET', `/api/meta_connections/${id}/`)).statusCode).toBe(404);
      expect(
        await api.dbh.db.select().from(metaConnectionAccounts).where(eq(metaConnectionAccounts.connectionId, id)),
      ).toEqual([]);
      expect(
        await api.dbh.db
          .select()
          .from(accountHealth)
          .where(eq(accountHealth.adAccountId, connectionScope(id))),
      ).toEqual([]);
      const entry = await lastAudit();
      expect(entry.action).toBe('Removed Meta connection Gone Ltd');
      expect(entry.actor).toBe('Ada Admin');
      expect((await call(admin, 'DELETE', `/api/meta_connections/${id}/`)).statusCode).toBe(404);
    });
  });
});
