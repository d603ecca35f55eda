/**
 * Campaign sync from the simulator into PGlite and PostgreSQL: what lands in the tables, that it is
 * idempotent, that a failing ad account keeps its data while the others update, that an older
 * reading never overwrites a newer one, and the periodic job's lease.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { GraphClient } from '../../../server/adplatform/graphClient';
import { startSimulator, type Simulator } from '../../../server/adplatform/simulator/index';
import { insightMetrics } from '../../../server/adplatform/insightValues';
import { CampaignSync } from '../../../server/campaigns/sync';
import { acquireLease, releaseLease, startSyncJob } from '../../../server/campaigns/job';
import type { DbHandle } from '../../../server/db/client';
import { campaigns, metaAdAccounts, syncState } from '../../../server/db/schema/index';
import { eachDatabase, freshDatabase } from '../../support/db';

const START = '2026-03-02T15:00:00Z';

eachDatabase((engine) => {
  describe(`campaign sync on ${engine}`, () => {
    let sim: Simulator;
    let dbh: DbHandle;
    let client: GraphClient;
    let sync: CampaignSync;

    beforeAll(async () => {
      [sim, dbh] = await Promise.all([
        startSimulator({ seed: 11, start: START, speed: 0, accounts: 3, campaignsPerAccount: 6, adsPerCampaign: 2 }),
        freshDatabase(engine),
      ]);
      client = new GraphClient({
        baseUrl: sim.url,
        apiVersion: 'v25.0',
        accessToken: 't',
        sleep: async () => undefined,
        maxAttempts: 2,
      });
      sync = new CampaignSync(dbh.db, client);
    });
    afterAll(async () => {
      await sim.close();
      await dbh.close();
    });
    afterEach(() => sim.clearFaults());

    const rowOf = async (campaignId: string) => {
      const [row] = await dbh.db
        .select()
        .from(campaigns)
        .where(eq(campaigns.campaignId, BigInt(campaignId)));
      return row!;
    };

    it('stores every ad account and campaign, with parsed names and lifetime metrics', async () => {
      const report = await sync.syncAll();
      expect(report).toEqual({ accounts: 3, campaigns: sim.world.campaigns.size, failures: [] });

      const accounts = await dbh.db.select().from(metaAdAccounts);
      expect(accounts.map((a) => a.adAccountId).sort()).toEqual(
        sim.world.accounts.map((a) => `act_${a.accountId}`).sort(),
      );
      expect(accounts.find((a) => a.accountName === 'Summit Retirement Group')?.timezoneName).toBe('America/Chicago');

      const { campaignId, adIds } = sim.scenario('seminar_fills');
      const row = await rowOf(campaignId);
      expect(row).toMatchObject({
        topic: 'EP',
        isWebinar: false,
        eventTime: '18:30',
        status: 'ACTIVE',
        adAccountId: `act_${sim.world.accounts[0]!.accountId}`,
      });
      expect(row.eventDate).toBe('2026-03-09');
      expect(row.endDate?.toISOString()).toBe('2026-03-09T22:30:00.000Z'); // 6:30 PM in New York (EDT from March 8)
      const adMetrics = adIds.map((id) => insightMetrics(sim.inspect(id).lifetime as never));
      expect(Number(row.spend)).toBeCloseTo(
        adMetrics.reduce((s, m) => s + m.spend, 0),
        2,
      );
      expect(row.leads).toBe(adMetrics.reduce((s, m) => s + m.leads, 0));
      expect(Number(row.cpl)).toBeCloseTo(Number(row.spend) / row.leads, 2);
      expect(row.actions).toContainEqual({ action_type: 'lead', value: String(row.leads) });
    });

    it('keeps nulls for names that do not follow the naming', async () => {
      const odd = [...sim.world.campaigns.values()].find(
        (c) => !/ - [A-Z0-9k]+-[WS] - /.test(c.name) && !/Evergreen/.test(c.name),
      );
      expect(odd).toBeDefined();
      const row = await rowOf(odd!.id);
      expect(row).toMatchObject({ topic: null, isWebinar: null, eventDate: null, eventTime: null });
    });

    it('is idempotent: a second run changes nothing but the sync time', async () => {
      const strip = (rows: (typeof campaigns.$inferSelect)[]) =>
        rows.map(({ updatedAt: _u, ...rest }) => rest).sort((a, b) => (a.campaignId < b.campaignId ? -1 : 1));
      const before = strip(await dbh.db.select().from(campaigns));
      await sync.syncAll();
      const after = strip(await dbh.db.select().from(campaigns));
      expect(after).toEqual(before);
    });

    it('picks up spend that grew in the meantime', async () => {
      const { campaignId } = sim.scenario('spend_no_leads');
      const before = Number((await rowOf(campaignId)).spend);
      sim.advanceHours(4);
      await sync.syncAll();
      const after = Number((await rowOf(campaignId)).spend);
      // $2.50 an hour, of which the day in progress reports 90 % (the rest settles after midnight).
      expect(after).toBeCloseTo(Number(sim.inspect(campaignId).lifetime.spend), 2);
      expect(after - before).toBeCloseTo(9, 2);
    });

    it('keeps the data of an ad account whose calls fail, updates the others, and catches up later', async () => {
      const failing = sim.world.accounts[1]!.accountId;
      const failingCampaign = [...sim.world.campaigns.values()].find(
        (c) => c.accountId === failing && sim.inspect(c.id).status === 'ACTIVE',
      )!;
      const healthyCampaign = sim.scenario('spend_no_leads').campaignId;
      const [oldFailing, oldHealthy] = await Promise.all([rowOf(failingCampaign.id), rowOf(healthyCampaign)]);

      sim.advanceHours(3);
      sim.addFault({ kind: 'server_error', count: 0, match: { path: `act_${failing}/insights` } });
      const report = await sync.syncAll();
      expect(report.failures).toEqual([{ adAccountId: `act_${failing}`, error: 'An unknown error occurred' }]);
      expect(await rowOf(failingCampaign.id)).toEqual(oldFailing);
      expect(Number((await rowOf(healthyCampaign)).spend)).toBeGreaterThan(Number(oldHealthy.spend));
      expect(await dbh.db.$count(campaigns)).toBe(sim.world.campaigns.size);

      sim.clearFaults();
      expect((await sync.syncAll()).failures).toEqual([]);
      const caughtUp = await rowOf(failingCampaign.id);
      expect(caughtUp.updatedAt.getTime()).toBeGreaterThan(oldFailing.updatedAt.getTime());
    });

    it('deletes nothing when the ad accounts cannot be listed', async () => {
      const count = await dbh.db.$count(campaigns);
      sim.addFault({ kind: 'rate_limit', code: 17, count: 0, match: { path: 'me/adaccounts' } });
      await expect(sync.syncAll()).rejects.toThrow('User request limit reached');
      expect(await dbh.db.$count(campaigns)).toBe(count);
      expect(await dbh.db.$count(metaAdAccounts)).toBe(3);
    });

    it('refreshes one campaign, and an older reading never overwrites a newer one', async () => {
      const { campaignId } = sim.scenario('cpl_climbs');
      let now = new Date('2030-01-01T00:00:00Z');
      const timed = new CampaignSync(dbh.db, client, { now: () => now });
      sim.advanceHours(2);
      await timed.refreshCampaign(campaignId);
      const fresh = await rowOf(campaignId);
      expect(fresh.updatedAt.toISOString()).toBe('2030-01-01T00:00:00.000Z');

      now = new Date('2029-12-31T23:00:00Z');
      await timed.syncCampaignsOf([`act_${sim.world.accounts[0]!.accountId}`]);
      expect((await rowOf(campaignId)).updatedAt.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    });

    it('shares one run between concurrent callers', async () => {
      const before = sim.requests.length;
      await Promise.all([sync.syncAll(), sync.syncAll(), sync.syncAll()]);
      const accountCalls = sim.requests.slice(before).filter((r) => r.path === 'me/adaccounts');
      expect(accountCalls).toHaveLength(1);
    });

    it('lets one process at a time hold the sync lease, and only when a sync is due', async () => {
      expect(await acquireLease(dbh.db, 'lease-test', 60_000, 0)).toBe(true);
      expect(await acquireLease(dbh.db, 'lease-test', 60_000, 0)).toBe(false);
      await releaseLease(dbh.db, 'lease-test', { ok: true });
      expect(await acquireLease(dbh.db, 'lease-test', 60_000, 60 * 60_000)).toBe(false); // synced just now
      expect(await acquireLease(dbh.db, 'lease-test', 60_000, 0)).toBe(true);
      await releaseLease(dbh.db, 'lease-test', { ok: false, error: 'boom' });
      const [state] = await dbh.db.select().from(syncState).where(eq(syncState.name, 'lease-test'));
      expect(state).toMatchObject({ leaseUntil: null, lastError: 'boom' });
    });

    it('runs the periodic job once per period across processes', async () => {
      const jobA = startSyncJob(dbh.db, sync, { intervalMinutes: 60 });
      const jobB = startSyncJob(dbh.db, sync, { intervalMinutes: 60 });
      await Promise.all([jobA.stop(), jobB.stop()]); // drive them by hand below
      await dbh.db.delete(syncState).where(eq(syncState.name, 'campaigns'));

      const [a, b] = await Promise.all([jobA.runOnce(), jobB.runOnce()]);
      expect([a, b].filter((report) => report !== null)).toHaveLength(1);
      const [state] = await dbh.db.select().from(syncState).where(eq(syncState.name, 'campaigns'));
      expect(state?.lastSuccessAt).toBeInstanceOf(Date);
      expect(await jobA.runOnce()).toBeNull(); // not due again within the hour
      expect(await jobB.runOnce({ force: true })).toMatchObject({ failures: [] });
    });
  });
});
