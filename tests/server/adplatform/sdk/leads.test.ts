/**
 * Lead retrieval driven through Meta's own Node SDK: Ad.getLeads and LeadgenForm.getLeads page
 * through the simulator's leads with the SDK's cursors, filtered as the SDK sends `filtering`.
 */
import { Ad, FacebookAdsApi, LeadgenForm } from 'facebook-nodejs-business-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../../server/adplatform/simulator/index';
import { formIdOf, formLeadsOf } from '../../../../server/adplatform/simulator/leads';

const TOKEN = 'sdk-token';

// biome-ignore lint/suspicious/noExplicitAny: the SDK's objects and cursors are loosely typed records
type Json = Record<string, any>;
type Cursor = Json[] & { hasNext(): boolean; next(): Promise<Cursor> };

async function drain(first: unknown): Promise<Json[]> {
  let cursor = first as Cursor;
  const items = [...cursor];
  while (cursor.hasNext()) {
    cursor = await cursor.next();
    items.push(...cursor);
  }
  return items;
}

describe('lead retrieval through facebook-nodejs-business-sdk', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ seed: 9, start: '2026-03-02T15:00:00Z', speed: 0, accounts: 1, accessToken: TOKEN });
    Object.defineProperty(FacebookAdsApi, 'GRAPH', { get: () => sim.url, configurable: true });
    Object.defineProperty(FacebookAdsApi, 'VERSION', { get: () => 'v25.0', configurable: true });
    FacebookAdsApi.init(TOKEN, 'en_US', false);
  });
  afterAll(() => sim.close());

  const busiest = () =>
    [...sim.world.ads.values()]
      .map((ad) => ({ ad, leads: formLeadsOf(sim.world, ad, sim.clock.now()) }))
      .sort((a, b) => b.leads.length - a.leads.length)[0]!;

  it('pages through an ad’s leads with the SDK’s cursor', async () => {
    const { ad, leads } = busiest();
    const read = await drain(await new Ad(ad.id).getLeads(['id', 'created_time', 'field_data'], { limit: 2 }));
    expect(read.map((lead) => lead._data.id)).toEqual(leads.map((lead) => lead.id));
    expect(read[0]!._data.field_data[0]).toEqual({ name: 'email', values: [leads[0]!.person.email] });
  });

  it('pages through a form’s leads, filtered on time_created', async () => {
    const { ad, leads } = busiest();
    const since = Math.floor(leads[1]!.createdTime / 1000);
    const read = await drain(
      await new LeadgenForm(formIdOf(ad.adsetId)).getLeads(['id', 'ad_id'], {
        filtering: [{ field: 'time_created', operator: 'GREATER_THAN', value: since }],
      }),
    );
    const expected = sim.world
      .adsOf(ad.campaignId)
      .filter((a) => a.adsetId === ad.adsetId)
      .flatMap((a) => formLeadsOf(sim.world, a, sim.clock.now()))
      .filter((lead) => lead.createdTime / 1000 > since);
    expect(new Set(read.map((lead) => lead._data.id))).toEqual(new Set(expected.map((lead) => lead.id)));
  });
});
