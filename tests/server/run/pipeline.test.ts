import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { DbHandle } from '../../../server/db/client';
import { ruleExemptions, ruleRuns, rules } from '../../../server/db/schema/index';
import type { Mailer } from '../../../server/mail/mailer';
import { runAlert } from '../../../server/alerts/digests';
import { recordRunFailure } from '../../../server/run/pipeline/record';
import { runBatch, runSlot } from '../../../server/run/pipeline/runBatch';
import { dueWork } from '../../../server/run/dueRuns';
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
      expect(due).toEqual([
        { queue: 'run', ruleId: rule.id, adAccountId: account.adAccountId, slot: SEVEN_AM_NY, missed: [], late: false },
      ]);

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
        adAccountId: account.adAccountId,
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

    describe('one account’s rules due in the same slot, run as one batch', () => {
      const due = (ruleIds: number[]) => ruleIds.map((ruleId) => ({ ruleId, slot: SEVEN_AM_NY, kind: 'run' as const }));
      const ledgerOf = async (ruleId: number) =>
        (await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, ruleId)))[0]!;

      it('reads the account once, sends one status change, and keeps each rule’s run record and activity', async () => {
        platform.addAd(account.adAccountId, 'c1', 'pricey', { spend: '300', leads: 3 }); // CPL $100
        const over50 = await seedRule(dbh.db, account.adAccountId, { tasks: { trigger_cpl: { cpl: '50' } } });
        const over20 = await seedRule(dbh.db, account.adAccountId, { tasks: { trigger_cpl: { cpl: '20' } } });
        const over90 = await seedRule(dbh.db, account.adAccountId, { tasks: { trigger_cpl: { cpl: '90' } } });
        const ids = [over50.rule.id, over20.rule.id, over90.rule.id];

        const outcomes = await runBatch(ctx(), due(ids));
        expect(outcomes.map((o) => [o.run.ruleId, o.result?.status, o.error])).toEqual(
          ids.map((id) => [id, 'done', undefined]),
        );
        expect(platform.calls).toEqual({ listCampaigns: 1, listAds: 1, getInsights: 1, setStatuses: 1 });
        expect(platform.writes.map((w) => w.id).sort()).toEqual(['cheap', 'expensive', 'pricey']);

        // Each object is turned off once, by the first rule of the batch that planned it.
        const turnedOff = async (ruleId: number) =>
          (await activityOf(dbh.db, ruleId)).map((e) => [e.action, e.adId, e.state]);
        expect(await turnedOff(over50.rule.id)).toEqual([
          ['turn_off_ad', 'expensive', 'done'],
          ['turn_off_ad', 'pricey', 'done'],
        ]);
        expect(await turnedOff(over20.rule.id)).toEqual([['turn_off_ad', 'cheap', 'done']]);
        expect(await turnedOff(over90.rule.id)).toEqual([]);
        expect((await activityOf(dbh.db, over20.rule.id))[0]!.reason).toMatchObject({ CPL: '$30.00 > $20.00' });

        for (const [index, { rule }] of [over50, over20, over90].entries()) {
          const ledger = await ledgerOf(rule.id);
          expect(ledger).toMatchObject({ status: 'done', outcome: 'done', trigger: 'schedule', attempts: 1 });
          expect(outcomes[index]!.result!.runId).toBe(ledger.id);
          for (const entry of await activityOf(dbh.db, rule.id)) expect(entry.runId).toBe(ledger.id);
        }
        expect((await ledgerOf(over50.rule.id)).counts).toMatchObject({ objects: 3, acted: 2, failed: 0 });
        expect((await ledgerOf(over50.rule.id)).note).toBe('2 turn-offs');
        // The others' planned turn-offs were made by the first rule: not acted on here.
        expect((await ledgerOf(over20.rule.id)).counts).toMatchObject({ acted: 1, already_off: 2 });
        expect((await ledgerOf(over90.rule.id)).counts).toEqual({
          objects: 3,
          already_off: 1,
          under_threshold: 2,
          failed: 0,
        });
      });

      it('holds, notifies and acts side by side in one batch, each as its own run', async () => {
        const acting = await seedRule(dbh.db, account.adAccountId, { tasks: { trigger_cpl: { cpl: '50' } } });
        const notifying = await seedRule(dbh.db, account.adAccountId, { tasks: { trigger_cpl: { cpl: '20' } } });
        await dbh.db.update(rules).set({ notifyOnly: true }).where(eq(rules.id, notifying.rule.id));
        const holding = await seedRule(dbh.db, account.adAccountId, { tasks: { trigger_cpl: { cpl: '20' } } });
        const mailer = new CapturingMailer();
        const context = engineContext(dbh.db, platform, now, {
          limits: { maxShare: 1, maxActions: 1 },
          alerts: { mailer, recipients: ['ops@example.com'], publicUrl: 'http://console.test' },
        });

        const outcomes = await runBatch(context, due([acting.rule.id, notifying.rule.id, holding.rule.id]));
        expect(outcomes.map((o) => o.result?.status)).toEqual(['done', 'notify_only', 'held']);
        expect(platform.writes).toEqual([{ id: 'expensive', status: 'PAUSED' }]);
        expect((await activityOf(dbh.db, notifying.rule.id)).map((e) => [e.action, e.adId]).sort()).toEqual([
          ['would_turn_off_ad', 'cheap'],
          ['would_turn_off_ad', 'expensive'],
        ]);
        expect((await activityOf(dbh.db, holding.rule.id)).map((e) => e.action)).toEqual(['run_held']);
        expect(mailer.sent).toHaveLength(1);
        expect((await ledgerOf(notifying.rule.id)).outcome).toBe('notify_only');
        expect((await ledgerOf(holding.rule.id)).outcome).toBe('held');
      });

      it('a rule failing in the batch does not take the others down; its retry acts once', async () => {
        platform.addAd(account.adAccountId, 'c1', 'mid', { spend: '120', leads: 3 }); // CPL $40
        const acting = await seedRule(dbh.db, account.adAccountId, { tasks: { trigger_cpl: { cpl: '50' } } });
        const holding = await seedRule(dbh.db, account.adAccountId, { tasks: { trigger_cpl: { cpl: '25' } } });
        const broken: Mailer = {
          mode: 'outbox',
          send: async () => {
            throw new Error('mail server down');
          },
          close: async () => undefined,
        };
        const alerts = { recipients: ['ops@example.com'], publicUrl: 'http://console.test' };
        const limits = { maxShare: 1, maxActions: 1 };
        const ids = [holding.rule.id, acting.rule.id];

        const first = await runBatch(
          engineContext(dbh.db, platform, now, { limits, alerts: { ...alerts, mailer: broken } }),
          due(ids),
        );
        expect(String(first[0]!.error)).toContain('mail server down');
        expect(first[1]!.result).toMatchObject({ status: 'done', note: '1 turn-off' });
        expect(await ledgerOf(holding.rule.id)).toMatchObject({ status: 'failed', error: 'mail server down' });
        expect(await ledgerOf(acting.rule.id)).toMatchObject({ status: 'done', outcome: 'done' });

        // The job's retry: the failed rule runs again, the one done is found finished.
        const mailer = new CapturingMailer();
        const retry = await runBatch(
          engineContext(dbh.db, platform, now, { limits, alerts: { ...alerts, mailer } }),
          due(ids),
        );
        expect(retry.map((o) => o.result?.status)).toEqual(['held', 'already_done']);
        expect(mailer.sent).toHaveLength(1);
        expect(await ledgerOf(holding.rule.id)).toMatchObject({ status: 'done', outcome: 'held', attempts: 2 });
        expect(platform.writes).toEqual([{ id: 'expensive', status: 'PAUSED' }]);
      });

      it('replays a batch that failed between claiming and confirming exactly once', async () => {
        platform.addAd(account.adAccountId, 'c1', 'pricey', { spend: '300', leads: 3 });
        const a = await seedRule(dbh.db, account.adAccountId, { tasks: { trigger_cpl: { cpl: '50' } } });
        const b = await seedRule(dbh.db, account.adAccountId, { tasks: { trigger_cpl: { cpl: '20' } } });
        const ids = [a.rule.id, b.rule.id];
        platform.failNext('setStatuses', 1, new Error('socket hang up'));

        const first = await runBatch(ctx(), due(ids));
        expect(first.map((o) => String(o.error))).toEqual(['Error: socket hang up', 'Error: socket hang up']);
        expect(platform.writes).toEqual([]);
        // Every claim waits, unlisted, for the retry; both runs are released for it.
        expect((await activityOf(dbh.db, a.rule.id)).map((e) => [e.adId, e.state])).toEqual([
          ['expensive', 'pending'],
          ['pricey', 'pending'],
        ]);
        expect((await activityOf(dbh.db, b.rule.id)).map((e) => [e.adId, e.state])).toEqual([['cheap', 'pending']]);
        expect((await ledgerOf(a.rule.id)).status).toBe('failed');

        const retry = await runBatch(ctx(), due(ids));
        expect(retry.map((o) => o.result?.turnedOff.map((e) => e.adId).sort())).toEqual([
          ['expensive', 'pricey'],
          ['cheap'],
        ]);
        expect(platform.calls.setStatuses).toBe(2);
        expect(platform.writes.map((w) => w.id).sort()).toEqual(['cheap', 'expensive', 'pricey']);
        const entries = [...(await activityOf(dbh.db, a.rule.id)), ...(await activityOf(dbh.db, b.rule.id))];
        expect(entries.map((e) => [e.adId, e.state]).sort()).toEqual([
          ['cheap', 'done'],
          ['expensive', 'done'],
          ['pricey', 'done'],
        ]);
        for (const id of ids) expect(await ledgerOf(id)).toMatchObject({ status: 'done', attempts: 2 });
        // The account was read once: the retry used the slot's snapshot.
        expect(platform.calls.getInsights).toBe(1);
      });
    });
  });
});
