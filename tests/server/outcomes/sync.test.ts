/**
 * The outcome sync against the Graph and Demio simulators (one world, one frozen clock), on both
 * databases: form leads stored as hashes only, each campaign's advertised dates, participants read
 * once after a date happened, the campaigns' totals; a refused Demio key is one health warning,
 * cleared by the next read that succeeds, and never throws the sync; what the retention pruned is
 * not read again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CampaignSync } from '../../../server/campaigns/sync';
import type { DbHandle } from '../../../server/db/client';
import {
  accountHealth,
  campaignEvents,
  campaigns,
  folders,
  leadOutcomes,
  leadPeople,
} from '../../../server/db/schema/index';
import { platformHealthNow } from '../../../server/health/report';
import { createCredentialCipher } from '../../../server/rules/credentials';
import { createOutcomeStore } from '../../../server/outcomes/store';
import { OutcomeSync } from '../../../server/outcomes/sync';
import { outcomeRetentionStart, pruneOutcomes } from '../../../server/outcomes/retention';
import { DemioClient } from '../../../server/webinar/demioClient';
import { simulatedKeys, startDemioSimulator, type DemioSimulator } from '../../../server/webinar/simulator/index';
import { startFrozenSimulator } from '../run/support';
import { GraphClient } from '../../../server/adplatform/graphClient';
import { newestLiveVersion } from '../../../server/adplatform/versions';
import { eachDatabase, freshDatabase } from '../../support/db';

const DAY = 86_400_000;

eachDatabase((engine) => {
  describe(`outcome sync on ${engine}`, () => {
    let dbh: DbHandle;
    let frozen: Awaited<ReturnType<typeof startFrozenSimulator>>;
    let demio: DemioSimulator;
    let sync: OutcomeSync;
    let folderId: number;
    const cipher = createCredentialCipher('a test secret of at least 32 bytes!!');
    const outcomeSync = (graph: GraphClient) =>
      new OutcomeSync({
        db: dbh.db,
        graph,
        demioFor: ({ api_key, api_secret }) =>
          new DemioClient({ baseUrl: demio.url, apiKey: api_key, apiSecret: api_secret, sleep: async () => undefined }),
        decrypt: (stored) => cipher.decrypt(stored),
        store: createOutcomeStore(dbh.db),
        now: () => new Date(frozen.sim.clock.now()),
      });

    beforeAll(async () => {
      [frozen, dbh] = await Promise.all([startFrozenSimulator(), freshDatabase(engine)]);
      demio = await startDemioSimulator({ world: frozen.sim.world, clock: frozen.sim.clock });
      await new CampaignSync(dbh.db, frozen.client).syncAll();
      const digits = frozen.home.adAccountId.replace('act_', '');
      const { apiKey, apiSecret } = simulatedKeys(digits);
      const [folder] = await dbh.db
        .insert(folders)
        .values({
          name: 'Harbor',
          clientType: 'EDM',
          plan: 'solo',
          adAccountId: frozen.home.adAccountId,
          demioCredentials: cipher.encrypt({ api_key: apiKey, api_secret: apiSecret }),
        })
        .returning();
      folderId = folder!.id;
      sync = outcomeSync(frozen.client);
    });
    afterAll(async () => {
      await demio.close();
      await frozen.sim.close();
      await dbh.close();
    });

    it('reads form leads as hashes, the advertised dates, and after the dates the participants once', async () => {
      frozen.sim.clock.advance(2 * DAY);
      const first = await sync.syncAll();
      expect(first.failures).toEqual([]);
      expect(first.leads).toBeGreaterThan(0);
      const leads = await dbh.db.select().from(leadPeople);
      expect(leads.length).toBe(first.leads);
      for (const lead of leads) expect(lead.emailSha256 ?? '').toMatch(/^([0-9a-f]{64})?$/);
      const dates = await dbh.db.select().from(campaignEvents).where(eq(campaignEvents.folderId, folderId));
      expect(dates.length).toBeGreaterThan(0);
      expect(dates.every((d) => d.source === 'name')).toBe(true);

      // Every advertised date has happened (and finished) two weeks on.
      frozen.sim.clock.advance(14 * DAY);
      const second = await sync.syncAll();
      expect(second.failures).toEqual([]);
      expect(second.participants).toBeGreaterThan(0);
      const facts = await dbh.db.select().from(leadOutcomes);
      expect(facts.some((f) => f.kind === 'attended')).toBe(true);
      for (const fact of facts) expect(fact.leadKey).toMatch(/^[0-9a-f]{64}$/);
      const read = await dbh.db.select().from(campaignEvents).where(eq(campaignEvents.folderId, folderId));
      expect(read.every((d) => d.participantsReadAt !== null)).toBe(true);

      // Read once: the next pass reads no participant again and adds no fact.
      const third = await sync.syncAll();
      expect(third.participants).toBe(0);
      expect((await dbh.db.select().from(leadOutcomes)).length).toBe(facts.length);

      // The campaigns that advertised a date now carry their totals; the others stay N/A.
      const rows = await dbh.db.select().from(campaigns).where(eq(campaigns.adAccountId, frozen.home.adAccountId));
      const advertised = new Set(read.map((d) => d.campaignId));
      for (const row of rows) {
        if (advertised.has(row.campaignId.toString())) expect(row.registrations).not.toBeNull();
        else expect(row.registrations).toBeNull();
      }
      const withPeople = rows.filter((r) => (r.registrations ?? 0) > 0);
      expect(withPeople.length).toBeGreaterThan(0);
      for (const row of withPeople) expect(Number(row.showUpRate)).toBeCloseTo(row.attendees! / row.registrations!, 3);
    });

    it('a refused key: one health warning on the folder’s account, kept once, cleared by a read that succeeds', async () => {
      const [good] = await dbh.db
        .select({ credentials: folders.demioCredentials })
        .from(folders)
        .where(eq(folders.id, folderId));
      await dbh.db
        .update(folders)
        .set({ demioCredentials: cipher.encrypt({ api_key: 'wrong', api_secret: 'wrong' }) })
        .where(eq(folders.id, folderId));
      const refused = await sync.syncAll();
      await sync.syncAll();
      expect(refused.refused).toEqual([folderId]);
      const rows = await dbh.db.select().from(accountHealth).where(eq(accountHealth.check, 'webinar_key'));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ adAccountId: frozen.home.adAccountId, state: 'warning' });
      expect(rows[0]!.detail).toContain('“Harbor”');
      const panel = await platformHealthNow(dbh.db, new Date(frozen.sim.clock.now()));
      const account = panel.accounts.find((a) => a.ad_account_id === frozen.home.adAccountId)!;
      expect(account.problems.filter((p) => p.check === 'webinar_key')).toHaveLength(1);
      expect(account.state).not.toBe('problem'); // a webinar key does not hold the account's rules

      await dbh.db.update(folders).set({ demioCredentials: good!.credentials }).where(eq(folders.id, folderId));
      await sync.syncAll();
      const [cleared] = await dbh.db.select().from(accountHealth).where(eq(accountHealth.check, 'webinar_key'));
      expect(cleared!.state).toBe('ok');
    });

    it('does not read again what the 400-day retention pruned: old leads, dates, participants', async () => {
      frozen.sim.clock.advance(401 * DAY);
      const now = new Date(frozen.sim.clock.now());
      await pruneOutcomes(dbh.db, outcomeRetentionStart(now));
      // A year on, the version the sync started with has expired: it reads at one live then.
      const apiVersion = newestLiveVersion(now.getTime());
      const pass = await outcomeSync(
        new GraphClient({ baseUrl: frozen.sim.url, apiVersion, accessToken: 't' }),
      ).syncAll();
      expect(pass.failures).toEqual([]);
      const kept = outcomeRetentionStart(now).getTime();
      const [leads, dates, facts] = await Promise.all([
        dbh.db.select().from(leadPeople),
        dbh.db.select().from(campaignEvents),
        dbh.db.select().from(leadOutcomes),
      ]);
      for (const lead of leads) expect(lead.createdTime.getTime()).toBeGreaterThanOrEqual(kept);
      for (const date of dates) expect(date.startsAt.getTime()).toBeGreaterThanOrEqual(kept);
      for (const fact of facts) expect(fact.occurredAt.getTime()).toBeGreaterThanOrEqual(kept);
    });
  });
});
