/**
 * GraphClient.listLeads against the simulator: every form lead of an ad, page by page, since a
 * moment, each person kept only as the hash of their e-mail, paced by the ad account's usage.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GraphClient, type GraphClientOptions } from '../../../server/adplatform/graphClient';
import { startSimulator, type Simulator } from '../../../server/adplatform/simulator/index';
import { formLeadsOf } from '../../../server/adplatform/simulator/leads';
import { emailHash } from '../../../server/webinar/emailHash';

let sim: Simulator;
let sleeps: number[] = [];
beforeAll(async () => {
  sim = await startSimulator({ seed: 9, start: '2026-03-02T15:00:00Z', speed: 0, accounts: 2, campaignsPerAccount: 5 });
});
afterAll(() => sim.close());
beforeEach(() => {
  sleeps = [];
  sim.clearFaults();
});

const client = (options: Partial<GraphClientOptions> = {}) =>
  new GraphClient({
    baseUrl: sim.url,
    apiVersion: 'v25.0',
    accessToken: 't',
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...options,
  });

const busiestAd = () =>
  [...sim.world.ads.values()]
    .map((ad) => ({ ad, leads: formLeadsOf(sim.world, ad, sim.clock.now()) }))
    .sort((a, b) => b.leads.length - a.leads.length)[0]!;

describe('listLeads', () => {
  it('reads every form lead of an ad across pages, oldest first, with the e-mail only as its hash', async () => {
    const { ad, leads } = busiestAd();
    expect(leads.length).toBeGreaterThan(4);
    const c = client({ pageSize: 2 });
    const read = await c.listLeads(ad.id);
    expect(c.calls).toBe(Math.ceil(leads.length / 2));
    expect(read.map((l) => l.id)).toEqual(leads.map((l) => l.id));
    expect(read.map((l) => l.email_sha256)).toEqual(leads.map((l) => emailHash(l.person.email)));
    expect(read[0]).toEqual({
      id: leads[0]!.id,
      created_time: expect.stringMatching(/\+0000$/),
      ad_id: ad.id,
      form_id: leads[0]!.formId,
      email_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(JSON.stringify(read)).not.toContain('@');
  });

  it('reads only the leads created at or after `since`', async () => {
    const { ad, leads } = busiestAd();
    const since = new Date(leads[2]!.createdTime);
    const read = await client().listLeads(ad.id, { since });
    expect(read.map((l) => l.id)).toEqual(leads.filter((l) => l.createdTime >= since.getTime()).map((l) => l.id));
  });

  it('waits when the ad account’s usage is high, though the path names only the ad', async () => {
    const { ad } = busiestAd();
    sim.addFault({ kind: 'usage', pct: 100, regainMinutes: 2, count: 1, match: { path: 'leads' } });
    const c = client();
    await c.listLeads(ad.id, { accountId: `act_${ad.accountId}` });
    await c.listLeads(ad.id, { accountId: ad.accountId });
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(110_000);
  });

  it('retries a refused page and goes on where it stopped', async () => {
    const { ad, leads } = busiestAd();
    sim.addFault({ kind: 'rate_limit', code: 80004, count: 1, match: { path: 'leads' } });
    const read = await client({ pageSize: 3 }).listLeads(ad.id, { accountId: ad.accountId });
    expect(read).toHaveLength(leads.length);
    expect(sleeps.length).toBeGreaterThan(0);
  });
});
