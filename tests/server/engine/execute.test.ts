import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { DbHandle } from '../../../server/db/client';
import { ruleExemptions, ruleRuns } from '../../../server/db/schema/index';
import { runAlert } from '../../../server/engine/alerts';
import { recordRunFailure, runSlot } from '../../../server/engine/execute';
import { dueWork } from '../../../server/engine/scheduler';
import { eachDatabase, freshDatabase } from '../../support/db';
import { activityOf, CapturingMailer, engineContext, FakePlatform, quietLog, seedAccount, seedRule } from './support';

const MONDAY = 1;
// 2024-01-15 is a Monday; 12:00 UTC is 7 AM in New York.
const SEVEN_AM_NY = new Date('2024-01-15T12:00:00Z');

eachDatabase((engine) => {
  describe(`rule runs on ${engine}`, () => {
    let dbh: DbHandle;
    let platform: FakePlatform;
    let account: Awaited<ReturnType<typeof seedAccount>>;
    let clock: Date;
    const now = () => clock;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
    });
    afterAll(() => dbh.close());

    beforeEach(async () => {
      platform = new FakePlatform();
      account = await seedAccount(dbh.db);
      clock = new Date(SEVEN_AM_NY.getTime() + 60_000);
      platform.addCampaign(account.adAccountId, 'c1', 'EDM EP-W 2024-02-01 6PM');
      platform.addAd(account.adAccountId, 'c1', 'expensive', { spend: '186.30', leads: 3 }); // CPL $62.10
      platform.addAd(account.adAccountId, 'c1', 'cheap', { spend: '90', leads: 3 }); // CPL $30.00
    });

    const ctx = () => engineContext(dbh.db, platform, now);

    it('finds the rule due at its hour in its zone, turns off the ad over the CPL and says why', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        timezone: 'America/New_York',
        hours: [[MONDAY, 7]],
      });
      const due = (await dueWork(dbh.db, clock)).filter((d) => d.ruleId === rule.id);
      expect(due).toEqual([{ queue: 'run', ruleId: rule.id, slot: SEVEN_AM_NY, missed: [], late: false }]);

      const result = await runSlot(ctx(), { ruleId: rule.id, slot: SEVEN_AM_NY, kind: 'run' });
      expect(result.status).toBe('done');
      expect(platform.status('expensive')).toBe('PAUSED');
      expect(platform.status('cheap')).toBe('ACTIVE');
      const entries = await activityOf(dbh.db, rule.id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        action: 'turn_off_ad',
        adId: 'expensive',
        state: 'done',
        reason: {
          CPL: '$62.10 > $50.00',
          Leads: '3',
          Spend: '$186.30',
          Campaign: 'EDM EP-W 2024-02-01 6PM',
          Ad: 'Ad expensive',
        },
      });
      expect((await dueWork(dbh.db, clock)).filter((d) => d.ruleId === rule.id)).toEqual([]);
    });

    it('does nothing twice when the same slot runs again (retry, duplicate job, second process)', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        timezone: 'America/New_York',
        hours: [[MONDAY, 7]],
      });
      await runSlot(ctx(), { ruleId: rule.id, slot: SEVEN_AM_NY, kind: 'run' });
      platform.ads.get('expensive')!.status = 'ACTIVE'; // even if someone turned it back on meanwhile
      const again = await runSlot(ctx(), { ruleId: rule.id, slot: SEVEN_AM_NY, kind: 'run' });
      expect(again.status).toBe('already_done');
      expect(platform.writes).toEqual([{ id: 'expensive', status: 'PAUSED' }]);
      expect(await activityOf(dbh.db, rule.id)).toHaveLength(1);
    });

    it('runs two same-slot runs racing in one process with one turn-off', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, { hours: [[MONDAY, 12]] });
      const results = await Promise.all([
        runSlot(ctx(), { ruleId: rule.id, slot: SEVEN_AM_NY, kind: 'run' }),
        runSlot(ctx(), { ruleId: rule.id, slot: SEVEN_AM_NY, kind: 'run' }),
      ]);
      const [first, second] = [...results].sort((a, b) => b.turnedOff.length - a.turnedOff.length);
      expect([first!.status, first!.turnedOff.length]).toEqual(['done', 1]);
      // The other found the slot under way, or (when the first was quicker) already done.
      expect(['in_progress', 'already_done']).toContain(second!.status);
      expect(second!.turnedOff).toEqual([]);
      expect(platform.writes).toHaveLength(1);
      expect(await activityOf(dbh.db, rule.id)).toHaveLength(1);
    });

    it('shares one look at the account between every rule due in the same slot', async () => {
      const a = await seedRule(dbh.db, account.adAccountId, {
        hours: [[MONDAY, 12]],
        tasks: { trigger_cpl: { cpl: '50' } },
      });
      const b = await seedRule(dbh.db, account.adAccountId, {
        hours: [[MONDAY, 12]],
        tasks: { trigger_cpl: { cpl: '20' } },
      });
      const context = ctx();
      await runSlot(context, { ruleId: a.rule.id, slot: SEVEN_AM_NY, kind: 'run' });
      await runSlot(context, { ruleId: b.rule.id, slot: SEVEN_AM_NY, kind: 'run' });
      expect(platform.calls.getInsights).toBe(1);
      expect(platform.calls.listAds).toBe(1);
      // The ad the first rule turned off is not turned off again by the second.
      expect((await activityOf(dbh.db, a.rule.id)).map((e) => e.adId)).toEqual(['expensive']);
      expect((await activityOf(dbh.db, b.rule.id)).map((e) => e.adId)).toEqual(['cheap']);
      expect(platform.writes.map((w) => w.id)).toEqual(['expensive', 'cheap']);
    });

    it('leaves ads that are already off, and exempt ones, alone', async () => {
      platform.ads.get('expensive')!.status = 'PAUSED';
      platform.addAd(account.adAccountId, 'c1', 'undone', { spend: '500', leads: 2 });
      const { rule } = await seedRule(dbh.db, account.adAccountId, { hours: [[MONDAY, 12]] });
      await dbh.db.insert(ruleExemptions).values({ ruleId: rule.id, objectId: 'undone' });
      const result = await runSlot(ctx(), { ruleId: rule.id, slot: SEVEN_AM_NY, kind: 'run' });
      expect(result.turnedOff).toEqual([]);
      expect(platform.writes).toEqual([]);
    });

    it('turns off a campaign whose seats are filled', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        hours: [[MONDAY, 12]],
        tasks: { campaign_leads: { leads: '6' } },
      });
      await runSlot(ctx(), { ruleId: rule.id, slot: SEVEN_AM_NY, kind: 'run' });
      expect(platform.status('c1')).toBe('PAUSED');
      const [entry] = await activityOf(dbh.db, rule.id);
      expect(entry).toMatchObject({
        action: 'turn_off_campaign',
        adId: 'c1',
        objectType: 'campaign',
        reason: { Leads: '6 ≥ 6' },
      });
    });

    it('retries a run whose status change failed without a second entry, and records nothing half-done', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, { hours: [[MONDAY, 12]] });
      platform.failNext('setStatuses', 1, new Error('(#2) Service temporarily unavailable'));
      await expect(runSlot(ctx(), { ruleId: rule.id, slot: SEVEN_AM_NY, kind: 'run' })).rejects.toThrow(
        'Service temporarily unavailable',
      );
      expect(platform.status('expensive')).toBe('ACTIVE');
      // The claimed turn-off waits, unlisted, for the retry.
      expect((await activityOf(dbh.db, rule.id)).map((e) => e.state)).toEqual(['pending']);
      await dbh.db.update(ruleRuns).set({ status: 'failed' }).where(eq(ruleRuns.ruleId, rule.id)); // as the worker does
      const retry = await runSlot(ctx(), { ruleId: rule.id, slot: SEVEN_AM_NY, kind: 'run' });
      expect(retry.turnedOff.map((e) => e.adId)).toEqual(['expensive']);
      const entries = await activityOf(dbh.db, rule.id);
      expect(entries.map((e) => [e.action, e.adId, e.state])).toEqual([['turn_off_ad', 'expensive', 'done']]);
      expect(platform.writes).toEqual([{ id: 'expensive', status: 'PAUSED' }]);
    });

    it('turns an unsent claim into an error entry when the last attempt fails, and records the failed run', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, { hours: [[MONDAY, 12]] });
      const run = { ruleId: rule.id, slot: SEVEN_AM_NY, kind: 'run' as const };
      platform.failNext('setStatuses', 1, new Error('(#17) User request limit reached'));
      const error = await runSlot(ctx(), run).catch((e: unknown) => e);
      await recordRunFailure(ctx(), run, error);
      const entries = await activityOf(dbh.db, rule.id);
      expect(entries.map((e) => [e.action, e.adId])).toEqual([
        ['error', 'expensive'],
        ['error', null],
      ]);
      expect(entries[0]!.reason.Error).toBe('Could not turn off ad: (#17) User request limit reached');
      expect(entries[1]!.reason).toMatchObject({ Error: '(#17) User request limit reached', Run: '12:00 PM run' });
      const [ledger] = await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule.id));
      expect(ledger).toMatchObject({ status: 'failed' });
    });

    it('records each object the platform refused as an error beside the ones that went through', async () => {
      platform.addAd(account.adAccountId, 'c1', 'refused', { spend: '300', leads: 2 });
      platform.refuse.add('refused');
      const { rule } = await seedRule(dbh.db, account.adAccountId, { hours: [[MONDAY, 12]] });
      const result = await runSlot(ctx(), { ruleId: rule.id, slot: SEVEN_AM_NY, kind: 'run' });
      expect(result.turnedOff.map((e) => e.adId)).toEqual(['expensive']);
      const entries = await activityOf(dbh.db, rule.id);
      expect(entries.map((e) => [e.action, e.adId])).toEqual([
        ['turn_off_ad', 'expensive'],
        ['error', 'refused'],
      ]);
      expect(entries[1]!.reason.Error).toBe('Could not turn off ad: (#100) Unsupported request');
    });

    it('catches up on missed hours of today in one run, says so, and never replays yesterday', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        timezone: 'America/New_York',
        everyDayAt: [2, 7, 12, 23],
      });
      clock = new Date('2024-01-15T18:30:00Z'); // 1:30 PM in New York: 2 AM, 7 AM and 12 PM have passed
      const [due] = (await dueWork(dbh.db, clock)).filter((d) => d.ruleId === rule.id);
      expect(due).toEqual({
        queue: 'run',
        ruleId: rule.id,
        slot: new Date('2024-01-15T17:00:00Z'),
        missed: [new Date('2024-01-15T07:00:00Z'), new Date('2024-01-15T12:00:00Z')],
        late: true,
      });
      await runSlot(ctx(), { ruleId: rule.id, slot: due!.slot, kind: 'run', missed: due!.missed, late: due!.late });
      const [entry] = await activityOf(dbh.db, rule.id);
      expect(entry!.reason['Caught up']).toBe('2:00 AM, 7:00 AM, 12:00 PM run, done at 1:30 PM');
      expect(
        quietLog.lines.some((l) => l.includes('caught up on the missed 2:00 AM, 7:00 AM, 12:00 PM run of today')),
      ).toBe(true);
      const ledger = await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule.id)).orderBy(ruleRuns.slot);
      expect(ledger.map((r) => r.status)).toEqual(['superseded', 'superseded', 'done']);
      expect((await dueWork(dbh.db, clock)).filter((d) => d.ruleId === rule.id)).toEqual([]);
      // The next morning, yesterday's 11 PM is gone: only today's 2 AM is due.
      clock = new Date('2024-01-16T07:30:00Z');
      expect((await dueWork(dbh.db, clock)).filter((d) => d.ruleId === rule.id).map((d) => [d.slot, d.missed])).toEqual(
        [[new Date('2024-01-16T07:00:00Z'), []]],
      );
    });

    it('does not replay hours that were over before the rule was switched on or changed', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        timezone: 'America/New_York',
        everyDayAt: [2, 7, 12],
        updatedAt: new Date('2024-01-15T13:20:00Z'), // changed at 8:20 AM: 7 AM's hour is over
      });
      clock = new Date('2024-01-15T17:05:00Z');
      expect((await dueWork(dbh.db, clock)).filter((d) => d.ruleId === rule.id).map((d) => [d.slot, d.missed])).toEqual(
        [[new Date('2024-01-15T17:00:00Z'), []]],
      );
    });

    it('skips inactive rules and rules in the trash', async () => {
      const off = await seedRule(dbh.db, account.adAccountId, { hours: [[MONDAY, 12]], isActive: false });
      expect((await dueWork(dbh.db, clock)).some((d) => d.ruleId === off.rule.id)).toBe(false);
      const result = await runSlot(ctx(), { ruleId: off.rule.id, slot: SEVEN_AM_NY, kind: 'run' });
      expect(result.status).toBe('rule_unavailable');
      expect(platform.calls.getInsights).toBe(0);
    });

    it('runs by hand (Run now) even outside the schedule, marked as such', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, { hours: [] });
      const result = await runSlot(ctx(), {
        ruleId: rule.id,
        slot: clock,
        kind: 'manual',
        actorId: null,
        actorName: 'Ada Admin',
      });
      expect(result.turnedOff.map((e) => [e.adId, e.reason.Run])).toEqual([['expensive', 'Run now by Ada Admin']]);
    });

    it('mails a digest at the alert hour of what the rule did since its last alert, once', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        timezone: 'America/New_York',
        hours: [[MONDAY, 6]],
        alertHours: [7],
        ruleName: 'EP-W: Pause ad CPL > $50',
      });
      await runSlot(ctx(), { ruleId: rule.id, slot: new Date('2024-01-15T11:00:00Z'), kind: 'run' });
      const due = (await dueWork(dbh.db, clock)).filter((d) => d.ruleId === rule.id);
      expect(due.map((d) => [d.queue, d.slot])).toEqual([['alert', SEVEN_AM_NY]]);

      const mailer = new CapturingMailer();
      const alerts = {
        db: dbh.db,
        log: quietLog,
        mailer,
        recipients: ['ops@example.com', 'lead@example.com'],
        publicUrl: 'http://console.test',
      };
      const sent = await runAlert(alerts, rule.id, SEVEN_AM_NY);
      expect(sent.status).toBe('sent');
      expect(mailer.sent).toHaveLength(1);
      expect(mailer.sent[0]!.to).toBe('ops@example.com, lead@example.com');
      expect(mailer.sent[0]!.subject).toMatch(/^EP-W: Pause ad CPL > \$50: 1 rule action/);
      expect(mailer.sent[0]!.text).toContain('turn off ad expensive (CPL: $62.10 > $50.00');
      expect(mailer.sent[0]!.text).toContain(`http://console.test/activity?rule_id=${rule.id}`);
      const entries = await activityOf(dbh.db, rule.id);
      expect(entries.at(-1)).toMatchObject({
        action: 'alert_sent',
        reason: { Recipients: 'ops@example.com, lead@example.com', Actions: '1' },
      });

      expect((await runAlert(alerts, rule.id, SEVEN_AM_NY)).status).toBe('already_done');
      // The next day's alert has nothing new to report: no mail.
      expect((await runAlert(alerts, rule.id, new Date('2024-01-16T12:00:00Z'))).status).toBe('nothing_to_report');
      expect(mailer.sent).toHaveLength(1);
    });

    it('keeps the ledger per rule: one slot done does not hide another rule’s', async () => {
      const a = await seedRule(dbh.db, account.adAccountId, { hours: [[MONDAY, 12]] });
      const b = await seedRule(dbh.db, account.adAccountId, { hours: [[MONDAY, 12]] });
      await runSlot(ctx(), { ruleId: a.rule.id, slot: SEVEN_AM_NY, kind: 'run' });
      const due = (await dueWork(dbh.db, clock)).filter((d) => d.ruleId === a.rule.id || d.ruleId === b.rule.id);
      expect(due.map((d) => d.ruleId)).toEqual([b.rule.id]);
      const rows = await dbh.db
        .select()
        .from(ruleRuns)
        .where(and(eq(ruleRuns.ruleId, a.rule.id), eq(ruleRuns.kind, 'run')));
      expect(rows.map((r) => r.status)).toEqual(['done']);
    });
  });
});
