/**
 * The outcome store's qualityAt, on both databases: what an ad's leads had become, as known at a
 * moment — nothing before the event, registrations and attendees after it, a person registered for
 * two dates counted once, a participant without a lead not counted, a website registration by the
 * UTM naming the ad, spend from the metric history at the event, CRM stages reached and judged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../server/db/client';
import {
  adMetricHistory,
  campaignEvents,
  campaigns,
  folders,
  leadOutcomes,
  leadPeople,
  metaAdAccounts,
} from '../../../server/db/schema/index';
import { createOutcomeStore, type OutcomeStore } from '../../../server/outcomes/store';
import { writeCampaignOutcomes } from '../../../server/outcomes/campaignTotals';
import { emailHash } from '../../../server/webinar/emailHash';
import { eachDatabase, freshDatabase } from '../../support/db';

const ACCOUNT = 'act_100';
const AD = '9001';
const OTHER_AD = '9002';
const CAMPAIGN = '501';
const FIRST = new Date('2026-03-10T23:30:00Z');
const SECOND = new Date('2026-03-17T23:30:00Z');
const h = (name: string) => emailHash(`${name}@example.com`)!;
const at = (iso: string) => new Date(iso);

eachDatabase((engine) => {
  describe(`outcome store on ${engine}`, () => {
    let dbh: DbHandle;
    let store: OutcomeStore;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      const db = dbh.db;
      store = createOutcomeStore(db);
      await db.insert(metaAdAccounts).values({ adAccountId: ACCOUNT, accountName: 'Harbor', timezoneName: 'UTC' });
      const [folder] = await db
        .insert(folders)
        .values({ name: 'Harbor', clientType: 'EDM', plan: 'solo', adAccountId: ACCOUNT })
        .returning();
      await db.insert(campaigns).values({
        campaignId: BigInt(CAMPAIGN),
        adAccountId: ACCOUNT,
        campaignName: 'EDM - RP-W - 03/10/2026 & 03/17/2026 11:30 PM - Harbor',
        spend: '300',
      });
      await db.insert(campaignEvents).values(
        [FIRST, SECOND].map((startsAt, i) => ({
          folderId: folder!.id,
          adAccountId: ACCOUNT,
          campaignId: CAMPAIGN,
          eventId: 1,
          dateId: 10 + i,
          startsAt,
          source: 'name',
          // Read an hour after the start: until then the date has not happened for the store.
          participantsReadAt: new Date(startsAt.getTime() + 3_600_000),
        })),
      );
      // Ann, Ben and Cy leave form leads on the ad; Dee on another ad of the campaign after Ann did on this one.
      const lead = (leadId: string, adId: string, name: string, created: string) => ({
        leadId,
        adAccountId: ACCOUNT,
        adId,
        campaignId: CAMPAIGN,
        emailSha256: h(name),
        createdTime: at(created),
      });
      await db
        .insert(leadPeople)
        .values([
          lead('L1', AD, 'ann', '2026-03-01T10:00:00Z'),
          lead('L2', AD, 'ben', '2026-03-02T10:00:00Z'),
          lead('L3', AD, 'cy', '2026-03-09T10:00:00Z'),
          lead('L4', OTHER_AD, 'ann', '2026-03-05T10:00:00Z'),
        ]);
      const fact = (name: string, kind: string, dateId: number, startsAt: Date, adId: string | null = null) => ({
        folderId: folder!.id,
        leadKey: h(name),
        kind,
        occurredAt: startsAt,
        source: 'demio',
        sourceRef: String(dateId),
        adId,
      });
      await db.insert(leadOutcomes).values([
        // Ann registers for both dates and attends the second; Ben registers for the first, attends it.
        fact('ann', 'registered', 10, FIRST),
        fact('ann', 'registered', 11, SECOND),
        fact('ann', 'attended', 11, SECOND),
        fact('ben', 'registered', 10, FIRST),
        fact('ben', 'attended', 10, FIRST),
        // Someone with no lead and no UTM, and a website registration whose UTM names the ad.
        fact('stranger', 'registered', 10, FIRST),
        fact('stranger', 'attended', 10, FIRST),
        fact('web', 'registered', 10, FIRST, AD),
        fact('web', 'attended', 10, FIRST, AD),
        // Ben reached "booked" in the CRM (by e-mail), Cy "qualified" (by Meta lead id).
        {
          folderId: folder!.id,
          leadKey: h('ben'),
          kind: 'booked',
          occurredAt: at('2026-03-12T00:00:00Z'),
          source: 'crm',
        },
        {
          folderId: folder!.id,
          leadKey: 'L3',
          kind: 'qualified',
          occurredAt: at('2026-03-12T00:00:00Z'),
          source: 'crm',
        },
      ]);
      // Lifetime spend of the ad: $120 by 23:00 UTC on the first event's day, $200 by the second's.
      const hours = (upTo: number, cents: number) =>
        Array.from({ length: 24 }, (_, hr) => (hr <= upTo ? cents : null)) as number[];
      await db.insert(adMetricHistory).values([
        { adAccountId: ACCOUNT, day: '2026-03-10', adId: AD, campaignId: CAMPAIGN, spendCents: hours(23, 12_000) },
        { adAccountId: ACCOUNT, day: '2026-03-17', adId: AD, campaignId: CAMPAIGN, spendCents: hours(23, 20_000) },
      ]);
    });
    afterAll(() => dbh.close());

    it('knows the leads but no show-up before the first event', async () => {
      const quality = (await store.qualityAt(ACCOUNT, at('2026-03-10T12:00:00Z'))).get(AD)!;
      expect(quality).toMatchObject({
        registrations: 0,
        attendees: 0,
        eventsHappened: 0,
        nextEventAt: FIRST.toISOString(),
        settledSpend: null,
      });
    });

    it('after the first event: the ad’s registrants and attendees, a website registration by UTM, not the stranger', async () => {
      const quality = (await store.qualityAt(ACCOUNT, at('2026-03-11T01:00:00Z'))).get(AD)!;
      // Ann (lead), Ben (lead), the website registrant; the stranger matches no lead and no ad.
      expect(quality).toMatchObject({
        registrations: 3,
        settledRegistrations: 3,
        attendees: 2,
        eventsHappened: 1,
        nextEventAt: SECOND.toISOString(),
        settledSpend: 120,
      });
    });

    it('a lead registered for both dates counts once, as an attendee of either; the other ad gets nothing of hers', async () => {
      const byAd = await store.qualityAt(ACCOUNT, at('2026-03-18T01:00:00Z'));
      expect(byAd.get(AD)).toMatchObject({
        registrations: 3,
        attendees: 3,
        eventsHappened: 2,
        nextEventAt: null,
        settledSpend: 200,
      });
      expect(byAd.get(OTHER_AD)).toMatchObject({ registrations: 0, attendees: 0 });
    });

    it('CRM stages: reached by e-mail or lead id as known then, judged once older than the window', async () => {
      const before = (await store.qualityAt(ACCOUNT, at('2026-03-11T00:00:00Z'))).get(AD)!;
      expect(before.stages.booked).toEqual({ reached: 0, judged: 2 });
      const after = (await store.qualityAt(ACCOUNT, at('2026-03-12T00:00:00Z'))).get(AD)!;
      expect(after.stages.booked).toEqual({ reached: 1, judged: 2 });
      expect(after.stages.qualified).toEqual({ reached: 1, judged: 2 });
      const shortWindow = createOutcomeStore(dbh.db, { stageWindowDays: { qualified: 1 } });
      const quick = (await shortWindow.qualityAt(ACCOUNT, at('2026-03-12T00:00:00Z'))).get(AD)!;
      expect(quick.stages.qualified).toEqual({ reached: 1, judged: 3 });
    });

    it('writes the campaign totals the campaigns list shows', async () => {
      await writeCampaignOutcomes(dbh.db, store, ACCOUNT, at('2026-03-11T01:00:00Z'));
      const [row] = await dbh.db.select().from(campaigns);
      expect(row).toMatchObject({ registrations: 3, attendees: 2, showUpRate: '0.6667', costPerAttendee: '60.00' });
    });
  });
});
