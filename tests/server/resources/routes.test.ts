/**
 * The resources defined in one file, through the API on PGlite and PostgreSQL: alert destinations
 * (create, list, edit, delete; the webhook address stored encrypted and answered masked; the folder
 * checked; the audit log) and ad accounts (read-only, with their sync state).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../server/db/schema/index';
import { createCredentialCipher } from '../../../server/rules/credentials';
import { table as alertDestinations } from '../../../shared/resources/alertDestinations';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { call, createFolder, insertAccount, RULES_ADMIN } from '../rules/fixtures';

const HOOK = 'https://hooks.slack.com/services/T000/B000/abcdefghWXYZ';

eachDatabase((engine) => {
  describe(`resources defined in one file on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    let folderId: number;
    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith(RULES_ADMIN);
      folderId = (await createFolder(api, admin.token, await insertAccount(api))).id;
    });
    afterAll(() => api.close());

    it('keeps a webhook encrypted, answers it masked, and keeps it when the mask comes back', async () => {
      const created = await call(api, admin.token, 'POST', '/api/alert_destinations/', {
        name: 'Ops channel',
        folder_id: folderId,
        url: HOOK,
        is_active: true,
      });
      expect(created.statusCode).toBe(201);
      const destination = created.json();
      expect(destination).toEqual({
        id: expect.any(Number),
        name: 'Ops channel',
        folder_id: folderId,
        url: '********WXYZ',
        is_active: true,
        // Nothing delivered yet: no last delivery, no failures.
        last_delivery_at: null,
        last_delivery_source: null,
        last_answer_code: null,
        last_delivery_error: null,
        consecutive_failures: 0,
      });
      const [stored] = await api.dbh.db
        .select()
        .from(alertDestinations)
        .where(eq(alertDestinations.id, destination.id));
      expect(stored!.url).not.toContain('hooks.slack.com');
      expect(stored!.url).toMatch(/^v2\./);

      const renamed = await call(api, admin.token, 'PATCH', `/api/alert_destinations/${destination.id}/`, {
        name: 'Ops',
        url: '********WXYZ',
      });
      expect(renamed.json()).toMatchObject({ name: 'Ops', url: '********WXYZ' });
      const [kept] = await api.dbh.db.select().from(alertDestinations).where(eq(alertDestinations.id, destination.id));
      expect(kept!.url).toBe(stored!.url);

      const list = await call(api, admin.token, 'GET', '/api/alert_destinations/?search=ops');
      expect(list.json()).toMatchObject({ count: 1, results: [{ name: 'Ops', url: '********WXYZ' }] });
      const log = await api.dbh.db.select().from(auditLog);
      expect(log.map((entry) => entry.action)).toEqual(
        expect.arrayContaining(['Added alert destination Ops channel', 'Changed alert destination Ops']),
      );
      expect(JSON.stringify(log)).not.toContain('hooks.slack.com');

      const deleted = await call(api, admin.token, 'DELETE', `/api/alert_destinations/${destination.id}/`);
      expect(deleted.statusCode).toBe(204);
      expect((await call(api, admin.token, 'GET', `/api/alert_destinations/${destination.id}/`)).statusCode).toBe(404);
    });

    it('says "needs re-entry" for a webhook the server\'s key cannot read, and keeps no mask in its place', async () => {
      const created = (
        await call(api, admin.token, 'POST', '/api/alert_destinations/', { name: 'Moved', url: HOOK, is_active: true })
      ).json();
      // Written under another key (the database was restored without its CREDENTIALS_KEY).
      const foreign = createCredentialCipher('another-key-of-at-least-32-bytes-long!').encryptText(HOOK);
      await api.dbh.db.update(alertDestinations).set({ url: foreign }).where(eq(alertDestinations.id, created.id));

      const shown = await call(api, admin.token, 'GET', `/api/alert_destinations/${created.id}/`);
      expect(shown.json()).toMatchObject({ name: 'Moved', url: 'needs re-entry' });
      const list = await call(api, admin.token, 'GET', '/api/alert_destinations/?search=moved');
      expect(list.json()).toMatchObject({ count: 1, results: [{ name: 'Moved', url: 'needs re-entry' }] });

      // Sent back as shown, or masked: refused, and the stored value stays as it was.
      for (const url of ['needs re-entry', '********WXYZ', '********']) {
        const kept = await call(api, admin.token, 'PATCH', `/api/alert_destinations/${created.id}/`, { url });
        expect(kept.statusCode, url).toBe(400);
        expect(Object.keys(kept.json())).toEqual(['url']);
      }
      const [untouched] = await api.dbh.db.select().from(alertDestinations).where(eq(alertDestinations.id, created.id));
      expect(untouched!.url).toBe(foreign);

      const entered = await call(api, admin.token, 'PATCH', `/api/alert_destinations/${created.id}/`, { url: HOOK });
      expect(entered.json()).toMatchObject({ url: '********WXYZ' });
      await call(api, admin.token, 'DELETE', `/api/alert_destinations/${created.id}/`);
    });

    it('answers bad input field by field: an address that is not https, a folder that does not exist, a control character', async () => {
      const bad = await call(api, admin.token, 'POST', '/api/alert_destinations/', {
        name: ' ',
        url: 'http://hooks.example.com/x',
        is_active: true,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ name: ['Field is required'], url: ['Enter an https:// address'] });
      const noFolder = await call(api, admin.token, 'POST', '/api/alert_destinations/', {
        name: 'Elsewhere',
        folder_id: 999_999,
        url: HOOK,
        is_active: true,
      });
      expect(noFolder.statusCode).toBe(400);
      expect(noFolder.json()).toEqual({ folder_id: ['Select a folder from the list'] });
      const controlled = await call(api, admin.token, 'POST', '/api/alert_destinations/', {
        name: 'Ops\u0007 channel',
        url: HOOK,
        is_active: true,
      });
      expect(controlled.statusCode).toBe(400);
      expect(controlled.json()).toEqual({ name: ['Field must not contain control characters'] });
    });

    it('lets rule readers see destinations and only rule editors change them', async () => {
      const reader = await api.userWith(['read_rules']);
      expect((await call(api, reader.token, 'GET', '/api/alert_destinations/')).statusCode).toBe(200);
      const refused = await call(api, reader.token, 'POST', '/api/alert_destinations/', {});
      expect(refused.statusCode).toBe(403);
      const nobody = await api.userWith(['view_logs']);
      expect((await call(api, nobody.token, 'GET', '/api/alert_destinations/')).statusCode).toBe(403);
    });

    it('lists ad accounts with their sync state and health, read-only', async () => {
      const account = await insertAccount(api, { accountName: 'Zeta Advisers' });
      await api.dbh.sql.query(
        "update meta_ad_accounts set campaigns_synced_at = '2026-11-26T05:00:00Z', campaign_sync_error = 'rate limited' where ad_account_id = $1",
        [account.adAccountId],
      );
      const reader = await api.userWith(['add_edit_campaigns']);
      const one = await call(api, reader.token, 'GET', `/api/meta_ad_account/${account.adAccountId}/`);
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({
        ad_account_id: account.adAccountId,
        account_name: 'Zeta Advisers',
        campaigns_synced_at: '2026-11-26T05:00:00.000Z',
        campaign_sync_error: 'rate limited',
        health: 'unchecked',
      });
      const healthOf = async () =>
        (await call(api, reader.token, 'GET', `/api/meta_ad_account/?search=Zeta`)).json().results[0].health;
      const check = (adAccountId: string, name: string, state: string) =>
        api.dbh.sql.query(
          `insert into account_health (ad_account_id, "check", state) values ($1, $2, $3)
           on conflict (ad_account_id, "check") do update set state = excluded.state`,
          [adAccountId, name, state],
        );
      await check(account.adAccountId, 'access', 'ok');
      expect(await healthOf()).toBe('ok');
      await check('*', 'token', 'problem'); // the token's problem is every account's
      expect(await healthOf()).toBe('problem');
      await check('*', 'token', 'ok');
      await check(account.adAccountId, 'lead_tracking', 'problem');
      expect(await healthOf()).toBe('problem');
      const changed = await call(api, admin.token, 'PATCH', `/api/meta_ad_account/${account.adAccountId}/`, {});
      expect(changed.statusCode).toBe(404);
      // An id no row can have (a NUL the database cannot even compare) is a missing row, not an error.
      const nul = await call(api, reader.token, 'GET', '/api/meta_ad_account/act%00/');
      expect([nul.statusCode, nul.json()]).toEqual([404, { detail: 'Not found.' }]);
    });
  });
});
