/**
 * Alerts in Slack: digests and held runs go, besides the mail, to Slack-compatible incoming
 * webhooks, each once per destination, received here by a real HTTP server standing in for Slack.
 * A destination that fails is recorded (without its URL) and gets the same message on the next try.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configuredDestinations, urlKey, type WebhookDestinations } from '../../../server/alerts/destinations';
import { slackMessage } from '../../../server/alerts/slackMessage';
import { createWebhookSender } from '../../../server/alerts/webhook';
import { deliverOnce } from '../../../server/alerts/webhookOnce';
import type { DbHandle } from '../../../server/db/client';
import { webhookDeliveries } from '../../../server/db/schema/index';
import { runAlert } from '../../../server/engine/alerts';
import { runSlot } from '../../../server/engine/pipeline/runBatch';
import { createRuleEngineService } from '../../../server/engine/service';
import { createTestApi, type TestApi } from '../../support/api';
import { alertSettings, buttonUrl, WebhookReceiver } from './receiver';
import { eachDatabase, freshDatabase } from '../../support/db';
import { CapturingMailer, engineContext, FakePlatform, quietLog, seedAccount, seedRule } from '../engine/support';

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

eachDatabase((engine) => {
  describe(`webhook delivery on ${engine}`, () => {
    let receiver: WebhookReceiver;

    beforeEach(async () => {
      receiver = new WebhookReceiver();
      await receiver.start();
      quietLog.lines.length = 0;
    });
    afterEach(() => receiver.close());

    describe('once per alert and destination', () => {
      let dbh: DbHandle;
      beforeAll(async () => {
        dbh = await freshDatabase(engine);
      });
      afterAll(() => dbh.close());

      const delivery = (destinations: WebhookDestinations) => ({
        db: dbh.db,
        send: createWebhookSender({ timeoutMs: 5_000 }),
        destinations,
        log: quietLog,
      });
      const alert = (sourceKey: string, text: string) => ({
        source: 'health' as const,
        sourceKey,
        folderId: null,
        message: { text },
      });

      it('sends once, however often the alert is delivered', async () => {
        const destinations = configuredDestinations(receiver.url(SECRET_PATH));
        expect(await deliverOnce(delivery(destinations), alert('h1', 'Graph is slow'))).toEqual([
          { destination: urlKey(receiver.url(SECRET_PATH)), status: 'sent' },
        ]);
        expect((await deliverOnce(delivery(destinations), alert('h1', 'Graph is slow')))[0]!.status).toBe(
          'already_sent',
        );
        expect(receiver.received).toEqual([{ path: SECRET_PATH, body: { text: 'Graph is slow' } }]);
      });

      it('records a refused delivery without the URL, and the next try sends the stored message', async () => {
        const destinations = configuredDestinations(receiver.url(SECRET_PATH));
        receiver.statuses.push(403);
        expect((await deliverOnce(delivery(destinations), alert('h2', 'first words')))[0]!.status).toBe('failed');
        const [row] = await dbh.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.sourceKey, 'h2'));
        expect(row).toMatchObject({ state: 'failed', error: 'the webhook answered 403: invalid_token' });
        expect(JSON.stringify(row)).not.toContain('very-secret-token');
        expect(quietLog.lines.join('\n')).not.toContain('very-secret-token');

        // The retry carries the message claimed first, even if the alert was worded anew.
        expect((await deliverOnce(delivery(destinations), alert('h2', 'other words')))[0]!.status).toBe('sent');
        expect(receiver.received.map((r) => r.body.text)).toEqual(['first words']);
      });

      it('sends nowhere when no webhook is set', async () => {
        expect(await deliverOnce(delivery(configuredDestinations(undefined)), alert('h3', 'x'))).toEqual([]);
      });

      it('reports an unreachable webhook as a failure, not a crash', async () => {
        const gone = receiver.url('/gone');
        await receiver.close();
        const outcome = await deliverOnce(delivery(configuredDestinations(gone)), alert('h4', 'x'));
        expect(outcome[0]!.status).toBe('failed');
        receiver = new WebhookReceiver();
        await receiver.start();
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

      const alerts = () => alertSettings(mailer, configuredDestinations(receiver.url(SECRET_PATH)));

      it('sends a held run once, with the link that opens the run where it is approved', async () => {
        const account = (await seedAccount(api.dbh.db)).adAccountId;
        platform.addCampaign(account, 'c1', 'EDM EP-W 2026-03-04 6PM');
        for (const id of ['over1', 'over2', 'over3']) platform.addAd(account, 'c1', id, { spend: '300' });
        platform.addAd(account, 'c1', 'under', { spend: '20' });
        const { rule } = await seedRule(api.dbh.db, account, { tasks: { spend_cpl_no_leads: { spend: '100' } } });
        const service = createRuleEngineService({ db: api.dbh.db, client: platform, log: quietLog, alerts: alerts() });
        const editor = await api.userWith(['create_update_rules', 'read_rules']);
        api.app.ruleEngine = service;
        const response = await api.request(editor.token, { method: 'POST', url: `/api/rules/${rule.id}/run_now/` });
        expect(response.json().status).toBe('held');

        const [run] = (await api.request(editor.token, { method: 'GET', url: `/api/rule/${rule.id}/runs/` })).json()
          .results;
        const runLink = `http://console.test/edit-rule/${rule.id}?run=${run.id}`;
        expect(receiver.received).toHaveLength(1);
        const message = receiver.received[0]!.body;
        expect(message.text).toMatch(/^Held for approval: /);
        expect(JSON.stringify(message.blocks)).toContain('turn off ad over1');
        expect(buttonUrl(message)).toBe(runLink);
        // The mail carries the same link.
        expect(mailer.sent).toHaveLength(1);
        expect(mailer.sent[0]!.text).toContain(runLink);
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
        const context = { db: api.dbh.db, log: quietLog, ...alerts() };
        expect((await runAlert(context, rule.id, SEVEN_AM_NY)).status).toBe('sent');
        expect((await runAlert(context, rule.id, SEVEN_AM_NY)).status).toBe('already_done');

        expect(receiver.received).toHaveLength(1);
        const message = receiver.received[0]!.body;
        expect(message.text).toMatch(/^EP-W: Pause ad CPL &gt; \$50: 1 rule action/);
        expect(JSON.stringify(message.blocks)).toContain('turn off ad expensive (CPL: $62.10 &gt; $50.00');
        expect(buttonUrl(message)).toBe(`http://console.test/activity?rule_id=${rule.id}`);
        expect(mailer.sent).toHaveLength(1);
      });
    });
  });
});
