/**
 * Pushed, not polled, end to end on each database: the Graph simulator posts Meta's signed ads
 * webhooks over HTTP to the product listening on loopback. The handshake and the signature are
 * checked; the account's subscriptions follow its rules; a crossing wakes a run that turns the
 * named ad off; a redelivery and a notification older than the rule's last read change nothing;
 * and the schedule stays a floor (an idle hour skipped, the daily one kept).
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphClient } from '../../../server/adplatform/graphClient';
import type { Simulator } from '../../../server/adplatform/simulator/index';
import { graphSubscriptions } from '../../../server/adplatform/subscriptions';
import { metaNotifications, ruleItems, ruleRuns, rules } from '../../../server/db/schema/index';
import { startRuleEngine, type RuleEngine } from '../../../server/run/startInWorker';
import { signatureOf } from '../../../server/push/signature';
import { createPushQueue, type PushQueue } from '../../../server/push/queue';
import { pushSlot } from '../../../server/push/wake';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';
import {
  activityOf,
  CapturingMailer,
  NO_BLAST_LIMIT,
  quietLog,
  seedAccount,
  seedRule,
  startFrozenSimulator,
} from '../run/support';

const SECRET = 'the-app-secret';
const VERIFY_TOKEN = 'the-verify-token';
const START = '2026-03-02T15:00:00Z';
const HOUR = 3_600_000;
const EVERY_HOUR = Array.from({ length: 24 }, (_, hour) => hour);

eachDatabase((engine) => {
  describe(`pushed changes on ${engine}`, () => {
    let api: TestApi;
    let sim: Simulator;
    let client: GraphClient;
    let home: { adAccountId: string; accountName: string; timezoneName: string };
    let queue: PushQueue;
    let ruleEngine: RuleEngine;
    let callbackUrl: string;
    let clock = new Date(START);

    const moveClock = async (ms: number) => {
      clock = new Date(clock.getTime() + ms);
      sim.clock.set(clock.getTime());
      await sim.webhooks.settled();
    };
    const notifications = () =>
      api.dbh.db.select().from(metaNotifications).orderBy(metaNotifications.id) as Promise<
        (typeof metaNotifications.$inferSelect)[]
      >;
    const runsOf = (ruleId: number) =>
      api.dbh.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, ruleId)).orderBy(ruleRuns.slot);
    const post = (body: string, signature?: string) =>
      fetch(callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { 'x-hub-signature-256': signature } : {}) },
        body,
      });
    const delivery = (objectId: string, eventTime: number, eventType = 'INSIGHTS_UPDATED') =>
      JSON.stringify({
        object: 'ad_account',
        entry: [
          {
            id: home.adAccountId.replace('act_', ''),
            time: eventTime,
            changes: [
              {
                field: 'subscriptions',
                value: {
                  subscription_id: '1',
                  event_type: eventType,
                  object_type: 'AD',
                  object_id: objectId,
                  event_time: eventTime,
                },
              },
            ],
          },
        ],
      });

    beforeAll(async () => {
      ({ sim, client, home } = await startFrozenSimulator({ start: START }));
      api = await createTestApi(engine, {
        config: { metaAppSecret: SECRET, metaWebhookVerifyToken: VERIFY_TOKEN },
        services: (dbh) => {
          queue = createPushQueue({ dbh, log: quietLog, pollingIntervalMs: 500 });
          return { pushQueue: queue };
        },
      });
      await api.app.listen({ port: 0, host: '127.0.0.1' });
      callbackUrl = `http://127.0.0.1:${(api.app.server.address() as { port: number }).port}/api/meta/webhooks/`;
      await seedAccount(api.dbh.db, home);
      ruleEngine = await startRuleEngine({
        dbh: api.dbh,
        client,
        alerts: { mailer: new CapturingMailer(), recipients: ['ops@example.com'], publicUrl: 'http://console.test' },
        log: quietLog,
        now: () => clock,
        limits: NO_BLAST_LIMIT,
        autoScan: false,
        pollingIntervalSeconds: 0.5,
        queue: { retryLimit: 1, retryDelaySeconds: 1 },
        push: {
          queue,
          subscriptions: graphSubscriptions(client),
          readStatuses: (ids) => client.readStatuses(ids),
          recheckEveryMs: 0,
        },
      });
    });
    afterAll(async () => {
      await ruleEngine.stop();
      await queue.stop();
      await api.close();
      await sim.close();
    });

    it('passes Meta’s handshake with its verify token only, and the simulator posts only to loopback', async () => {
      await expect(
        sim.webhooks.configure({ callbackUrl, appSecret: SECRET, verifyToken: 'somebody else’s' }),
      ).rejects.toThrow(/could not be validated: the callback answered 403/);
      await sim.webhooks.configure({ callbackUrl, appSecret: SECRET, verifyToken: VERIFY_TOKEN });
      await expect(
        sim.webhooks.configure({
          callbackUrl: 'http://203.0.113.9/hook',
          appSecret: SECRET,
          verifyToken: VERIFY_TOKEN,
        }),
      ).rejects.toThrow(/loopback/);
      const notSubscribe = await fetch(
        `${callbackUrl}?hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=7`,
      );
      expect(notSubscribe.status).toBe(403);
    });

    it('keeps nothing of a delivery without the app secret’s signature', async () => {
      const body = delivery('123', Math.floor(clock.getTime() / 1000));
      expect((await post(body)).status).toBe(401);
      expect((await post(body, signatureOf(body, 'another secret'))).status).toBe(403);
      expect((await post(body, signatureOf(`${body} `, SECRET))).status).toBe(403);
      expect((await post('{not json', signatureOf('{not json', SECRET))).status).toBe(400);
      expect(await notifications()).toEqual([]);
    });

    it('keeps the account’s subscriptions in step with its rules: made, moved, dropped', async () => {
      const { rule } = await seedRule(api.dbh.db, home.adAccountId, {
        contains: ['no campaign is named so'],
        everyDayAt: EVERY_HOUR,
        tasks: { trigger_cpl: { cpl: '45' }, spend_ctr_no_leads: { spend: '40', ctr: '0.5' } },
        updatedAt: new Date(),
      });
      const specs = () =>
        sim.webhooks
          .subscriptions(home.adAccountId)
          .map((s) => [
            s.eventType,
            s.objectType,
            JSON.stringify(s.filters),
            JSON.stringify(s.milestone ?? null),
            s.fields.join(),
          ])
          .sort();
      // Saved: the database tells the engine, which makes what the rule needs.
      await expect.poll(specs, { timeout: 10_000 }).toEqual(
        [
          ['INSIGHTS_MILESTONE_REACHED', 'AD', '[]', '{"field":"spend","step":4001}', ''],
          [
            'INSIGHTS_UPDATED',
            'AD',
            '[{"field":"cost_per_lead_fb","operator":"GREATER_THAN","value":4500}]',
            'null',
            '',
          ],
          ['INSIGHTS_UPDATED', 'AD', '[{"field":"ctr","operator":"LESS_THAN","value":0.5}]', 'null', ''],
          ['METADATA_UPDATED', 'AD', '[]', 'null', 'effective_status'],
          ['METADATA_UPDATED', 'CAMPAIGN', '[]', 'null', 'name'],
        ].sort(),
      );
      const cplWatch = () =>
        sim.webhooks.subscriptions(home.adAccountId).find((s) => s.filters[0]?.field === 'cost_per_lead_fb')!;
      const before = cplWatch();

      // The CPL line moves: the same subscription is changed, not made again.
      await api.dbh.db
        .update(ruleItems)
        .set({ values: { cpl: '55' } })
        .where(and(eq(ruleItems.ruleId, rule.id), eq(ruleItems.name, 'trigger_cpl')));
      await api.dbh.db.update(rules).set({ updatedAt: new Date() }).where(eq(rules.id, rule.id));
      await ruleEngine.push!.reconcile();
      expect(cplWatch()).toMatchObject({ id: before.id, filters: [{ value: 5500 }] });

      // Switched off: nothing is left to watch.
      await api.dbh.db.update(rules).set({ isActive: false, updatedAt: new Date() }).where(eq(rules.id, rule.id));
      await ruleEngine.push!.reconcile();
      expect(specs()).toEqual([]);
    });

    it('wakes the rule covering the ad whose CPL Meta says crossed, and its run turns the ad off', async () => {
      const climbing = sim.scenario('cpl_climbs').adIds[0]!;
      const { rule } = await seedRule(api.dbh.db, home.adAccountId, {
        ruleName: 'RP-W: CPL over $30',
        contains: ['Scenario CPL Climbs'],
        everyDayAt: EVERY_HOUR,
        tasks: { trigger_cpl: { cpl: '30' } },
        // Changed before the simulated day began, so its scheduled hours count (scheduler.ts).
        updatedAt: new Date('2026-03-01T00:00:00Z'),
      });
      await ruleEngine.push!.reconcile();
      // An hour at a time until Meta tells that the ad's CPL passed $30 (about $28 at the start).
      for (let hour = 0; hour < 8; hour += 1) {
        await moveClock(HOUR);
        if ((await notifications()).some((n) => n.objectId === climbing && n.kind === 'threshold')) break;
      }
      const crossedAt = clock;
      await expect.poll(() => sim.inspect(climbing).status, { timeout: 20_000 }).toBe('PAUSED');
      await expect
        .poll(async () => (await runsOf(rule.id)).map((r) => [r.trigger, r.status, r.slot.getTime()]), {
          timeout: 20_000,
        })
        .toEqual([['push', 'done', pushSlot(crossedAt).getTime()]]);
      const [turnOff] = await activityOf(api.dbh.db, rule.id);
      expect(turnOff).toMatchObject({ action: 'turn_off_ad', adId: climbing, state: 'done' });
      expect(turnOff!.reason.Pushed).toMatch(/^Meta told of a change; run at \d+:\d\d [AP]M$/);
      expect(turnOff!.reason.CPL).toMatch(/> \$30\.00$/);
      const [woke] = (await notifications()).filter((n) => n.objectId === climbing);
      expect(woke).toMatchObject({ state: 'woke', kind: 'threshold', runSlot: pushSlot(crossedAt) });

      // The pause itself is told (a status change, without the status): read, off, nothing to judge.
      await moveClock(60_000);
      await expect
        .poll(
          async () => (await notifications()).filter((n) => n.objectId === climbing).map((n) => [n.kind, n.state]),
          {
            timeout: 20_000,
          },
        )
        .toEqual([
          ['threshold', 'woke'],
          ['status', 'known'],
        ]);
      expect(await runsOf(rule.id)).toHaveLength(1);
    });

    it('changes nothing for a redelivery, nor for a notification older than the rule’s last read', async () => {
      const climbing = sim.scenario('cpl_climbs').adIds[0]!;
      const [rule] = await api.dbh.db.select().from(rules).where(eq(rules.name, 'RP-W: CPL over $30'));
      const runs = (await runsOf(rule!.id)).length;
      const crossing = sim.webhooks.deliveries.find(
        (d) => d.body.includes(climbing) && d.body.includes('INSIGHTS_UPDATED'),
      )!;
      const kept = (await notifications()).length;

      expect(sim.webhooks.resend(crossing.id)).toBe(true);
      await sim.webhooks.settled();
      expect(crossing.status).toBe(200);
      expect(await notifications()).toHaveLength(kept);

      const [lastRun] = await api.dbh.db
        .select()
        .from(ruleRuns)
        .where(eq(ruleRuns.ruleId, rule!.id))
        .orderBy(desc(ruleRuns.slot))
        .limit(1);
      const late = delivery(climbing, Math.floor((lastRun!.slot.getTime() - 30 * 60_000) / 1000));
      const answer = await post(late, signatureOf(late, SECRET));
      expect(await answer.json()).toEqual({ received: 1, new: 1 });
      await expect.poll(async () => (await notifications()).at(-1)?.state, { timeout: 20_000 }).toBe('known');
      expect(await runsOf(rule!.id)).toHaveLength(runs);
    });

    it('keeps the schedule as a floor: an hour with nothing to look at again is skipped, a day later it runs', async () => {
      const [rule] = await api.dbh.db.select().from(rules).where(eq(rules.name, 'RP-W: CPL over $30'));
      const next = new Date(Math.ceil((clock.getTime() + 1) / HOUR) * HOUR);
      clock = new Date(next.getTime() + 20_000);
      sim.clock.set(clock.getTime());
      expect((await ruleEngine.scan(clock)).filter((d) => d.ruleId === rule!.id)).toEqual([]);
      const [skipped] = await api.dbh.db
        .select()
        .from(ruleRuns)
        .where(and(eq(ruleRuns.ruleId, rule!.id), eq(ruleRuns.slot, next)));
      expect(skipped).toMatchObject({ outcome: 'skipped', trigger: 'schedule', status: 'done' });

      const dayLater = new Date(next.getTime() + 24 * HOUR);
      clock = new Date(dayLater.getTime() + 20_000);
      sim.clock.set(clock.getTime());
      expect((await ruleEngine.scan(clock)).filter((d) => d.ruleId === rule!.id).map((d) => d.queue)).toEqual(['run']);
      await expect.poll(async () => (await runsOf(rule!.id)).at(-1)?.status, { timeout: 20_000 }).toBe('done');
    });
  });
});
