/**
 * DemioClient against the Demio simulator: typed events, dates and participants (e-mails only as
 * hashes), a refused key as DemioAuthError, retries on 429 and 5xx, and pacing per account.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../server/adplatform/simulator/index';
import { DemioClient, type DemioClientOptions } from '../../../server/webinar/demioClient';
import { emailHash } from '../../../server/webinar/emailHash';
import { DemioAuthError, DemioServerError } from '../../../server/webinar/errors';
import { DemioPacer } from '../../../server/webinar/pacer';
import { startDemioSimulator, type DemioSimulator } from '../../../server/webinar/simulator/index';
import { registrantsOf } from '../../../server/webinar/simulator/participants';

let graph: Simulator;
let demio: DemioSimulator;
let sleeps: number[] = [];

beforeAll(async () => {
  graph = await startSimulator({
    seed: 4,
    start: '2026-03-02T15:00:00Z',
    speed: 0,
    accounts: 2,
    campaignsPerAccount: 12,
  });
  demio = await startDemioSimulator({ world: graph.world, clock: graph.clock });
});
afterAll(async () => {
  await demio.close();
  await graph.close();
});
beforeEach(async () => {
  sleeps = [];
  await fetch(`${demio.url.replace(/\/api\/v1$/, '')}/__sim/faults`, { method: 'DELETE' });
});

const account = () => demio.world.accounts[0]!;
const client = (options: Partial<DemioClientOptions> = {}) =>
  new DemioClient({
    baseUrl: demio.url,
    apiKey: account().apiKey,
    apiSecret: account().apiSecret,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
const fault = (body: Record<string, unknown>) =>
  fetch(`${demio.url.replace(/\/api\/v1$/, '')}/__sim/faults`, { method: 'POST', body: JSON.stringify(body) });

describe('DemioClient reads', () => {
  it('lists events, an event’s dates and a date', async () => {
    const c = client();
    const events = await c.listEvents();
    expect(events.length).toBeGreaterThan(0);
    expect(events[0]).toMatchObject({
      id: expect.any(Number),
      date_id: expect.any(Number),
      timestamp: expect.any(Number),
    });
    const event = await c.getEvent(events[0]!.id);
    expect(event.dates.map((d) => d.date_id)).toContain(events[0]!.date_id);
    expect(await c.getEventDate(event.id, event.dates[0]!.date_id)).toEqual(event.dates[0]);
    const past = await c.listEvents('past');
    expect(past.every((e) => e.status === 'finished')).toBe(true);
  });

  it('reads a date’s participants with their e-mails only as hashes, and their UTM fields', async () => {
    const date = demio.world
      .eventsOf(account())
      .flatMap((e) => e.dates)
      .find((d) => d.startsAt + 3_600_000 <= graph.clock.now())!;
    const participants = await client().listParticipants(date.dateId);
    const truth = registrantsOf(demio.world, date, graph.clock.now());
    expect(participants.map((p) => p.email_sha256)).toEqual(truth.map((r) => emailHash(r.person.email)));
    expect(participants.map((p) => p.attended)).toEqual(truth.map((r) => r.attended));
    const website = truth.findIndex((r) => r.website && r.adId);
    if (website >= 0)
      expect(participants[website]!.utm).toMatchObject({ utm_source: 'facebook', utm_content: truth[website]!.adId });
    expect(JSON.stringify(participants)).not.toContain('@');
    const attended = await client().listParticipants(date.dateId, 'attended');
    expect(attended).toEqual(participants.filter((p) => p.attended));
  });
});

describe('DemioClient errors', () => {
  it('answers a wrong key with “Demio refused the key” at once, without retrying', async () => {
    const c = client({ apiSecret: 'wrong' });
    const error = await c.listEvents().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DemioAuthError);
    expect((error as Error).message).toMatch(/^Demio refused the key/);
    expect(c.calls).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a 5xx with back-off and throws a typed error after the last try', async () => {
    await fault({ status: 503, count: 2 });
    const c = client();
    expect((await c.listEvents()).length).toBeGreaterThan(0);
    expect(sleeps).toEqual([750, 1500]);
    await fault({ status: 502, count: 3 });
    const error = await client({ maxAttempts: 3 })
      .listEvents()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DemioServerError);
  });

  it('waits out Demio’s minute after a 429, then goes on', async () => {
    await fault({ status: 429, message: 'Too Many Requests', count: 1 });
    expect((await client().listEvents()).length).toBeGreaterThan(0);
    expect(sleeps).toEqual([61_000]);
  });
});

describe('DemioClient pacing', () => {
  it('holds the call that would pass the account’s calls a minute', async () => {
    let now = Date.parse('2026-03-02T15:00:00Z');
    const pacer = new DemioPacer({ perMinute: 2, perDay: 5000 }, () => now);
    const c = client({
      pacer,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    });
    await c.listEvents();
    await c.listEvents();
    await c.listEvents();
    expect(sleeps).toEqual([61_000]);
  });
});
