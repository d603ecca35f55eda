/**
 * The campaigns list's webinar outcome columns through the API, on both databases: registrations,
 * attendees, show-up rate and cost per attendee (N/A before the event), filtered and ordered; and a
 * campaign's event date chosen by hand, only when its name has none, by someone who edits rules,
 * shown on the campaign's row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns, folders, metaAdAccounts } from '../../../server/db/schema/index';
import { startDemioSimulator, simulatedKeys, type DemioSimulator } from '../../../server/webinar/simulator/index';
import type { WebinarPlatform } from '../../../server/webinar/index';
import { DemioClient } from '../../../server/webinar/demioClient';
import { createTestApi, type TestApi } from '../../support/api';
import { eachDatabase } from '../../support/db';

eachDatabase((engine) => {
  describe(`campaign outcome columns on ${engine}`, () => {
    let api: TestApi;
    let demio: DemioSimulator;
    let reader: string;
    let account: string;

    beforeAll(async () => {
      demio = await startDemioSimulator({ seed: 3, start: '2026-03-02T15:00:00Z', speed: 0, accounts: 1 });
      const webinar: WebinarPlatform = {
        mode: 'simulator',
        baseUrl: demio.url,
        clientFor: ({ api_key, api_secret }) =>
          new DemioClient({ baseUrl: demio.url, apiKey: api_key, apiSecret: api_secret, sleep: async () => undefined }),
        stop: async () => undefined,
      };
      api = await createTestApi(engine, { services: { webinar } });
      const digits = demio.world.accounts[0]!.adAccountId;
      account = `act_${digits}`;
      const db = api.dbh.db;
      await db.insert(metaAdAccounts).values({ adAccountId: account, accountName: 'Harbor', timezoneName: 'UTC' });
      const row = (id: bigint, name: string, outcome: Partial<typeof campaigns.$inferInsert>) => ({
        campaignId: id,
        adAccountId: account,
        campaignName: name,
        ...outcome,
      });
      await db.insert(campaigns).values([
        row(1n, 'EDM - RP-W - 03/10/2026 6:30 PM - A', {
          registrations: 40,
          attendees: 8,
          showUpRate: '0.2000',
          costPerAttendee: '75.00',
        }),
        row(2n, 'EDM - RP-W - 03/11/2026 6:30 PM - B', {
          registrations: 20,
          attendees: 10,
          showUpRate: '0.5000',
          costPerAttendee: '30.00',
        }),
        row(3n, 'EDM - RP-W - 04/30/2026 6:30 PM - C', {}),
        row(4n, 'EDM - RP-W - Harbor evergreen', {}),
      ]);
      const { apiKey, apiSecret } = simulatedKeys(digits);
      await db.insert(folders).values({
        name: 'Harbor',
        clientType: 'EDM',
        plan: 'solo',
        adAccountId: account,
        demioCredentials: api.app.credentials.encrypt({ api_key: apiKey, api_secret: apiSecret }),
      });
      reader = (await api.userWith(['add_edit_campaigns'])).token;
    });
    afterAll(async () => {
      await api.close();
      await demio.close();
    });

    const list = async (query: string) => {
      const response = await api.request(reader, { method: 'GET', url: `/api/campaigns/?${query}` });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { results: Record<string, unknown>[] }).results;
    };

    it('answers the columns, N/A (null) before the event', async () => {
      const rows = await list('ordering=campaign_id');
      expect(rows.map((r) => [r.registrations, r.attendees, r.show_up_rate, r.cost_per_attendee])).toEqual([
        [40, 8, 0.2, 75],
        [20, 10, 0.5, 30],
        [null, null, null, null],
        [null, null, null, null],
      ]);
    });

    it('filters by show-up rate below and cost per attendee above, and orders by them', async () => {
      expect((await list('show_up_rate_max=0.3')).map((r) => r.campaign_id)).toEqual(['1']);
      expect((await list('cost_per_attendee_min=50')).map((r) => r.campaign_id)).toEqual(['1']);
      expect((await list('ordering=-show_up_rate')).map((r) => r.campaign_id)).toEqual(['2', '1', '4', '3']);
      const bad = await api.request(reader, { method: 'GET', url: '/api/campaigns/?show_up_rate_max=low' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ show_up_rate_max: ['Field must be a number'] });
    });

    it('chooses an event date by hand only when the name has none, with the rules permission', async () => {
      const editor = (await api.userWith(['add_edit_campaigns', 'create_update_rules'])).token;
      const offered = await api.request(reader, { method: 'GET', url: '/api/campaigns/4/event_dates/' });
      expect(offered.statusCode, offered.body).toBe(200);
      const { name_has_date, options } = offered.json() as {
        name_has_date: boolean;
        options: { event_id: number; date_id: number }[];
      };
      expect(name_has_date).toBe(false);
      expect(options.length).toBeGreaterThan(0);
      const choice = { event_id: options[0]!.event_id, date_id: options[0]!.date_id };

      const denied = await api.request(reader, {
        method: 'POST',
        url: '/api/campaigns/4/event_date/',
        payload: choice,
      });
      expect(denied.statusCode).toBe(403);
      const chosen = await api.request(editor, {
        method: 'POST',
        url: '/api/campaigns/4/event_date/',
        payload: choice,
      });
      expect(chosen.statusCode, chosen.body).toBe(200);
      expect(chosen.json().dates).toEqual([expect.objectContaining({ ...choice, source: 'chosen' })]);
      // The campaigns list shows the chosen date on its row (its kept pages are forgotten on the change).
      const startsAt = (chosen.json().dates as { starts_at: string }[])[0]!.starts_at;
      const rows = await list('ordering=campaign_id');
      expect(rows.map((r) => r.chosen_event_at)).toEqual([null, null, null, startsAt]);

      const dated = await api.request(editor, { method: 'POST', url: '/api/campaigns/3/event_date/', payload: choice });
      expect(dated.statusCode).toBe(400);
      expect(Object.keys(dated.json())).toEqual(['date_id']);
      const unknown = await api.request(editor, {
        method: 'POST',
        url: '/api/campaigns/4/event_date/',
        payload: { event_id: 1, date_id: 1 },
      });
      expect(unknown.statusCode).toBe(400);
      const missing = await api.request(editor, {
        method: 'POST',
        url: '/api/campaigns/99/event_date/',
        payload: choice,
      });
      expect(missing.statusCode).toBe(404);

      // Cleared: the row has no chosen date again.
      const cleared = await api.request(editor, {
        method: 'POST',
        url: '/api/campaigns/4/event_date/',
        payload: { event_id: null, date_id: null },
      });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json().dates).toEqual([]);
      expect((await list('ordering=campaign_id')).map((r) => r.chosen_event_at)).toEqual([null, null, null, null]);
    });

    it('offers the dates only to those who read campaigns', async () => {
      const rulesOnly = (await api.userWith(['read_rules', 'create_update_rules'])).token;
      const denied = await api.request(rulesOnly, { method: 'GET', url: '/api/campaigns/4/event_dates/' });
      expect(denied.statusCode).toBe(403);
      const anonymous = await api.request(null, { method: 'GET', url: '/api/campaigns/4/event_dates/' });
      expect(anonymous.statusCode).toBe(401);
    });
  });
});
