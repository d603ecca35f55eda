import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DbHandle } from '../../../server/db/client';
import { ruleRuns } from '../../../server/db/schema/index';
import { startRuleEngine, type RuleEngine } from '../../../server/run/startInWorker';
import { QUEUES, runJobSubject, slotJobId, slotKey } from '../../../server/run/queue';
import { eachDatabase, freshDatabase } from '../../support/db';
import { activityOf, CapturingMailer, FakePlatform, NO_BLAST_LIMIT, quietLog, seedAccount, seedRule } from './support';

const MONDAY = 1;

eachDatabase((engine) => {
  describe(`the job queue (pg-boss) on ${engine}`, () => {
    let dbh: DbHandle;
    let ruleEngine: RuleEngine;
    const platform = new FakePlatform();
    const mailer = new CapturingMailer();
    let clock = new Date('2024-01-15T12:00:30Z'); // Monday 7 AM in New York

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      ruleEngine = await startRuleEngine({
        dbh,
        client: platform,
        alerts: { mailer, recipients: ['ops@example.com'], publicUrl: 'http://console.test' },
        log: quietLog,
        now: () => clock,
        autoScan: false,
        pollingIntervalSeconds: 0.5,
        alertDelaySeconds: 0,
        limits: NO_BLAST_LIMIT,
      });
    });
    afterAll(async () => {
      await ruleEngine.stop();
      await dbh.close();
    });

    it('runs each due slot as one job per account and acts once, however often the scan finds it', async () => {
      const account = await seedAccount(dbh.db);
      platform.addCampaign(account.adAccountId, 'q-c1', 'EDM LTC-S 2024-03-01 10AM');
      platform.addAd(account.adAccountId, 'q-c1', 'q-no-leads', { spend: '120' });
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        timezone: 'America/New_York',
        hours: [[MONDAY, 7]],
        alertHours: [7],
        tasks: { spend_cpl_no_leads: { spend: '100' } },
      });

      const due = await ruleEngine.scan();
      expect(due.filter((d) => d.ruleId === rule.id).map((d) => d.queue)).toEqual(['run', 'alert']);
      // A second scan (another process, or the next tick) before the jobs ran adds nothing.
      await ruleEngine.scan();

      await expect
        .poll(async () => (await activityOf(dbh.db, rule.id)).filter((e) => e.action === 'turn_off_ad').length, {
          timeout: 20_000,
        })
        .toBe(1);
      await expect
        .poll(
          async () => {
            const runs = await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule.id));
            return runs.map((r) => `${r.kind}:${r.status}`).sort();
          },
          { timeout: 20_000 },
        )
        .toEqual(['alert:done', 'run:done']);

      expect(platform.writes.filter((w) => w.id === 'q-no-leads')).toEqual([{ id: 'q-no-leads', status: 'PAUSED' }]);
      // The alert job (no delay here) may write its entry before or after the turn-off's.
      const turnOff = (await activityOf(dbh.db, rule.id)).find((e) => e.action === 'turn_off_ad');
      expect(turnOff!.reason).toMatchObject({ Spend: '$120.00 > $100.00', Leads: '0' });

      // Scans after the work is done find nothing due; re-sending the same job is refused by its id.
      expect((await ruleEngine.scan()).filter((d) => d.ruleId === rule.id)).toEqual([]);
      const slot = new Date('2024-01-15T12:00:00Z');
      const subject = runJobSubject(account.adAccountId, [rule.id]);
      const resent = await ruleEngine.boss.send(
        QUEUES.run,
        { account: account.adAccountId, slot: slot.toISOString(), runs: [{ ruleId: rule.id }] },
        { id: slotJobId(QUEUES.run, subject, slot), singletonKey: slotKey(subject, slot) },
      );
      expect(resent).toBeNull();
    });

    it('still runs a run job of one rule, as an earlier version queued them', async () => {
      const account = await seedAccount(dbh.db);
      platform.addCampaign(account.adAccountId, 'q-c3', 'EDM LTC-S 2024-03-03 10AM');
      platform.addAd(account.adAccountId, 'q-c3', 'q-old-job', { spend: '150' });
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        hours: [[MONDAY, 3]],
        tasks: { spend_cpl_no_leads: { spend: '100' } },
      });
      const slot = new Date('2024-01-15T03:00:00Z');
      await ruleEngine.boss.send(QUEUES.run, { ruleId: rule.id, slot: slot.toISOString(), missed: [], late: true });
      await expect
        .poll(
          async () => (await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule.id))).map((r) => r.status),
          {
            timeout: 20_000,
          },
        )
        .toEqual(['done']);
      expect(platform.writes.filter((w) => w.id === 'q-old-job')).toEqual([{ id: 'q-old-job', status: 'PAUSED' }]);
    });

    it('mails the alert digest of the hour through the queue', async () => {
      const account = await seedAccount(dbh.db);
      platform.addCampaign(account.adAccountId, 'q-c2', 'EDM RP-W 2024-03-02 1PM');
      platform.addAd(account.adAccountId, 'q-c2', 'q-pricey', { spend: '400', leads: 4 });
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        timezone: 'America/Chicago',
        hours: [[MONDAY, 8]],
        alertHours: [9],
        ruleName: 'Queue alert rule',
      });
      clock = new Date('2024-01-15T14:05:00Z'); // 8:05 AM in Chicago
      await ruleEngine.scan();
      await expect.poll(async () => (await activityOf(dbh.db, rule.id)).length, { timeout: 20_000 }).toBe(1);
      clock = new Date('2024-01-15T15:01:00Z'); // 9:01 AM: the alert hour
      await ruleEngine.scan();
      await expect
        .poll(() => mailer.sent.filter((m) => m.subject.startsWith('Queue alert rule')).length, { timeout: 20_000 })
        .toBe(1);
      await expect
        .poll(async () => (await activityOf(dbh.db, rule.id)).map((e) => e.action), { timeout: 20_000 })
        .toEqual(['turn_off_ad', 'alert_sent']);
    });
  });
});
