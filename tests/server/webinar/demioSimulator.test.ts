/**
 * The Demio simulator as a client sees it: Demio's auth and error shapes, events on the dates the
 * webinar campaigns advertise, the Graph simulator's leads as registrants (same e-mails), website
 * registrations naming their ad in UTM fields, attendance reported once a session has run, show-up
 * rates unrelated to cost per lead, and Demio's limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../server/adplatform/simulator/index';
import { formLeadsOf } from '../../../server/adplatform/simulator/leads';
import { emailHash } from '../../../server/webinar/emailHash';
import { advertisedDates } from '../../../server/webinar/eventMatching';
import { startDemioSimulator, type DemioSimulator } from '../../../server/webinar/simulator/index';
import { registrantsOf, showUpRate } from '../../../server/webinar/simulator/participants';
import { DemioWorld, type DemioAccount, type DemioEventDate } from '../../../server/webinar/simulator/world';

const START = '2026-03-02T15:00:00Z';
let graph: Simulator;
let demio: DemioSimulator;

beforeAll(async () => {
  graph = await startSimulator({ seed: 4, start: START, speed: 0, accounts: 3, campaignsPerAccount: 12 });
  demio = await startDemioSimulator({ world: graph.world, clock: graph.clock });
});
afterAll(async () => {
  await demio.close();
  await graph.close();
});

const admin = (path: string, init?: RequestInit) =>
  fetch(`${demio.url.replace(/\/api\/v1$/, '')}/__sim/${path}`, init).then((r) => r.json());
const headers = (account: DemioAccount) => ({ 'Api-Key': account.apiKey, 'Api-Secret': account.apiSecret });
async function call<T>(account: DemioAccount, path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${demio.url}/${path}`, { headers: headers(account) });
  return { status: response.status, body: (await response.json()) as T };
}
interface Participant {
  email: string;
  attended: boolean;
  status: string;
  custom_fields: { id: string; name: string; value: string }[];
}
const participantsOf = async (account: DemioAccount, date: DemioEventDate) =>
  (await call<{ participants: Participant[] }>(account, `report/${date.dateId}/participants`)).body.participants;
const accountOf = (date: DemioEventDate) =>
  demio.world.accounts.find((a) => a.adAccountId === demio.world.event(date.eventId)!.adAccountId)!;
const allDates = () => demio.world.events.flatMap((e) => e.dates);
const finishedDates = () => allDates().filter((d) => d.startsAt + 3_600_000 <= graph.clock.now());

describe('authorisation', () => {
  it('refuses a wrong key as Demio does, on every path', async () => {
    const wrong = { 'Api-Key': 'nope', 'Api-Secret': 'nope' };
    const events = await fetch(`${demio.url}/events`, { headers: wrong });
    expect(events.status).toBe(401);
    expect(await events.json()).toEqual({ messages: ['Authorization failed'] });
    const ping = await fetch(`${demio.url}/ping`, { headers: wrong });
    expect(await ping.json()).toEqual({ pong: false, messages: ['Authorization failed'] });
  });

  it('takes the key and secret in headers, or in the query on /ping/query', async () => {
    const account = demio.world.accounts[0]!;
    expect((await call(account, 'ping')).body).toEqual({ pong: true });
    const query = new URLSearchParams({ api_key: account.apiKey, api_secret: account.apiSecret });
    expect(await (await fetch(`${demio.url}/ping/query?${query}`)).json()).toEqual({ pong: true });
  });

  it('lists each account’s keys on the admin API', async () => {
    const accounts = (await admin('accounts')) as { ad_account_id: string; api_key: string }[];
    expect(accounts.map((a) => a.ad_account_id)).toEqual(graph.world.accounts.map((a) => a.accountId));
  });
});

describe('events and their dates', () => {
  it('holds a date at every moment a webinar campaign’s name advertises, and only those', async () => {
    for (const account of graph.world.accounts) {
      const advertised = new Set(
        [...graph.world.campaigns.values()]
          .filter((c) => c.accountId === account.accountId && /-W\b/.test(c.name))
          .flatMap((c) => advertisedDates(c.name, account.timezone).map((d) => d.startsAt)),
      );
      const demioAccount = demio.world.accounts.find((a) => a.adAccountId === account.accountId)!;
      const held = new Set<number>();
      for (const event of (await call<{ id: number }[]>(demioAccount, 'events')).body) {
        const info = await call<{ dates: { timestamp: number; zone: string }[] }>(demioAccount, `event/${event.id}`);
        for (const date of info.body.dates) {
          held.add(date.timestamp * 1000);
          expect(date.zone).toBe(account.timezone);
        }
      }
      expect(held).toEqual(advertised);
    }
  });

  it('answers one entry per event with its next session, and the past ones with their last', async () => {
    const account = demio.world.accounts[0]!;
    const now = graph.clock.now() / 1000;
    const upcoming = (await call<{ status: string; timestamp: number }[]>(account, 'events?type=upcoming')).body;
    expect(upcoming.every((e) => e.status !== 'finished' && e.timestamp + 3600 > now)).toBe(true);
    expect(upcoming.map((e) => e.timestamp)).toEqual([...upcoming.map((e) => e.timestamp)].sort());
    const past = (await call<{ status: string }[]>(account, 'events?type=past')).body;
    expect(past.every((e) => e.status === 'finished')).toBe(true);
    expect((await call<unknown>(account, 'events?type=someday')).status).toBe(400);
  });

  it('does not show one account another’s events', async () => {
    const [first, second] = demio.world.accounts;
    const date = demio.world.eventsOf(second!)[0]!.dates[0]!;
    expect((await call(first!, `report/${date.dateId}/participants`)).status).toBe(404);
    expect((await call(first!, `event/${date.eventId}`)).body).toEqual({ messages: ['Event not found'] });
  });
});

describe('participants', () => {
  it('are the people behind the ads’ form leads, by the same e-mail', async () => {
    const date = finishedDates().find((d) => d.campaignIds.length)!;
    const participants = await participantsOf(accountOf(date), date);
    const hashes = new Set(participants.map((p) => emailHash(p.email)));
    const leads = date.campaignIds
      .flatMap((id) => graph.world.adsOf(id))
      .flatMap((ad) => formLeadsOf(graph.world, ad, graph.clock.now()));
    expect(leads.length).toBeGreaterThan(0);
    for (const lead of leads) expect(hashes).toContain(emailHash(lead.person.email));
    for (const p of participants) {
      expect(p.email).toBe(p.email.trim().toLowerCase());
      expect(['completed', 'left early', 'did not attend']).toContain(p.status);
      expect(p.attended).toBe(p.status !== 'did not attend');
    }
  });

  it('include website registrations whose UTM fields name their ad, and a few people on their own', async () => {
    let website = 0;
    let organic = 0;
    for (const date of finishedDates()) {
      const ads = new Set(date.campaignIds.flatMap((id) => graph.world.adsOf(id).map((ad) => ad.id)));
      const truth = (await admin(`dates/${date.dateId}`)) as {
        ads: { website_registrants: number }[];
        organic: { registrants: number };
      };
      const participants = await participantsOf(accountOf(date), date);
      const utm = participants.filter((p) => p.custom_fields.some((f) => f.id === 'utm_content'));
      for (const p of utm) expect(ads).toContain(p.custom_fields.find((f) => f.id === 'utm_content')!.value);
      expect(utm).toHaveLength(truth.ads.reduce((sum, ad) => sum + ad.website_registrants, 0));
      website += utm.length;
      organic += truth.organic.registrants;
    }
    expect(website).toBeGreaterThan(0);
    expect(organic).toBeGreaterThan(0);
  });

  it('are reported only once the session has run, by the simulated clock', async () => {
    const [date] = allDates()
      .filter((d) => d.startsAt > graph.clock.now())
      .sort((a, b) => a.startsAt - b.startsAt);
    if (!date) throw new Error('no upcoming webinar date in the world');
    const account = accountOf(date);
    expect(await participantsOf(account, date)).toEqual([]);
    const untilAfter = (date.startsAt - graph.clock.now()) / 3_600_000 + 1.01;
    graph.advanceHours(untilAfter);
    const after = await participantsOf(account, date);
    expect(after.length).toBeGreaterThan(0);
    expect(after.some((p) => p.attended)).toBe(true);
    const attended = (
      await call<{ participants: Participant[] }>(account, `report/${date.dateId}/participants?status=attended`)
    ).body;
    expect(attended.participants).toEqual(after.filter((p) => p.attended));
  });

  it('show up at a rate per ad between 5 % and 70 %, unrelated to the ad’s cost per lead', () => {
    const ads = [...graph.world.ads.values()].filter((ad) => ad.profile.leads.kind === 'per_spend');
    const pairs = ads.map((ad) => [(ad.profile.leads as { cpl: number }).cpl, showUpRate(graph.world, ad.id)] as const);
    for (const [, rate] of pairs) expect(rate).toBeGreaterThanOrEqual(0.05);
    for (const [, rate] of pairs) expect(rate).toBeLessThanOrEqual(0.7);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const [cpls, rates] = [pairs.map((p) => p[0]), pairs.map((p) => p[1])];
    const [mc, mr] = [mean(cpls), mean(rates)];
    const cov = mean(pairs.map(([c, r]) => (c - mc) * (r - mr)));
    const sd = (xs: number[], m: number) => Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
    expect(Math.abs(cov / (sd(cpls, mc) * sd(rates, mr)))).toBeLessThan(0.3);
    const median = [...cpls].sort((a, b) => a - b)[Math.floor(cpls.length / 2)]!;
    expect(pairs.some(([c, r]) => c < median && r < 0.2)).toBe(true); // cheap leads that seldom come
    expect(pairs.some(([c, r]) => c > median && r > 0.5)).toBe(true); // dear ones that do
  });
});

describe('Demio’s limits', () => {
  it('refuses past the calls a minute allowed, with Demio’s error shape', async () => {
    const strict = await startDemioSimulator({ world: graph.world, clock: graph.clock, limits: { perMinute: 3 } });
    try {
      const account = strict.world.accounts[0]!;
      const statuses = [];
      for (let i = 0; i < 4; i += 1)
        statuses.push((await fetch(`${strict.url}/events`, { headers: headers(account) })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await fetch(`${strict.url}/events`, { headers: headers(account) });
      expect(await refused.json()).toEqual({ messages: ['Too Many Requests'] });
      const other = strict.world.accounts[1]!;
      expect((await fetch(`${strict.url}/events`, { headers: headers(other) })).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('a campaign advertising weekly dates', () => {
  it('registers each lead for the campaign’s next date only, so every date fills in turn', async () => {
    const sim = await startSimulator({
      seed: 5,
      start: '2026-03-01T00:00:00Z',
      speed: 0,
      accounts: 1,
      campaignsPerAccount: 0,
      adsPerCampaign: 0,
      scenarios: [],
    });
    try {
      const account = sim.world.accounts[0]!;
      const campaign = sim.world.addCampaign({
        accountId: account.accountId,
        name: 'EDM - RP-W - 03/05/2026 & 03/12/2026 6:30 PM - Weekly',
        startTime: Date.parse('2026-03-01T00:00:00Z'),
        stopTime: undefined,
        dailyBudgetCents: 10_000,
      });
      const adset = sim.world.addAdSet(campaign, 'Weekly - Instant form');
      sim.world.addAd(adset, 'Creative', {
        cpm: 22,
        ctrPct: 1.4,
        linkShare: 0.7,
        spendPerHour: 3,
        websiteShare: 0,
        leads: { kind: 'per_spend', cpl: 12 },
      });
      const world = new DemioWorld(sim.world);
      const [first, second] = world.events.flatMap((e) => e.dates).sort((a, b) => a.startsAt - b.startsAt);
      const after = second!.startsAt + 2 * 3_600_000;
      const people = (date: DemioEventDate) =>
        registrantsOf(world, date, after)
          .filter((r) => r.adId)
          .map((r) => r.person.email);
      const firstPeople = people(first!);
      const secondPeople = people(second!);
      expect(firstPeople.length).toBeGreaterThan(10);
      expect(secondPeople.length).toBeGreaterThan(10);
      expect(firstPeople.filter((email) => secondPeople.includes(email))).toEqual([]);
      expect(world.dateFor(campaign.id, first!.startsAt - 1)).toBe(first);
      expect(world.dateFor(campaign.id, first!.startsAt)).toBe(second);
      expect(world.dateFor(campaign.id, second!.startsAt)).toBeUndefined();
    } finally {
      await sim.close();
    }
  });
});
