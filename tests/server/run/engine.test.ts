/**
 * The engine end to end on the Graph simulator over HTTP, through pg-boss, on each database:
 * a trigger_cpl rule turns off the ad whose CPL crossed its threshold at the rule's hour, the
 * activity says why, the ad is paused in the simulator, and the alert digest reaches a real SMTP
 * peer. Also: rate limits and 5xx injected during a run are ridden out; a run that keeps failing
 * ends in an error entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { GraphClient } from '../../../server/adplatform/graphClient';
import type { Simulator } from '../../../server/adplatform/simulator/index';
import { ruleRuns } from '../../../server/db/schema/index';
import { startRuleEngine, type RuleEngine } from '../../../server/run/startInWorker';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import { createMailer } from '../../../server/mail/mailer';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { startSmtpPeer, type SmtpPeer } from '../mail/support';
import { activityOf, engineContext, quietLog, seedAccount, seedRule, startFrozenSimulator } from './support';

const MONDAY = 1;
// 2026-03-02 is a Monday; 15:00 UTC is 10 AM in New York (standard time), the simulator's home zone.
const START = '2026-03-02T15:00:00Z';

eachDatabase((engine) => {
  describe(`the rule engine end to end on ${engine}`, () => {
    let api: TestApi;
    let sim: Simulator;
    let client: GraphClient;
    let home: { adAccountId: string; accountName: string; timezoneName: string };
    let smtp: SmtpPeer;
    let ruleEngine: RuleEngine;
    let clock = new Date(START);

    beforeAll(async () => {
      ({ sim, client, home } = await startFrozenSimulator({ start: START }));
      smtp = await startSmtpPeer();
      api = await createTestApi(engine);
      await seedAccount(api.dbh.db, home);
      ruleEngine = await startRuleEngine({
        dbh: api.dbh,
        client,
        alerts: {
          mailer: createMailer({
            smtpUrl: smtp.url,
            from: 'Ad Rules Console <rules@example.com>',
            outboxDir: '/nonexistent',
          }),
          recipients: ['alerts@example.com'],
          publicUrl: 'http://console.test',
        },
        log: quietLog,
        now: () => clock,
        autoScan: false,
        pollingIntervalSeconds: 0.5,
        alertDelaySeconds: 0,
        queue: { retryLimit: 1, retryDelaySeconds: 1 },
      });
    });
    afterAll(async () => {
      await ruleEngine.stop();
      await api.close();
      await smtp.close();
      await sim.close();
    });

    it('turns off the ad whose CPL climbed past the threshold at the rule’s hour, logs why, and mails the digest', async () => {
      const climbing = sim.scenario('cpl_climbs').adIds[0]!;
      const { rule } = await seedRule(api.dbh.db, home.adAccountId, {
        ruleName: 'RP-W: Pause ad CPL > $30',
        timezone: 'America/New_York',
        hours: [[MONDAY, 11]],
        alertHours: [12],
        contains: ['RP-W'],
        tasks: { trigger_cpl: { cpl: '30' } },
      });
      const user = await api.userWith(['view_logs']);

      // 10 AM: the rule is not due, and its ad is still under the threshold.
      expect((await ruleEngine.scan()).filter((d) => d.ruleId === rule.id)).toEqual([]);
      expect(sim.inspect(climbing).status).toBe('ACTIVE');

      // Twelve simulated hours of spend later, at 11 AM New York time, the rule's hour comes.
      sim.advanceHours(12);
      clock = new Date('2026-03-02T16:00:20Z');
      expect((await ruleEngine.scan()).filter((d) => d.ruleId === rule.id).map((d) => d.queue)).toEqual(['run']);
      await expect.poll(() => sim.inspect(climbing).status, { timeout: 20_000 }).toBe('PAUSED');

      await expect
        .poll(async () => (await dbRuns(rule.id)).map((r) => r.status), { timeout: 20_000 })
        .toEqual(['done']);
      const log = (
        await api.request(user.token, { method: 'GET', url: `/api/rule_log/?rule_id_in=${rule.id}` })
      ).json();
      const entry = log.results.find((r: { ad_id: string }) => r.ad_id === climbing);
      expect(entry).toMatchObject({ action: 'turn_off_ad', rule: { id: rule.id, name: 'RP-W: Pause ad CPL > $30' } });
      expect(entry.reason.CPL).toMatch(/^\$3\d\.\d\d > \$30\.00$/);
      expect(Number(entry.reason.Leads)).toBeGreaterThan(0);
      for (const other of log.results) expect(other.reason.CPL).toMatch(/> \$30\.00$/);

      // Noon: the alert hour. The digest arrives at the SMTP peer and is itself an entry.
      clock = new Date('2026-03-02T17:00:20Z');
      await ruleEngine.scan();
      const mail = await smtp.waitFor('alerts@example.com', 20_000);
      expect(mail.subject).toMatch(/^RP-W: Pause ad CPL > \$30: \d+ rule actions?/);
      expect(mail.text).toContain(`turn off ad ${climbing} (CPL: ${entry.reason.CPL}`);
      expect(mail.links).toContain(`http://console.test/activity?rule_id=${rule.id}`);
      await expect
        .poll(async () => (await activityOf(api.dbh.db, rule.id)).at(-1)?.action, { timeout: 20_000 })
        .toBe('alert_sent');
    });

    it('rides out rate limits and 5xx injected during a run, acting once', async () => {
      const noLeads = sim.scenario('spend_no_leads').adIds[0]!;
      const noClicks = sim.scenario('no_link_clicks').adIds[0]!;
      const { rule } = await seedRule(api.dbh.db, home.adAccountId, {
        contains: ['SS-W', 'TIR-W'],
        hours: [[MONDAY, 12]],
        tasks: { spend_cpl_no_leads: { spend: '40' } },
      });
      sim.addFault({ kind: 'rate_limit', code: 17, match: { path: 'insights' }, count: 2 });
      sim.addFault({ kind: 'rate_limit', code: 80004, match: { path: '/campaigns' }, count: 1 });
      sim.addFault({ kind: 'server_error', status: 500, match: { method: 'POST' }, count: 1, applyFirst: true });
      const before = sim.requests.length;

      const result = await runSlot(
        engineContext(api.dbh.db, client, () => clock),
        { ruleId: rule.id, slot: new Date('2026-03-02T12:00:00Z'), kind: 'run' },
      );
      expect(result.status).toBe('done');
      expect(sim.requests.slice(before).filter((r) => r.fault).length).toBe(4);
      const entries = await activityOf(api.dbh.db, rule.id);
      expect(entries.map((e) => [e.action, e.adId]).sort()).toEqual(
        [
          ['turn_off_ad', noClicks],
          ['turn_off_ad', noLeads],
        ].sort(),
      );
      expect(sim.inspect(noLeads).status).toBe('PAUSED');
      expect(sim.inspect(noClicks).status).toBe('PAUSED');
      expect(sim.writes.filter((w) => w.id === noLeads || w.id === noClicks)).toHaveLength(2);
      sim.clearFaults();
    });

    it('ends a run that keeps failing with an error entry, after its retries', async () => {
      const other = sim.world.accounts[1]!;
      const account = await seedAccount(api.dbh.db, {
        adAccountId: `act_${other.accountId}`,
        accountName: other.name,
        timezoneName: other.timezone,
      });
      const { rule } = await seedRule(api.dbh.db, account.adAccountId, {
        hours: [[MONDAY, 17]],
        contains: ['-'],
        tasks: { trigger_cpl: { cpl: '1' } },
      });
      sim.addFault({ kind: 'server_error', status: 503, match: { path: `act_${other.accountId}/insights` }, count: 0 });
      clock = new Date('2026-03-02T17:00:40Z');
      expect((await ruleEngine.scan()).filter((d) => d.ruleId === rule.id).map((d) => d.queue)).toEqual(['run']);
      // Each failed attempt marks the run failed with its error at once; the activity entry follows
      // the last attempt, when the job's retries are spent.
      await expect
        .poll(
          async () => ({
            runs: (await dbRuns(rule.id)).map((r) => [r.status, r.attempts]),
            entries: (await activityOf(api.dbh.db, rule.id)).map((e) => e.action),
          }),
          { timeout: 30_000 },
        )
        .toEqual({ runs: [['failed', 2]], entries: ['error'] });
      const entries = await activityOf(api.dbh.db, rule.id);
      expect(entries.map((e) => e.action)).toEqual(['error']);
      expect(entries[0]!.reason).toMatchObject({ Run: '5:00 PM run', Account: other.name });
      expect(entries[0]!.reason.Error).toMatch(/\S/);
      sim.clearFaults();
    });

    const dbRuns = (ruleId: number) => api.dbh.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, ruleId));
  });
});
