/**
 * `GET /api/folders/{id}/outcomes/` on both databases: a folder's webinar and CRM figures summed over
 * its ad account's campaigns — N/A before any event happened, registrations, attendees, show-up rate
 * and cost per attendee after, leads reached and cost per CRM stage — with the campaigns list's
 * permission, and 404 for a folder in the trash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  campaignEvents,
  campaigns,
  folders,
  leadOutcomes,
  leadPeople,
  metaAdAccounts,
} from '../../../server/db/schema/index';
import { emailHash } from '../../../server/webinar/emailHash';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
const h = (name: string) => emailHash(`${name}@example.com`)!;

eachDatabase((engine) => {
  describe(`a folder's lead outcomes on ${engine}`, () => {
    let api: TestApi;
    let reader: string;
    let harbor: number;
    let upcoming: number;
    let trashed: number;

    beforeAll(async () => {
      api = await createTestApi(engine);
      const db = api.dbh.db;
      await db.insert(metaAdAccounts).values([
        { adAccountId: 'act_700', accountName: 'Harbor', timezoneName: 'UTC', currency: 'USD' },
        { adAccountId: 'act_701', accountName: 'Upcoming', timezoneName: 'UTC', currency: 'EUR' },
      ]);
      const folder = async (name: string, adAccountId: string, isDeleted = false) =>
        (
          await db
            .insert(folders)
            .values({ name, clientType: 'EDM', plan: 'solo', adAccountId, isDeleted })
            .returning({ id: folders.id })
        )[0]!.id;
      harbor = await folder('Harbor', 'act_700');
      upcoming = await folder('Upcoming', 'act_701');
      trashed = await folder('Harbor (old)', 'act_700', true);

      // Harbor: two webinars that happened (801: $300 over 4 leads; 802: $100 over 2) and one to come.
      const campaign = (id: bigint, adAccountId: string, spend: string, leads: number) => ({
        campaignId: id,
        adAccountId,
        campaignName: `EDM - RP-W - Harbor ${id}`,
        spend,
        leads,
      });
      await db
        .insert(campaigns)
        .values([
          campaign(801n, 'act_700', '300', 4),
          campaign(802n, 'act_700', '100', 2),
          campaign(803n, 'act_700', '50', 0),
          campaign(901n, 'act_701', '80', 3),
        ]);
      const date = (folderId: number, adAccountId: string, campaignId: string, dateId: number, startsAt: Date) => ({
        folderId,
        adAccountId,
        campaignId,
        eventId: 1,
        dateId,
        startsAt,
        source: 'name',
        // A date that has happened has had its participants read.
        participantsReadAt: startsAt.getTime() < Date.now() ? new Date(startsAt.getTime() + 3_600_000) : null,
      });
      await db
        .insert(campaignEvents)
        .values([
          date(harbor, 'act_700', '801', 10, daysAgo(3)),
          date(harbor, 'act_700', '802', 20, daysAgo(2)),
          date(harbor, 'act_700', '803', 30, daysAgo(-5)),
          date(upcoming, 'act_701', '901', 40, daysAgo(-5)),
        ]);
      const lead = (
        leadId: string,
        adAccountId: string,
        adId: string,
        campaignId: string,
        name: string,
        age: number,
      ) => ({
        leadId,
        adAccountId,
        adId,
        campaignId,
        emailSha256: h(name),
        createdTime: daysAgo(age),
      });
      await db
        .insert(leadPeople)
        .values([
          lead('L1', 'act_700', 'A1', '801', 'ann', 20),
          lead('L2', 'act_700', 'A1', '801', 'ben', 20),
          lead('L3', 'act_700', 'A1', '801', 'cy', 20),
          lead('L4', 'act_700', 'A2', '802', 'dee', 20),
          lead('L5', 'act_700', 'A2', '802', 'eve', 1),
          lead('L6', 'act_701', 'B1', '901', 'fay', 20),
        ]);
      const fact = (
        folderId: number,
        name: string,
        kind: string,
        sourceRef: string,
        occurredAt: Date,
        source = 'demio',
      ) => ({
        folderId,
        leadKey: h(name),
        kind,
        occurredAt,
        source,
        sourceRef,
      });
      await db.insert(leadOutcomes).values([
        // 801: Ann, Ben and Cy registered, Ann came; 802: Dee registered and did not come.
        fact(harbor, 'ann', 'registered', '10', daysAgo(3)),
        fact(harbor, 'ann', 'attended', '10', daysAgo(3)),
        fact(harbor, 'ben', 'registered', '10', daysAgo(3)),
        fact(harbor, 'cy', 'registered', '10', daysAgo(3)),
        fact(harbor, 'dee', 'registered', '20', daysAgo(2)),
        // The CRM: Ben and Dee qualified, Ann booked.
        fact(harbor, 'ben', 'qualified', '', daysAgo(5), 'crm'),
        fact(harbor, 'dee', 'qualified', '', daysAgo(5), 'crm'),
        fact(harbor, 'ann', 'booked', '', daysAgo(4), 'crm'),
      ]);
      reader = (await api.userWith(['add_edit_campaigns'])).token;
    });
    afterAll(() => api.close());

    const outcomesOf = async (folderId: number, token = reader) =>
      api.request(token, { method: 'GET', url: `/api/folders/${folderId}/outcomes/` });

    it('sums the campaigns whose event happened: registrations, attendees, show-up, cost per attendee', async () => {
      const response = await outcomesOf(harbor);
      expect(response.statusCode, response.body).toBe(200);
      // 4 registrations, 1 attendee; the $400 of both happened webinars (no metric history: lifetime spend).
      expect(response.json()).toMatchObject({
        registrations: 4,
        attendees: 1,
        show_up_rate: 0.25,
        cost_per_attendee: 400,
        currency: 'USD',
      });
    });

    it('counts the leads that reached each CRM stage, and what each cost', async () => {
      const { stages } = (await outcomesOf(harbor)).json() as { stages: unknown[] };
      // Judged: the 4 leads older than the 7-day window (Eve is a day old). Their spend: 801 $300 × 3/4,
      // 802 $100 × 1/2 = $275; two qualified ($137.50 each), one booked.
      expect(stages).toEqual([
        { stage: 'qualified', reached: 2, judged: 4, cost: 137.5 },
        { stage: 'booked', reached: 1, judged: 4, cost: 275 },
        { stage: 'attended', reached: 0, judged: 4, cost: null },
        { stage: 'won', reached: 0, judged: 4, cost: null },
      ]);
    });

    it('answers N/A before any event has happened, and no stages without CRM outcomes', async () => {
      const response = await outcomesOf(upcoming);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        registrations: null,
        attendees: null,
        show_up_rate: null,
        cost_per_attendee: null,
        currency: 'EUR',
        stages: [],
      });
    });

    it('is read with the campaigns permission; a folder in the trash or unknown is 404', async () => {
      const rulesOnly = (await api.userWith(['read_rules', 'create_update_rules'])).token;
      expect((await outcomesOf(harbor, rulesOnly)).statusCode).toBe(403);
      expect((await api.request(null, { method: 'GET', url: `/api/folders/${harbor}/outcomes/` })).statusCode).toBe(
        401,
      );
      expect((await outcomesOf(trashed)).statusCode).toBe(404);
      expect((await outcomesOf(999_999)).statusCode).toBe(404);
    });
  });
});
