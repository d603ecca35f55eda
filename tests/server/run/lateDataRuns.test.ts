import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DbHandle } from '../../../server/db/client';
import { ruleActivity, ruleRuns, rules } from '../../../server/db/schema/index';
import { recordRunFailure } from '../../../server/run/pipeline/record';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import { expandObjects } from '../../../server/judgement/runRecord';
import type { Database } from '../../../server/db/client';
import { checkPlatformHealth } from '../../../server/health/monitor';
import { eachDatabase } from '../../support/db';
import {
  activityOf,
  CapturingMailer,
  engineContext,
  type FakePlatform,
  quietLog,
  type seedAccount,
  seedRule,
  accountOnPlatform,
} from './support';

const SLOT = new Date('2024-01-15T12:00:00Z');

/** The objects of a run record with each task's verdict, as GET /api/rule_runs/{id}/ shows them. */
async function expandRunRecord(db: Database, runId: number) {
  const [run] = await db.select({ details: ruleRuns.details }).from(ruleRuns).where(eq(ruleRuns.id, runId));
  return expandObjects(run!.details);
}
const LATER = new Date('2024-01-15T18:00:00Z');

eachDatabase((engine) => {
  describe(`judging late data on ${engine}`, () => {
    let dbh: DbHandle;
    let platform: FakePlatform;
    let account: Awaited<ReturnType<typeof seedAccount>>;
    const world = accountOnPlatform(engine);

    beforeEach(() => {
      ({ dbh, platform, account } = world);
      platform.addAd(account.adAccountId, 'c1', 'late', { spend: '186.30', leads: 3 }); // CPL $62.10
      platform.addAd(account.adAccountId, 'c1', 'steady', { spend: '90', leads: 3 }); // CPL $30.00
    });

    const at = (instant: Date) => engineContext(dbh.db, platform, () => instant);

    it('revives an ad whose late leads arrived exactly once, with two workers racing, and says which leads and the new CPL', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        everyDayAt: [12, 18],
        judging: { revive_hours: 72 },
      });
      await runSlot(at(SLOT), { ruleId: rule.id, slot: SLOT, kind: 'run' });
      expect(platform.status('late')).toBe('PAUSED');

      // Two leads bought by the spend before the turn-off arrive late: CPL $37.26, under $50.
      platform.insights.get('late')!.actions = [{ action_type: 'lead', value: '5' }];
      // Two workers with their own snapshot stores: the scheduled run and a Run now at the same time.
      const [scheduled, byHand] = await Promise.all([
        runSlot(at(LATER), { ruleId: rule.id, slot: LATER, kind: 'run' }),
        runSlot(at(LATER), { ruleId: rule.id, slot: LATER, kind: 'manual', actorName: 'Ada' }),
      ]);
      expect([scheduled.status, byHand.status]).toEqual(['done', 'done']);
      expect(platform.writes.filter((w) => w.id === 'late')).toEqual([
        { id: 'late', status: 'PAUSED' },
        { id: 'late', status: 'ACTIVE' },
      ]);
      const revives = (await activityOf(dbh.db, rule.id)).filter((e) => e.action === 'revive_ad');
      expect(revives).toHaveLength(1);
      expect(revives[0]).toMatchObject({
        adId: 'late',
        state: 'done',
        reason: { 'Leads arrived': '2 since the turn-off (3 → 5)', CPL: '$37.26', Spend: '$186.30' },
      });
      const [turnOff] = await dbh.db.select().from(ruleActivity).where(eq(ruleActivity.action, 'turn_off_ad'));
      expect(revives[0]!.reversesId).toBe(turnOff!.id);
      // The run that revived says so in its record.
      const record = await expandRunRecord(dbh.db, revives[0]!.runId!);
      expect(record.find((o) => o.id === 'late')!.verdicts).toEqual({ trigger_cpl: 'revived' });
      const [revivingRun] = await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.id, revives[0]!.runId!));
      expect(revivingRun).toMatchObject({ note: '1 revived', counts: { revived: 1 } });

      // Nothing revives it twice: a later run finds it on (and under the threshold).
      const again = await runSlot(at(new Date('2024-01-15T19:00:00Z')), {
        ruleId: rule.id,
        slot: new Date('2024-01-15T19:00:00Z'),
        kind: 'run',
      });
      expect(again.status).toBe('done');
      expect((await activityOf(dbh.db, rule.id)).filter((e) => e.action === 'revive_ad')).toHaveLength(1);
    });

    it('does not turn off again within the cool-down an ad someone turned back on by hand on the platform', async () => {
      platform.addAd(account.adAccountId, 'c1', 'by-hand', { spend: '200', leads: 2 }); // CPL $100
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        everyDayAt: [12, 18],
        judging: { cooldown_hours: 24 },
      });
      await runSlot(at(SLOT), { ruleId: rule.id, slot: SLOT, kind: 'run' });
      expect(platform.status('by-hand')).toBe('PAUSED');
      platform.ads.get('by-hand')!.status = 'ACTIVE'; // turned back on in Ads Manager
      platform.ads.get('by-hand')!.effective_status = 'ACTIVE';
      const result = await runSlot(at(LATER), { ruleId: rule.id, slot: LATER, kind: 'run' });
      expect(result.turnedOff.map((e) => e.adId)).not.toContain('by-hand');
      expect(platform.status('by-hand')).toBe('ACTIVE');
      const record = await expandRunRecord(dbh.db, result.runId!);
      expect(record.find((o) => o.id === 'by-hand')!.verdicts).toEqual({ trigger_cpl: 'cooling_down' });
      const [run] = await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.id, result.runId!));
      expect(run!.counts!.cooling_down).toBeGreaterThan(0);
    });

    it('holds the runs of an account the token can no longer read, and mails that problem once', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, { everyDayAt: [12] });
      const mailer = new CapturingMailer();
      const alerts = { mailer, recipients: ['ops@example.com'], publicUrl: 'http://app.test' };
      const deps = { db: dbh.db, client: platform, now: () => SLOT, alerts, log: quietLog };
      // The fake platform lists no ad account: the token lost this one.
      await checkPlatformHealth(deps);
      await checkPlatformHealth(deps);
      const mails = mailer.sent.filter((m) => m.text.includes(account.accountName));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe(
        `Platform health: the token can no longer read the ad account — ${account.accountName}`,
      );

      const result = await runSlot(at(SLOT), { ruleId: rule.id, slot: SLOT, kind: 'run' });
      expect(result.status).toBe('unhealthy');
      expect(result.note).toContain('not among the ad accounts the token can read');
      expect(platform.writes).toEqual([]);
      expect(platform.calls.getInsights).toBe(0);
      const [run] = await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule.id));
      expect(run).toMatchObject({ status: 'done', outcome: 'unhealthy' });
    });

    it('switches a rule with half of its last 20 runs failed to notify only, once, until a person switches it back', async () => {
      const { rule, folder } = await seedRule(dbh.db, account.adAccountId, { everyDayAt: [12] });
      const hour = (h: number) => new Date(Date.UTC(2024, 0, 10, h));
      await dbh.db
        .insert(ruleRuns)
        .values(
          Array.from({ length: 9 }, (_, i) => ({ ruleId: rule.id, slot: hour(i), kind: 'run', status: 'failed' })),
        );
      await dbh.db
        .insert(ruleRuns)
        .values(
          Array.from({ length: 10 }, (_, i) => ({ ruleId: rule.id, slot: hour(10 + i), kind: 'run', status: 'done' })),
        );
      const mailer = new CapturingMailer();
      const ctx = engineContext(dbh.db, platform, () => SLOT, {
        alerts: { mailer, recipients: ['ops@example.com'], publicUrl: 'http://app.test' },
      });
      const run = { ruleId: rule.id, slot: SLOT, kind: 'run' as const };
      // The 20th run: claimed, and its last attempt fails.
      await dbh.db.insert(ruleRuns).values({ ruleId: rule.id, slot: SLOT, kind: 'run', status: 'running' });
      await recordRunFailure(ctx, run, new Error('(#2) Service temporarily unavailable'));
      const [stopped] = await dbh.db.select().from(rules).where(eq(rules.id, rule.id));
      expect(stopped!.notifyOnly).toBe(true);
      const entries = (await activityOf(dbh.db, rule.id)).filter((e) => e.action === 'rule_stopped');
      expect(entries).toHaveLength(1);
      expect(entries[0]!.reason['Switched to notify only']).toBe('10 of its last 20 runs failed');
      expect(mailer.sent.map((m) => m.subject)).toEqual([
        `Rule switched to notify only: ${rule.name} (${folder.name})`,
      ]);

      // A person switches it back: the count starts afresh, so the next failure does not stop it again.
      await dbh.db
        .update(rules)
        .set({ notifyOnly: false, failuresCountedFrom: new Date() })
        .where(eq(rules.id, rule.id));
      const next = { ruleId: rule.id, slot: new Date('2024-01-16T12:00:00Z'), kind: 'run' as const };
      await recordRunFailure(ctx, next, new Error('(#2) Service temporarily unavailable'));
      const [after] = await dbh.db.select().from(rules).where(eq(rules.id, rule.id));
      expect(after!.notifyOnly).toBe(false);
    });
  });
});
