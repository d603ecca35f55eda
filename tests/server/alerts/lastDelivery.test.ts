/**
 * Alerts you can trust: Send a test posts a labelled message to a destination now and answers
 * what happened; each destination keeps its last delivery (time, answer code, problem) and its
 * failures in a row, from tests and from real alerts alike; a held run's Slack message carries
 * Approve and Dismiss, both opening the run in the console. A local HTTP server on 127.0.0.1
 * stands in for Slack, reached under the tests' address policy (loopback, that port only).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryQueue } from '../../../server/alerts/deliveryQueue';
import { storedDestinations } from '../../../server/alerts/destinations';
import { DEFAULT_LIMITS } from '../../../server/judgement/blastRadius';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import { table as alertDestinations } from '../../../shared/resources/alertDestinations';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { CapturingMailer, engineContext, FakePlatform, seedAccount, seedRule } from '../run/support';
import { alertSettings, deliveriesTo, eventually, WebhookReceiver } from './receiver';

const SLOT = new Date('2024-01-15T12:00:00Z');
const CAPS = { global: 5, perFolder: 5 };

eachDatabase((engine) => {
  describe(`alert destinations' tests and last deliveries on ${engine}`, () => {
    let api: TestApi;
    let receiver: WebhookReceiver;
    let admin: TestUser;
    let queue: DeliveryQueue | undefined;

    beforeAll(async () => {
      receiver = new WebhookReceiver();
      await receiver.start();
      api = await createTestApi(engine, { services: { webhookPolicy: receiver.policy() } });
      admin = await api.userWith('superuser', { firstName: 'Ada', lastName: 'Lovelace' });
    });
    afterAll(async () => {
      await receiver.close();
      await api.close();
    });
    beforeEach(async () => {
      receiver.received.length = 0;
      receiver.statuses.length = 0;
      await api.dbh.db.delete(alertDestinations);
    });
    afterEach(async () => {
      await queue?.stop();
      queue = undefined;
    });

    /**
     * A destination stored as the resource stores it (the URL encrypted with the server's key): the
     * form takes https:// only, and the local receiver speaks plain http on 127.0.0.1.
     */
    const save = async (name: string, path: string, folderId: number | null = null) => {
      const [row] = await api.dbh.db
        .insert(alertDestinations)
        .values({ name, folder_id: folderId, url: api.app.credentials.encryptText(receiver.url(path)) })
        .returning();
      return row!;
    };
    const sendTest = (id: number, token = admin.token) =>
      api.request(token, { method: 'POST', url: `/api/alert_destinations/${id}/test/` });
    const shown = async (id: number) =>
      (await api.request(admin.token, { method: 'GET', url: `/api/alert_destinations/${id}/` })).json();

    it('sends a labelled test now and answers 200; a 500 after it counts failures in a row, a success ends them', async () => {
      const { id } = await save('Ops channel', '/ops');
      const before = Date.now();
      const first = await sendTest(id);
      expect(first.statusCode).toBe(200);
      const answer = first.json();
      expect(answer).toEqual({
        ok: true,
        status_code: 200,
        detail: 'Delivered: the webhook answered 200',
        at: answer.at,
      });
      expect(Date.parse(answer.at)).toBeGreaterThanOrEqual(before);
      expect(receiver.received).toHaveLength(1);
      const posted = receiver.received[0]!;
      expect(posted.path).toBe('/ops');
      expect(posted.body.text).toMatch(/^Test message from Ad Rules Console\n/);
      expect(posted.body.text).toContain(
        'This is a test of the alert destination "Ops channel", sent by Ada Lovelace.',
      );
      expect(await shown(id)).toMatchObject({
        last_delivery_at: answer.at,
        last_delivery_source: 'test',
        last_answer_code: 200,
        last_delivery_error: null,
        consecutive_failures: 0,
      });

      receiver.statuses.push(500, 500);
      for (const failures of [1, 2]) {
        const failed = await sendTest(id);
        expect(failed.statusCode).toBe(200);
        expect(failed.json()).toMatchObject({ ok: false, status_code: 500, detail: 'the webhook answered 500' });
        expect(await shown(id)).toMatchObject({
          last_answer_code: 500,
          last_delivery_error: 'the webhook answered 500',
          consecutive_failures: failures,
        });
      }
      expect((await sendTest(id)).json()).toMatchObject({ ok: true, status_code: 200 });
      expect(await shown(id)).toMatchObject({
        last_answer_code: 200,
        consecutive_failures: 0,
        last_delivery_error: null,
      });
    });

    it('lists each destination with its last delivery', async () => {
      const { id } = await save('Listed', '/listed');
      receiver.statuses.push(503);
      await sendTest(id);
      const list = await api.request(admin.token, { method: 'GET', url: '/api/alert_destinations/' });
      expect(list.json().results).toEqual([
        expect.objectContaining({
          id,
          last_answer_code: 503,
          consecutive_failures: 1,
          last_delivery_error: 'the webhook answered 503',
        }),
      ]);
    });

    it('keeps to the address policy: a destination off the allowed hosts is refused, not posted to, and counts', async () => {
      const [row] = await api.dbh.db
        .insert(alertDestinations)
        .values({ name: 'Elsewhere', url: api.app.credentials.encryptText('https://10.1.2.3/hook') })
        .returning();
      const answer = (await sendTest(row!.id)).json();
      expect(answer).toMatchObject({ ok: false, status_code: null });
      expect(answer.detail).toMatch(/^Only these hosts are allowed: 127\.0\.0\.1/);
      expect(receiver.received).toHaveLength(0);
      expect(await shown(row!.id)).toMatchObject({ consecutive_failures: 1, last_answer_code: null });
    });

    it('lets only those who may change destinations send a test; an unknown one is 404', async () => {
      const { id } = await save('Guarded', '/guarded');
      const reader = await api.userWith(['read_rules']);
      expect((await sendTest(id, reader.token)).statusCode).toBe(403);
      const editor = await api.userWith(['read_rules', 'create_update_rules']);
      expect((await sendTest(id, editor.token)).statusCode).toBe(200);
      expect((await api.request(null, { method: 'POST', url: `/api/alert_destinations/${id}/test/` })).statusCode).toBe(
        401,
      );
      expect((await sendTest(id + 1000)).statusCode).toBe(404);
      expect(receiver.received).toHaveLength(1);
    });

    /** A held run of a rule whose folder has the destinations given, its alert queued for them. */
    async function heldRun(paths: string[]) {
      const account = await seedAccount(api.dbh.db);
      const { rule, folder } = await seedRule(api.dbh.db, account.adAccountId, {
        everyDayAt: [12],
        tasks: { spend_cpl_no_leads: { spend: '100' } },
      });
      const ids = [];
      for (const path of paths) ids.push((await save(path, path, folder.id)).id);
      const platform = new FakePlatform();
      platform.addCampaign(account.adAccountId, 'c1', 'EDM EP-W 2026-03-04 6PM');
      for (const ad of ['over1', 'over2', 'over3']) platform.addAd(account.adAccountId, 'c1', ad, { spend: '300' });
      platform.addAd(account.adAccountId, 'c1', 'under', { spend: '20' });
      queue = await deliveriesTo(
        api.dbh,
        storedDestinations(api.dbh.db, api.app.credentials, undefined, CAPS),
        receiver.policy(),
      );
      const context = engineContext(api.dbh.db, platform, () => SLOT, {
        limits: DEFAULT_LIMITS,
        alerts: alertSettings(new CapturingMailer(), queue),
      });
      const result = await runSlot(context, { ruleId: rule.id, slot: SLOT, kind: 'run' });
      expect(result.status).toBe('held');
      return { ids, rule, runId: result.runId! };
    }

    it('records a real alert as the last delivery: one that got through, and one answered 404', async () => {
      receiver.statuses.push(404); // whichever of the two is posted first is refused by the remote
      const { ids } = await heldRun(['/first', '/second']);
      const lastDeliveries = async () =>
        (await Promise.all(ids.map(shown)))
          .map((d) => [d.last_delivery_source, d.last_answer_code, d.last_delivery_error, d.consecutive_failures])
          .sort((a, b) => String(a[1]).localeCompare(String(b[1])));
      await eventually(async () =>
        expect(await lastDeliveries()).toEqual([
          ['held_run', 200, null, 0],
          ['held_run', 404, 'the webhook answered 404', 1],
        ]),
      );
      for (const id of ids) expect((await shown(id)).last_delivery_at).not.toBeNull();
    });

    it('posts a held run to Slack with Approve and Dismiss, both opening the run in the console', async () => {
      const { rule, runId } = await heldRun(['/held']);
      await eventually(() => expect(receiver.received).toHaveLength(1));
      const { body } = receiver.received[0]!;
      const runLink = `http://console.test/edit-rule/${rule.id}?run=${runId}`;
      const actions = body.blocks?.find((block) => block.type === 'actions') as {
        elements: { text: { text: string }; url: string; style?: string }[];
      };
      expect(actions.elements.map((button) => [button.text.text, button.url, button.style])).toEqual([
        ['Approve', runLink, 'primary'],
        ['Dismiss', runLink, undefined],
      ]);
      expect(body.text).toContain(`Approve: ${runLink}\nDismiss: ${runLink}`);
      // A link, never a credential.
      expect(JSON.stringify(body)).not.toMatch(/token|Bearer|eyJ/);
    });
  });
});
