/**
 * Exactly once for runs that overlap or are cut off, on both databases (the multi-process versions
 * are runNowProcesses.test.ts and processes.test.ts): a Run now started while another run's
 * turn-off is in flight leaves it to that run; a run whose process went silent is settled by
 * another — what landed confirmed, what did not recorded as not done, the run closed — once,
 * however many processes sweep at the same moment.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { ObjectStatus, StatusChangeResult } from '../../../server/adplatform/types';
import type { DbHandle } from '../../../server/db/client';
import { ruleRuns } from '../../../server/db/schema/index';
import { createActivityStore } from '../../../server/activity/entries';
import { createLedgerStore } from '../../../server/run/ledger';
import { settleOrphanedRuns } from '../../../server/run/orphanedRuns';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import { eachDatabase, freshDatabase } from '../../support/db';
import { waitUntil } from '../../support/waitUntil';
import { activityOf, engineContext, FakePlatform, seedAccount, seedRule } from './support';

/** A platform whose status changes wait at a gate until the test opens it (a write in flight). */
class GatedPlatform extends FakePlatform {
  private opened!: () => void;
  gate = new Promise<void>((resolve) => {
    this.opened = resolve;
  });
  sending = 0;
  open() {
    this.opened();
  }
  override async setStatuses(changes: { id: string; status: ObjectStatus }[]): Promise<StatusChangeResult[]> {
    this.sending += 1;
    await this.gate;
    return super.setStatuses(changes);
  }
}

eachDatabase((engine) => {
  describe(`overlapping and cut-off runs on ${engine}`, () => {
    let dbh: DbHandle;
    let platform: GatedPlatform;
    let account: Awaited<ReturnType<typeof seedAccount>>;
    const clock = new Date('2026-03-02T15:00:00Z');
    const ctx = () => engineContext(dbh.db, platform, () => clock);

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
    });
    afterAll(() => dbh.close());
    // Each test has its own ads: the entries of one test's ads never stand in another's way.
    let dear: string;
    let dearer: string;
    beforeEach(async () => {
      platform = new GatedPlatform();
      account = await seedAccount(dbh.db);
      [dear, dearer] = [`${account.adAccountId}-dear`, `${account.adAccountId}-dearer`];
      platform.addCampaign(account.adAccountId, 'c1', 'EDM EP-W 2026-04-01 6PM');
      platform.addAd(account.adAccountId, 'c1', dear, { spend: '186.30', leads: 3 });
      platform.addAd(account.adAccountId, 'c1', dearer, { spend: '300', leads: 2 });
      platform.addAd(account.adAccountId, 'c1', `${account.adAccountId}-cheap`, { spend: '30', leads: 3 });
    });

    /** Makes the run's attempt look like one whose process stopped `ms` ago. */
    const silence = (runId: number, ms: number) =>
      dbh.db
        .update(ruleRuns)
        .set({ heartbeatAt: sql`now() - ${ms} * interval '1 millisecond'` })
        .where(eq(ruleRuns.id, runId));

    it("a Run now started while another run's turn-off is in flight leaves the ad to it", async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId);
      const first = runSlot(ctx(), { ruleId: rule.id, slot: new Date(clock.getTime() + 1), kind: 'manual' });
      await waitUntil(() => platform.sending === 1, 'the run to send its status changes', { intervalMs: 10 });

      const second = await runSlot(ctx(), { ruleId: rule.id, slot: new Date(clock.getTime() + 2), kind: 'manual' });
      expect(second.turnedOff).toEqual([]);
      expect(platform.sending).toBe(1); // the second run sent nothing
      platform.open();
      expect((await first).turnedOff.map((e) => e.adId).sort()).toEqual([dear, dearer]);

      expect(platform.writes.map((w) => w.id).sort()).toEqual([dear, dearer]);
      const entries = await activityOf(dbh.db, rule.id);
      expect(
        entries
          .filter((e) => e.action === 'turn_off_ad')
          .map((e) => e.adId)
          .sort(),
      ).toEqual([dear, dearer]);
    });

    it('a claim of another slot still pending blocks a second claim of the object, whatever its snapshot', async () => {
      const { rule, folder } = await seedRule(dbh.db, account.adAccountId);
      const scope = (snapshotId: number) => ({
        ruleId: rule.id,
        folderId: folder.id,
        slot: new Date(clock.getTime() + snapshotId),
        snapshotId,
        actorId: null,
        at: clock,
        readAt: clock,
      });
      const action = {
        action: 'turn_off_ad' as const,
        objectId: dear,
        campaignId: 'c1',
        task: 'trigger_cpl' as const,
        reason: {},
      };
      const claims = await Promise.all([
        createActivityStore(dbh.db).claimTurnOffs(scope(9001), [action]),
        createActivityStore(dbh.db).claimTurnOffs(scope(9002), [action]),
        createActivityStore(dbh.db).claimTurnOffs(scope(9003), [action]),
      ]);
      expect(claims.map((c) => c.length).sort()).toEqual([0, 0, 1]);
    });

    it('settles a Run now whose process stopped: the pause that landed confirmed, the other recorded as not done, once', async () => {
      const { rule, folder } = await seedRule(dbh.db, account.adAccountId);
      const slot = new Date(clock.getTime() + 5);
      const { id: runId } = await createLedgerStore(dbh.db).claimRun(rule.id, slot, 'manual', 20_000, 'run_now');
      const scope = {
        ruleId: rule.id,
        folderId: folder.id,
        slot,
        snapshotId: null,
        actorId: null,
        runId,
        at: clock,
        readAt: clock,
      };
      const planned = [dear, dearer].map((objectId) => ({
        action: 'turn_off_ad' as const,
        objectId,
        campaignId: 'c1',
        task: 'trigger_cpl' as const,
        reason: { CPL: 'over' },
      }));
      expect(await createActivityStore(dbh.db).claimTurnOffs(scope, planned)).toHaveLength(2);
      // The process sent its batch and died: Graph applied the first pause only.
      platform.open();
      await platform.setStatuses([{ id: dear, status: 'PAUSED' }]);
      await silence(runId!, 5_000);

      // Still beating (silent for less than the lease): left alone.
      expect(await settleOrphanedRuns(ctx(), { manualMs: 60_000, scheduledMs: 600_000 })).toBe(0);
      // Two processes sweep at the same moment: one settles it.
      const settled = await Promise.all([
        settleOrphanedRuns(ctx(), { manualMs: 1_000, scheduledMs: 600_000 }),
        settleOrphanedRuns(ctx(), { manualMs: 1_000, scheduledMs: 600_000 }),
      ]);
      expect(settled.sort()).toEqual([0, 1]);

      const [run] = await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.id, runId!));
      expect(run).toMatchObject({ status: 'done', outcome: 'partly_failed', counts: { acted: 1, failed: 1 } });
      expect(run!.note).toMatch(/settled by another process: 1 turned off, 1 not/);
      const entries = await activityOf(dbh.db, rule.id);
      expect(entries.map((e) => [e.adId, e.action, e.state]).sort()).toEqual([
        [dear, 'turn_off_ad', 'done'],
        [dearer, 'error', 'done'],
      ]);
      expect(entries.find((e) => e.adId === dear)!.reason.Confirmed).toMatch(/read back from the ad platform/);
      expect(entries.find((e) => e.adId === dearer)!.reason.Error).toMatch(/still on/);
      expect(platform.writes.map((w) => w.id)).toEqual([dear]); // nothing was sent again

      // The object is free again: a Run now now turns off what is still on, once.
      const again = await runSlot(ctx(), { ruleId: rule.id, slot: new Date(clock.getTime() + 6), kind: 'manual' });
      expect(again.turnedOff.map((e) => e.adId)).toEqual([dearer]);
      expect(await settleOrphanedRuns(ctx(), { manualMs: 1_000, scheduledMs: 600_000 })).toBe(0);
    });

    it('a cut-off run that had claimed nothing is closed as failed with an Activity entry saying so', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId);
      const slot = new Date(clock.getTime() + 7);
      const { id: runId } = await createLedgerStore(dbh.db).claimRun(rule.id, slot, 'manual', 20_000, 'run_now');
      await silence(runId!, 5_000);
      expect(await settleOrphanedRuns(ctx(), { manualMs: 1_000, scheduledMs: 600_000 })).toBe(1);
      const [run] = await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.id, runId!));
      expect(run!.status).toBe('failed');
      const entries = await activityOf(dbh.db, rule.id);
      expect(entries.map((e) => [e.action, e.reason.Run])).toEqual([['error', 'Run now']]);
      expect(entries[0]!.reason.Error).toMatch(/stopped before it finished; nothing was turned off/);
    });

    it("a scheduled run is left to its job's retry, and settled only once it is past the retries", async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId);
      const slot = new Date('2026-03-02T14:00:00Z');
      const { id: runId } = await createLedgerStore(dbh.db).claimRun(rule.id, slot, 'run', 20_000, 'schedule');
      await silence(runId!, 60_000);
      expect(await settleOrphanedRuns(ctx(), { manualMs: 1_000, scheduledMs: 300_000 })).toBe(0);
      // The retry takes it over once its process has been silent for the lease.
      expect((await createLedgerStore(dbh.db).claimRun(rule.id, slot, 'run', 20_000)).claim).toBe('claimed');
      await silence(runId!, 400_000);
      expect(await settleOrphanedRuns(ctx(), { manualMs: 1_000, scheduledMs: 300_000 })).toBe(1);
    });
  });
});
