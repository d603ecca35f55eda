/**
 * Alerts in Slack: digests and held runs go, besides the mail, to Slack-compatible incoming
 * webhooks through the delivery queue: each once per destination, posted side by side within a
 * deadline, retried with back-off, its status kept (never the answer's body, never the URL).
 * A real HTTP server on loopback stands in for Slack.
 */
import { createServer as createTlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configuredDestinations, type WebhookDestinations } from '../../../server/alerts/destinations';
import type { DeliveryQueue } from '../../../server/alerts/deliveryQueue';
import { slackMessage } from '../../../server/alerts/slackMessage';
import { createWebhookSender, WebhookError } from '../../../server/alerts/webhook';
import type { DbHandle } from '../../../server/db/client';
import { webhookDeliveries } from '../../../server/db/schema/index';
import { runAlert } from '../../../server/alerts/digests';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import { createRuleEngineService } from '../../../server/run/requestedRuns';
import { createTestApi, type TestApi } from '../../support/api';
import { alertSettings, buttonUrl, deliveriesTo, eventually, HOOK_HOST, policyFor, WebhookReceiver } from './receiver';
import { eachDatabase, freshDatabase } from '../../support/db';
import { CapturingMailer, engineContext, FakePlatform, quietLog, seedAccount, seedRule } from '../run/support';

const SECRET_PATH = '/services/T000/B000/very-secret-token';
const MONDAY = 1;
const SEVEN_AM_NY = new Date('2024-01-15T12:00:00Z');

describe('a Slack message from an alert’s parts', () => {
  it('has a header, the lead line, the list (escaped, cut after 20) and the action as a button', () => {
    const message = slackMessage({
      title: 'Held for approval: CPL > $50 (Harbor)',
      paragraphs: ['Rule "CPL > $50" acted on nothing', ...Array.from({ length: 23 }, (_, i) => `ad <${i}> & more`)],
      action: { label: 'Review and approve', url: 'http://console.test/edit-rule/4?run=9' },
    });
    expect(message.text).toBe(
      'Held for approval: CPL &gt; $50 (Harbor)\nRule "CPL &gt; $50" acted on nothing\nReview and approve: http://console.test/edit-rule/4?run=9',
    );
    expect(message.blocks![0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Held for approval: CPL > $50 (Harbor)' },
    });
    const list = (message.blocks![2] as { text: { text: string } }).text.text;
    expect(list.split('\n')[0]).toBe('• ad &lt;0&gt; &amp; more');
    expect(list.split('\n').at(-1)).toBe('… and 3 more');
    expect(buttonUrl(message)).toBe('http://console.test/edit-rule/4?run=9');
  });
});

describe('the connection to a webhook', () => {
  it('goes to the address checked, with the host name kept as the TLS server name', async () => {
    const names: string[] = [];
    const server = createTlsServer({
      SNICallback: (name, done) => {
        names.push(name);
        done(new Error('no certificate here'));
      },
    });
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const send = createWebhookSender({
      policy: { hosts: [`${HOOK_HOST}:${port}`, `127.0.0.1:${port}`], resolve: async () => ['127.0.0.1'] },
    });
    try {
      await expect(send(`https://${HOOK_HOST}:${port}/services/T/B/x`, { text: 'hi' })).rejects.toThrow(WebhookError);
      expect(names).toEqual([HOOK_HOST]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

eachDatabase((engine) => {
  describe(`webhook delivery on ${engine}`, () => {
    let receiver: WebhookReceiver;
    let queue: DeliveryQueue | undefined;

    beforeEach(async () => {
      receiver = new WebhookReceiver();
      await receiver.start();
      quietLog.lines.length = 0;
    });
    afterEach(async () => {
      await queue?.stop();
      queue = undefined;
      await receiver.close();
    });

    describe('from the queue, once per alert and destination', () => {
      let dbh: DbHandle;
      beforeAll(async () => {
        dbh = await freshDatabase(engine);
      });
      afterAll(() => dbh.close());

      const alert = (sourceKey: string, text: string) => ({
        source: 'health' as const,
        sourceKey,
        folderId: null,
        message: { text },
      });
      const rowOf = async (sourceKey: string) =>
        (await dbh.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.sourceKey, sourceKey)))[0];
      const start = async (destinations: WebhookDestinations, options = {}) => {
        queue = await deliveriesTo(dbh, destinations, receiver.policy(), options);
        return queue;
      };

      it('posts once, however often the alert is queued, and keeps the delivery’s status', async () => {
        // One worker takes the jobs in order: once the later alert is posted, a second post of the first would be too.
        const deliveries = await start(configuredDestinations(receiver.url(SECRET_PATH)), { atOnce: 1 });
        await deliveries.enqueue(alert('h1', 'Graph is slow'));
        await deliveries.enqueue(alert('h1', 'Graph is slow'));
        await deliveries.enqueue(alert('h1-later', 'Graph is back'));
        await eventually(async () => expect((await rowOf('h1-later'))?.state).toBe('sent'));
        expect(await rowOf('h1')).toMatchObject({ state: 'sent', attempts: 1, answerCode: 200, error: null });
        expect(receiver.received.map(({ path, host, body }) => ({ path, host, body }))).toEqual([
          { path: SECRET_PATH, host: `127.0.0.1:${receiver.port}`, body: { text: 'Graph is slow' } },
          { path: SECRET_PATH, host: `127.0.0.1:${receiver.port}`, body: { text: 'Graph is back' } },
        ]);
      });

      it('keeps a refused answer’s status without its body or the URL, and does not retry it', async () => {
        receiver.statuses.push(403);
        const deliveries = await start(configuredDestinations(receiver.url(SECRET_PATH)));
        await deliveries.enqueue(alert('h2', 'first words'));
        await eventually(async () => expect((await rowOf('h2'))?.state).toBe('failed'));
        const row = await rowOf('h2');
        expect(row).toMatchObject({ attempts: 1, answerCode: 403, error: 'the webhook answered 403' });
        expect(JSON.stringify(row)).not.toContain('invalid_token');
        expect(JSON.stringify(row)).not.toContain('very-secret-token');
        expect(quietLog.lines.join('\n')).not.toContain('very-secret-token');
      });

      it('retries a failing destination with the message queued first', async () => {
        receiver.statuses.push(503);
        const deliveries = await start(configuredDestinations(receiver.url(SECRET_PATH)));
        await deliveries.enqueue(alert('h3', 'first words'));
        await deliveries.enqueue(alert('h3', 'other words'));
        await eventually(async () => expect((await rowOf('h3'))?.state).toBe('sent'));
        expect(await rowOf('h3')).toMatchObject({ attempts: 2, answerCode: 200 });
        expect(receiver.received.map((r) => r.body.text)).toEqual(['first words']);
      });

      it('posts to the other destinations while one never answers, and gives that one up at its deadline', async () => {
        const silent = new WebhookReceiver();
        await silent.start();
        silent.hang = true;
        try {
          const destinations: WebhookDestinations = {
            forFolder: async () => [
              { key: 'silent', url: silent.url('/silent'), id: null, name: 'Silent' },
              { key: 'answering', url: receiver.url('/answering'), id: null, name: 'Answering' },
            ],
          };
          queue = await deliveriesTo(dbh, destinations, policyFor(silent, receiver), { timeoutMs: 30_000 });
          const held = silent.nextRequest();
          await queue.enqueue(alert('h4', 'Graph is slow'));
          await held;
          await eventually(() => expect(receiver.received.map((r) => r.path)).toEqual(['/answering']));
          expect(silent.held).toHaveLength(1);
          silent.release();
          await queue.stop();

          // The same with a deadline of a fifth of a second: the attempt ends, to be retried.
          queue = await deliveriesTo(dbh, destinations, policyFor(silent, receiver), { timeoutMs: 200 });
          await queue.enqueue(alert('h5', 'Graph is slow'));
          await eventually(async () => {
            const [row] = await dbh.db
              .select()
              .from(webhookDeliveries)
              .where(and(eq(webhookDeliveries.sourceKey, 'h5'), eq(webhookDeliveries.destination, 'silent')));
            expect(row).toMatchObject({ state: expect.stringMatching(/retrying|failed/), answerCode: null });
            expect(row!.error).toMatch(/^no answer within 0.2 s$/);
          });
        } finally {
          await silent.close();
        }
      });

      it('connects to the address the name was resolved to once, the name kept as Host', async () => {
        const deliveries = await start(configuredDestinations(receiver.url(SECRET_PATH, HOOK_HOST)));
        await deliveries.enqueue(alert('h6', 'by name'));
        await eventually(() => expect(receiver.received).toHaveLength(1));
        expect(receiver.received[0]!.host).toBe(`${HOOK_HOST}:${receiver.port}`);
      });

      it('refuses, before any connection, a destination whose name now resolves to a private address', async () => {
        queue = await deliveriesTo(dbh, configuredDestinations(receiver.url(SECRET_PATH, HOOK_HOST)), {
          ...receiver.policy(),
          resolve: async () => ['10.0.0.1'],
        });
        await queue.enqueue(alert('h7', 'x'));
        await eventually(async () => expect((await rowOf('h7'))?.state).toBe('refused'));
        expect(await rowOf('h7')).toMatchObject({
          attempts: 1,
          answerCode: null,
          error: 'Enter a public address: this host leads to a private network address',
        });
        expect(receiver.received).toEqual([]);
      });
    });

    describe('from the rule engine', () => {
      let api: TestApi;
      let platform: FakePlatform;
      let mailer: CapturingMailer;

      beforeAll(async () => {
        api = await createTestApi(engine);
      });
      afterAll(() => api.close());

      beforeEach(() => {
        platform = new FakePlatform();
        mailer = new CapturingMailer();
      });

      const alerts = async () => {
        queue = await deliveriesTo(api.dbh, configuredDestinations(receiver.url(SECRET_PATH)), receiver.policy());
        return alertSettings(mailer, queue);
      };

      it('sends a held run once, with the link that opens the run where it is approved', async () => {
        const account = (await seedAccount(api.dbh.db)).adAccountId;
        platform.addCampaign(account, 'c1', 'EDM EP-W 2026-03-04 6PM');
        for (const id of ['over1', 'over2', 'over3']) platform.addAd(account, 'c1', id, { spend: '300' });
        platform.addAd(account, 'c1', 'under', { spend: '20' });
        const { rule } = await seedRule(api.dbh.db, account, { tasks: { spend_cpl_no_leads: { spend: '100' } } });
        const service = createRuleEngineService({
          db: api.dbh.db,
          client: platform,
          log: quietLog,
          alerts: await alerts(),
        });
        const editor = await api.userWith(['create_update_rules', 'read_rules']);
        api.app.ruleEngine = service;
        const response = await api.request(editor.token, { method: 'POST', url: `/api/rules/${rule.id}/run_now/` });
        expect(response.json().status).toBe('held');

        const [run] = (await api.request(editor.token, { method: 'GET', url: `/api/rule/${rule.id}/runs/` })).json()
          .results;
        const runLink = `http://console.test/edit-rule/${rule.id}?run=${run.id}`;
        await eventually(() => expect(receiver.received).toHaveLength(1));
        const message = receiver.received[0]!.body;
        expect(message.text).toMatch(/^Held for approval: /);
        expect(JSON.stringify(message.blocks)).toContain('turn off ad over1');
        expect(buttonUrl(message)).toBe(runLink);
        // The mail carries the same link.
        expect(mailer.sent).toHaveLength(1);
        expect(mailer.sent[0]!.text).toContain(runLink);

        // The delivery's status is shown to those who read rules (never the URL), and to no one else.
        await eventually(async () => {
          const shown = await api.request(editor.token, { method: 'GET', url: '/api/alert_deliveries/' });
          expect(shown.json().results[0]).toMatchObject({
            source: 'held_run',
            destination_name: 'ALERT_WEBHOOK_URL',
            state: 'sent',
            attempts: 1,
            answer_code: 200,
            error: null,
          });
          expect(shown.body).not.toContain('very-secret-token');
        });
        const nobody = await api.userWith([]);
        expect((await api.request(nobody.token, { method: 'GET', url: '/api/alert_deliveries/' })).statusCode).toBe(
          403,
        );
      });

      it('sends a digest once, with what the rule did, beside its mail', async () => {
        const account = (await seedAccount(api.dbh.db)).adAccountId;
        platform.addCampaign(account, 'c1', 'EDM EP-W 2024-02-01 6PM');
        platform.addAd(account, 'c1', 'expensive', { spend: '186.30', leads: 3 });
        platform.addAd(account, 'c1', 'cheap', { spend: '90', leads: 3 });
        const { rule } = await seedRule(api.dbh.db, account, {
          timezone: 'America/New_York',
          hours: [[MONDAY, 6]],
          alertHours: [7],
          ruleName: 'EP-W: Pause ad CPL > $50',
        });
        const clock = () => new Date(SEVEN_AM_NY.getTime() + 60_000);
        await runSlot(engineContext(api.dbh.db, platform, clock), {
          ruleId: rule.id,
          slot: new Date('2024-01-15T11:00:00Z'),
          kind: 'run',
        });
        const context = { db: api.dbh.db, log: quietLog, ...(await alerts()) };
        expect((await runAlert(context, rule.id, SEVEN_AM_NY)).status).toBe('sent');
        expect((await runAlert(context, rule.id, SEVEN_AM_NY)).status).toBe('already_done');

        await eventually(() => expect(receiver.received).toHaveLength(1));
        const message = receiver.received[0]!.body;
        expect(message.text).toMatch(/^EP-W: Pause ad CPL &gt; \$50: 1 rule action/);
        expect(JSON.stringify(message.blocks)).toContain('turn off ad expensive (CPL: $62.10 &gt; $50.00');
        expect(buttonUrl(message)).toBe(`http://console.test/activity?rule_id=${rule.id}`);
        expect(mailer.sent).toHaveLength(1);
      });
    });
  });
});
