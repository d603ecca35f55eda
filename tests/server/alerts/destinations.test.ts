/**
 * Alerts to the configured destinations: the alert destinations an admin saves (global or for one
 * folder, the URL encrypted) decide where digests, held runs and platform-health alerts are posted.
 * Only active ones; a folder's own destination hears only that folder's alerts; each alert once.
 * A real HTTP server stands in for Slack.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storedDestinations } from '../../../server/alerts/destinations';
import type { DeliveryQueue } from '../../../server/alerts/deliveryQueue';
import { webhookDeliveries } from '../../../server/db/schema/index';
import { table as alertDestinations } from '../../../shared/resources/alertDestinations';
import { runAlert } from '../../../server/alerts/digests';
import { DEFAULT_LIMITS } from '../../../server/judgement/blastRadius';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import { checkPlatformHealth } from '../../../server/health/monitor';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { CapturingMailer, engineContext, FakePlatform, quietLog, seedAccount, seedRule } from '../run/support';
import { alertSettings, buttonUrl, deliveriesTo, eventually, WebhookReceiver } from './receiver';

const SLOT = new Date('2024-01-15T12:00:00Z');
const MONDAY = 1;
const SEVEN_AM_NY = new Date('2024-01-15T12:00:00Z');

eachDatabase((engine) => {
  describe(`alert destinations on ${engine}`, () => {
    let api: TestApi;
    let receiver: WebhookReceiver;
    let platform: FakePlatform;
    let mailer: CapturingMailer;

    beforeAll(async () => {
      api = await createTestApi(engine);
      receiver = new WebhookReceiver();
      await receiver.start();
    });
    afterAll(async () => {
      await receiver.close();
      await api.close();
    });

    let queue: DeliveryQueue | undefined;

    beforeEach(() => {
      receiver.received.length = 0;
      platform = new FakePlatform();
      mailer = new CapturingMailer();
    });
    afterEach(async () => {
      await queue?.stop();
      queue = undefined;
    });

    const CAPS = { global: 5, perFolder: 5 };
    /** Every delivery of the alerts raised so far, each once: posted at its first attempt. */
    const everyDeliveryPostedOnce = () =>
      eventually(async () => {
        const rows = await api.dbh.db.select().from(webhookDeliveries);
        expect(rows.map((row) => [row.state, row.attempts])).toEqual(rows.map(() => ['sent', 1]));
      });
    const paths = () => receiver.received.map((r) => r.path).sort();

    /** A destination stored as the resource stores it: the URL encrypted with the server's key. */
    const addDestination = async (path: string, folderId: number | null, isActive = true) => {
      await api.dbh.db.insert(alertDestinations).values({
        name: path,
        folder_id: folderId,
        url: api.app.credentials.encryptText(receiver.url(path)),
        is_active: isActive,
      });
    };

    const alerts = async () => {
      const destinations = storedDestinations(api.dbh.db, api.app.credentials, undefined, CAPS);
      queue = await deliveriesTo(api.dbh, destinations, receiver.policy());
      return alertSettings(mailer, queue);
    };

    /** A folder with its own destination, and another folder with its own (never to hear this one's alerts). */
    async function folderWithDestination(options: Parameters<typeof seedRule>[2] = {}) {
      const account = await seedAccount(api.dbh.db);
      const seeded = await seedRule(api.dbh.db, account.adAccountId, options);
      await addDestination(`/folder-${seeded.folder.id}`, seeded.folder.id);
      const other = await seedRule(api.dbh.db, (await seedAccount(api.dbh.db)).adAccountId);
      await addDestination(`/folder-${other.folder.id}`, other.folder.id);
      return { account, ...seeded };
    }

    it('reads the destinations saved through the API: active ones, global and the folder’s own, each URL once', async () => {
      const admin = await api.userWith('superuser');
      const folderOf = async () => (await seedRule(api.dbh.db, (await seedAccount(api.dbh.db)).adAccountId)).folder.id;
      const [a, b] = [await folderOf(), await folderOf()];
      const save = async (name: string, folderId: number | null, url: string, active = true) => {
        const response = await api.request(admin.token, {
          method: 'POST',
          url: '/api/alert_destinations/',
          payload: { name, folder_id: folderId, url, is_active: active },
        });
        expect(response.statusCode).toBe(201);
      };
      const hook = (name: string) => `https://hooks.example.com/services/T1/B1/${name}`;
      await save('Everyone', null, hook('everyone'));
      await save('Paused channel', null, hook('paused'), false);
      await save('Harbor', a, hook('harbor'));
      await save('Harbor again', a, hook('everyone'));
      await save('Cove', b, hook('cove'));

      const destinations = storedDestinations(api.dbh.db, api.app.credentials, hook('from-env'), CAPS);
      const urls = async (folderId: number | null) => (await destinations.forFolder(folderId)).map((d) => d.url);
      expect(await urls(a)).toEqual([hook('from-env'), hook('everyone'), hook('harbor')]);
      expect(await urls(b)).toEqual([hook('from-env'), hook('everyone'), hook('cove')]);
      expect(await urls(null)).toEqual([hook('from-env'), hook('everyone')]);
      await api.dbh.db.delete(alertDestinations);
    });

    it('refuses to save an address that is not public https on port 443, answering on the URL field', async () => {
      const admin = await api.userWith('superuser');
      const save = (url: string) =>
        api.request(admin.token, {
          method: 'POST',
          url: '/api/alert_destinations/',
          payload: { name: 'Probe', folder_id: null, url, is_active: true },
        });
      for (const [url, message] of [
        ['https://127.0.0.1/services/x', 'Enter a public address: this host leads to a loopback address'],
        ['https://[::ffff:10.0.0.1]/x', 'Enter a public address: this host leads to an IPv4-mapped address'],
        ['https://169.254.169.254/latest/meta-data', 'Enter a public address: this host leads to a link-local address'],
        ['https://hooks.example.com:8443/x', 'Use the standard https port (443)'],
        ['https://me:pw@hooks.example.com/x', 'Leave the user name and password out of the address'],
      ]) {
        const response = await save(url!);
        expect(response.statusCode, url).toBe(400);
        expect(response.json(), url).toEqual({ url: [message] });
      }
      expect(await api.dbh.db.select().from(alertDestinations)).toEqual([]);
    });

    // It opens a product of its own (a fresh database): given the time a hook would be.
    it('refuses a destination over the cap of every folder or of one, answering on the folder field', async () => {
      const capped = await createTestApi(engine, { config: { alertMaxDestinations: { global: 1, perFolder: 1 } } });
      try {
        const admin = await capped.userWith('superuser');
        const folder = (await seedRule(capped.dbh.db, (await seedAccount(capped.dbh.db)).adAccountId)).folder.id;
        const save = (name: string, folderId: number | null) =>
          capped.request(admin.token, {
            method: 'POST',
            url: '/api/alert_destinations/',
            payload: { name, folder_id: folderId, url: `https://hooks.example.com/${name}`, is_active: true },
          });
        expect((await save('everyone', null)).statusCode).toBe(201);
        const second = await save('everyone-too', null);
        expect(second.statusCode).toBe(400);
        expect(second.json()).toEqual({ folder_id: ["At most 1 destinations may receive every folder's alerts"] });
        const own = await save('own', folder);
        expect(own.statusCode).toBe(201);
        const another = await save('own-too', folder);
        expect(another.json()).toEqual({ folder_id: ['At most 1 destinations may be set for one folder'] });
        // Editing the one there is stays possible.
        const edited = await capped.request(admin.token, {
          method: 'PATCH',
          url: `/api/alert_destinations/${own.json().id}/`,
          payload: { name: 'own, renamed' },
        });
        expect(edited.statusCode).toBe(200);
      } finally {
        await capped.close();
      }
    }, 120_000);

    describe('posting alerts', () => {
      beforeAll(async () => {
        await addDestination('/global', null);
        await addDestination('/switched-off', null, false);
      });

      it('posts a held run to the global and the folder’s own destinations, with the link where it is approved', async () => {
        const { account, rule, folder } = await folderWithDestination({
          everyDayAt: [12],
          tasks: { spend_cpl_no_leads: { spend: '100' } },
        });
        platform.addCampaign(account.adAccountId, 'c1', 'EDM EP-W 2026-03-04 6PM');
        for (const id of ['over1', 'over2', 'over3']) platform.addAd(account.adAccountId, 'c1', id, { spend: '300' });
        platform.addAd(account.adAccountId, 'c1', 'under', { spend: '20' });
        const context = engineContext(api.dbh.db, platform, () => SLOT, {
          limits: DEFAULT_LIMITS,
          alerts: await alerts(),
        });
        const result = await runSlot(context, { ruleId: rule.id, slot: SLOT, kind: 'run' });
        expect(result.status).toBe('held');

        await everyDeliveryPostedOnce();
        expect(paths()).toEqual(['/global', `/folder-${folder.id}`].sort());
        const runLink = `http://console.test/edit-rule/${rule.id}?run=${result.runId}`;
        for (const { body } of receiver.received) {
          expect(body.text).toMatch(/^Held for approval: /);
          expect(buttonUrl(body)).toBe(runLink);
        }
        expect(mailer.sent).toHaveLength(1);
      });

      it('posts a digest once to the global and the folder’s own destinations', async () => {
        const { account, rule, folder } = await folderWithDestination({
          timezone: 'America/New_York',
          hours: [[MONDAY, 6]],
          alertHours: [7],
          ruleName: 'EP-W: Pause ad CPL > $50',
        });
        platform.addCampaign(account.adAccountId, 'c1', 'EDM EP-W 2024-02-01 6PM');
        platform.addAd(account.adAccountId, 'c1', 'expensive', { spend: '186.30', leads: 3 });
        platform.addAd(account.adAccountId, 'c1', 'cheap', { spend: '90', leads: 3 });
        await runSlot(
          engineContext(api.dbh.db, platform, () => new Date(SEVEN_AM_NY.getTime() + 60_000)),
          { ruleId: rule.id, slot: new Date('2024-01-15T11:00:00Z'), kind: 'run' },
        );
        const context = { db: api.dbh.db, log: quietLog, ...(await alerts()) };
        expect((await runAlert(context, rule.id, SEVEN_AM_NY)).status).toBe('sent');
        expect((await runAlert(context, rule.id, SEVEN_AM_NY)).status).toBe('already_done');

        await everyDeliveryPostedOnce();
        expect(paths()).toEqual(['/global', `/folder-${folder.id}`].sort());
        for (const { body } of receiver.received) {
          expect(JSON.stringify(body.blocks)).toContain('turn off ad expensive (CPL: $62.10 &gt; $50.00');
          expect(buttonUrl(body)).toBe(`http://console.test/activity?rule_id=${rule.id}`);
        }
      });

      it('posts a platform-health problem once to the global destinations and those of the account’s folders', async () => {
        const { account, folder } = await folderWithDestination({ everyDayAt: [12] });
        const deps = { db: api.dbh.db, client: platform, now: () => SLOT, alerts: await alerts(), log: quietLog };
        // The fake platform lists no ad account: the token lost this one (and the other folders' accounts).
        await checkPlatformHealth(deps);
        await checkPlatformHealth(deps);

        const title = `Platform health: the token can no longer read the ad account — ${account.accountName}`;
        await everyDeliveryPostedOnce();
        const about = receiver.received.filter((r) => r.body.text.startsWith(title));
        expect(about.map((r) => r.path).sort()).toEqual(['/global', `/folder-${folder.id}`].sort());
        expect(buttonUrl(about[0]!.body)).toBe('http://console.test/health');
        expect(mailer.sent.filter((m) => m.subject === title)).toHaveLength(1);
        // No destination hears the same problem twice, and none of a folder on another account hears it.
        const posts = receiver.received.map((r) => `${r.path} ${r.body.text.split('\n')[0]}`);
        expect(new Set(posts).size).toBe(posts.length);
        expect(receiver.received.map((r) => r.path)).not.toContain('/switched-off');
      });
    });
  });
});
