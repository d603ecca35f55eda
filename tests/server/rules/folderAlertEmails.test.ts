/**
 * A folder's own alert recipients (`alert_emails`): set when the folder is created or updated
 * (validated, each address once), logged as folder changes are, answered with the folder and in the
 * rule's folder, and used by the mail alerts of the folder's rules — through the configured mailer
 * (a real SMTP server here) — while a folder without them keeps the default recipients.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, folders } from '../../../server/db/schema/index';
import { runAlert } from '../../../server/alerts/digests';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import { mailerFromConfig } from '../../../server/mail/mailer';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { CapturingMailer, engineContext, FakePlatform, quietLog, seedAccount, seedRule } from '../run/support';
import { type SmtpPeer, startSmtpPeer } from '../mail/support';
import { call, createFolder, insertAccount, RULES_ADMIN } from './fixtures';

const MONDAY = 1;
const SEVEN_AM_NY = new Date('2024-01-15T12:00:00Z');

eachDatabase((engine) => {
  describe(`a folder's alert recipients on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    let peer: SmtpPeer;

    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith(RULES_ADMIN);
      peer = await startSmtpPeer();
    });
    afterAll(async () => {
      await peer.close();
      await api.close();
    });

    it('are saved trimmed, each address once, answered with the folder and in its rules; none by default', async () => {
      const account = await insertAccount(api);
      const plain = await createFolder(api, admin.token, account, { name: 'No recipients' });
      expect((plain as unknown as { alert_emails: string[] }).alert_emails).toEqual([]);
      const folder = await createFolder(api, admin.token, account, {
        name: 'Own recipients',
        alert_emails: [' ana@example.com ', 'ben@example.org', 'ANA@example.com', ''],
      });
      expect((folder as unknown as { alert_emails: string[] }).alert_emails).toEqual([
        'ana@example.com',
        'ben@example.org',
      ]);
      const rule = (await call(api, admin.token, 'GET', `/api/rule/${folder.rules[0]!.id}/`)).json();
      expect(rule.folder.alert_emails).toEqual(['ana@example.com', 'ben@example.org']);
      // A change that leaves them out keeps them; an empty list goes back to the defaults.
      const renamed = await call(api, admin.token, 'PATCH', `/api/general_page/${folder.id}/`, { name: 'Renamed' });
      expect(renamed.json().alert_emails).toEqual(['ana@example.com', 'ben@example.org']);
      const cleared = await call(api, admin.token, 'PATCH', `/api/general_page/${folder.id}/`, { alert_emails: [] });
      expect(cleared.json().alert_emails).toEqual([]);
    });

    it('refuse what is not an e-mail address, and more than 20, on the field', async () => {
      const account = await insertAccount(api);
      const refused = async (alert_emails: unknown) => {
        const response = await call(api, admin.token, 'POST', '/api/general_page/', {
          client_type: 'EDM',
          plan: 'solo',
          meta_ad_account_id: account.adAccountId,
          name: 'Refused',
          extension: { external_credentials: { demio: null } },
          alert_emails,
        });
        expect(response.statusCode).toBe(400);
        return response.json();
      };
      expect(await refused(['ana@example.com', 'nope', 'x<y@example.com>'])).toEqual({
        alert_emails: ['Not an e-mail address: nope, x<y@example.com>'],
      });
      expect(await refused(Array.from({ length: 21 }, (_, i) => `p${i}@example.com`))).toEqual({
        alert_emails: ['At most 20 recipients'],
      });
      expect(await refused('ana@example.com')).toEqual({ alert_emails: ['Enter a list of e-mail addresses'] });
      expect(await api.dbh.db.select().from(folders).where(eq(folders.name, 'Refused'))).toEqual([]);
    });

    it('are logged as folder changes are', async () => {
      const account = await insertAccount(api);
      const folder = await createFolder(api, admin.token, account, {
        name: 'Logged',
        alert_emails: ['ana@example.com'],
      });
      await call(api, admin.token, 'PATCH', `/api/general_page/${folder.id}/`, {
        alert_emails: ['ana@example.com', 'ben@example.org'],
      });
      await call(api, admin.token, 'PATCH', `/api/general_page/${folder.id}/`, { alert_emails: [] });
      const entries = await api.dbh.db
        .select({ action: auditLog.action, changes: auditLog.changesText })
        .from(auditLog)
        .where(eq(auditLog.folderId, folder.id))
        .orderBy(auditLog.id);
      expect(entries.filter((e) => e.action.startsWith('Folder'))).toEqual([
        { action: 'Folder created', changes: expect.stringContaining('Alert recipients: ana@example.com') },
        {
          action: 'Folder updated',
          changes: 'Alert recipients: ana@example.com → ana@example.com, ben@example.org',
        },
        {
          action: 'Folder updated',
          changes: 'Alert recipients: ana@example.com, ben@example.org → the default recipients',
        },
      ]);
    });

    it("mail a rule's digest to its folder's recipients over SMTP; a folder without them keeps the defaults", async () => {
      const platform = new FakePlatform();
      const defaults = new CapturingMailer();
      const smtp = mailerFromConfig({ smtpUrl: peer.url, mailFrom: 'Console <robot@example.com>', dataDir: '/none' });
      const context = {
        db: api.dbh.db,
        log: quietLog,
        mailer: defaults,
        recipients: ['ops@example.com'],
        folderMailer: smtp,
        publicUrl: 'http://console.test',
      };
      const ruleWithActions = async (name: string) => {
        const account = await seedAccount(api.dbh.db);
        const seeded = await seedRule(api.dbh.db, account.adAccountId, {
          timezone: 'America/New_York',
          hours: [[MONDAY, 6]],
          alertHours: [7],
          ruleName: name,
        });
        platform.addCampaign(account.adAccountId, `c-${name}`, 'EDM EP-W 2024-02-01 6PM');
        platform.addAd(account.adAccountId, `c-${name}`, `expensive-${name}`, { spend: '186.30', leads: 3 });
        await runSlot(
          engineContext(api.dbh.db, platform, () => new Date(SEVEN_AM_NY.getTime() + 60_000)),
          { ruleId: seeded.rule.id, slot: new Date('2024-01-15T11:00:00Z'), kind: 'run' },
        );
        return seeded;
      };
      const own = await ruleWithActions('Own');
      await api.dbh.db
        .update(folders)
        .set({ alertEmails: ['ana@example.com', 'ben@example.org'] })
        .where(eq(folders.id, own.folder.id));
      const other = await ruleWithActions('Default');

      expect((await runAlert(context, own.rule.id, SEVEN_AM_NY)).status).toBe('sent');
      expect((await runAlert(context, other.rule.id, SEVEN_AM_NY)).status).toBe('sent');

      const mail = await peer.waitFor('ana@example.com');
      expect(mail.to.sort()).toEqual(['ana@example.com', 'ben@example.org']);
      expect(mail.subject).toMatch(/^Own: 1 rule action/);
      expect(peer.messages.filter((m) => m.subject.startsWith('Default:'))).toEqual([]);
      expect(defaults.sent.map((m) => [m.to, m.subject.split(':')[0]])).toEqual([['ops@example.com', 'Default']]);
      await smtp.close();
    });
  });
});
