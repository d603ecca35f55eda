/**
 * Meta's version calendar on the simulator's clock: which versions Graph answers and how it refuses
 * the others, the deprecation headers of a version near its end, auto-upgrade; the features v27.0
 * retires for new apps (multi-id reads, field aliases, method override, async batch); breakdowns
 * that answer no rows without an opt-in; and an object paused by Meta itself.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../../server/adplatform/simulator/index';

const MARCH = Date.parse('2026-03-02T15:00:00Z');
const LATE_NOVEMBER = Date.parse('2026-11-29T15:00:00Z');

// biome-ignore lint/suspicious/noExplicitAny: assertions read Graph's JSON answers field by field
type Json = Record<string, any>;

function caller(sim: () => Simulator) {
  return async (version: string, path: string, params: Record<string, string> = {}, method = 'GET') => {
    const query = new URLSearchParams({ ...params, access_token: 't' });
    const prefix = version ? `/${version}` : '';
    const response =
      method === 'GET'
        ? await fetch(`${sim().url}${prefix}/${path}?${query}`)
        : await fetch(`${sim().url}${prefix}/${path}`, { method, body: query });
    return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
  };
}

describe('the simulator keeps Meta’s version calendar', () => {
  let sim: Simulator;
  let upgrading: Simulator;
  let established: Simulator;
  const call = caller(() => sim);
  const settings = {
    seed: 4,
    start: MARCH,
    speed: 0,
    accounts: 1,
    campaignsPerAccount: 2,
    adsPerCampaign: 1,
    scenarios: [],
  };
  const account = () => `act_${sim.world.accounts[0]!.accountId}`;
  const firstAd = () => [...sim.world.ads.values()][0]!;

  beforeAll(async () => {
    [sim, upgrading, established] = await Promise.all([
      startSimulator(settings),
      startSimulator({ ...settings, start: LATE_NOVEMBER, autoUpgrade: true }),
      startSimulator({ ...settings, start: LATE_NOVEMBER, newApp: false }),
    ]);
  });
  afterAll(() => Promise.all([sim.close(), upgrading.close(), established.close()]));
  beforeEach(() => sim.clock.set(MARCH));

  it('answers the versions live on its clock and names the one that answered', async () => {
    for (const version of ['v23.0', 'v24.0', 'v25.0']) {
      const { status, headers } = await call(version, 'me');
      expect(status, version).toBe(200);
      expect(headers.get('facebook-api-version')).toBe(version);
    }
    const unversioned = await call('', 'me');
    expect(unversioned.headers.get('facebook-api-version')).toBe('v25.0');
  });

  it('refuses an expired version with #2635 and a version not yet released as an unknown path', async () => {
    const expired = await call('v22.0', 'me/adaccounts');
    expect(expired.status).toBe(400);
    expect(expired.body.error).toMatchObject({
      code: 2635,
      message:
        '(#2635) You are calling a deprecated version of the Ads API. Please update to the latest version: v25.0.',
    });
    const unreleased = await call('v26.0', 'me');
    expect(unreleased.body.error).toMatchObject({ code: 2500, message: 'Unknown path components: /v26.0/me' });

    sim.clock.set(LATE_NOVEMBER);
    expect((await call('v24.0', 'me')).body.error.message).toContain('latest version: v27.0');
    expect((await call('v26.0', 'me')).status).toBe(200);
    const batch = await call(
      'v26.0',
      '',
      {
        batch: JSON.stringify([
          { method: 'GET', relative_url: 'v24.0/me' },
          { method: 'GET', relative_url: 'me' },
        ]),
      },
      'POST',
    );
    expect(JSON.parse(batch.body[0].body).error.code).toBe(2635);
    expect(batch.body[1].code).toBe(200);
  });

  it('sends deprecation headers for a version within 90 days of its end, none for one without an end', async () => {
    sim.clock.set(LATE_NOVEMBER);
    const near = await call('v25.0', 'me');
    expect(near.headers.get('x-ad-api-version-warning')).toBe(
      'v25.0 will be deprecated on 2027-02-23. Please upgrade to v27.0.',
    );
    expect(near.headers.get('sunset')).toBe('Tue, 23 Feb 2027 00:00:00 GMT');
    expect(near.headers.get('deprecation')).toBe(`@${Date.parse('2026-07-29T00:00:00Z') / 1000}`);
    const far = await call('v26.0', 'me');
    expect(far.headers.get('x-ad-api-version-warning')).toBeNull();
    expect(far.headers.get('sunset')).toBeNull();
    sim.clock.set(MARCH);
    expect((await call('v25.0', 'me')).headers.get('x-ad-api-version-warning')).toBeNull();
  });

  it('answers an expired version as the oldest live one when auto-upgrading, and says so', async () => {
    const { status, headers } = await caller(() => upgrading)('v24.0', 'me');
    expect(status).toBe(200);
    expect(headers.get('facebook-api-version')).toBe('v25.0');
    expect(headers.get('x-ad-api-version-warning')).toBe(
      'The call has been auto-upgraded to v25.0 as v24.0 is deprecated.',
    );
  });

  describe('features v27.0 retires', () => {
    const retired = (feature: string, since = 'v27.0') => ({
      code: 12,
      message: `(#12) ${feature} is deprecated for versions ${since} and higher`,
    });

    it('refuses multi-id reads, field aliases, method override and async batch to a new app on v27.0', async () => {
      sim.clock.set(LATE_NOVEMBER);
      const ad = firstAd();
      const cases: [string, Record<string, string>, string, string][] = [
        ['', { ids: `${ad.id},${ad.campaignId}`, fields: 'name' }, 'GET', 'Multi-ID requests (ids=)'],
        [ad.id, { fields: 'name.as(title),status' }, 'GET', 'Field aliases (.as())'],
        [ad.id, { method: 'POST', status: 'PAUSED' }, 'GET', 'HTTP method override (method=)'],
        [`${account()}/async_batch_requests`, { adbatch: '[]', name: 'x' }, 'POST', 'Async batch requests'],
      ];
      for (const [path, params, method, feature] of cases) {
        const { status, body } = await call('v27.0', path, params, method);
        expect(status, feature).toBe(400);
        expect(body.error).toMatchObject(retired(feature));
      }
      expect(sim.inspect(ad.id).status).toBe('ACTIVE');
      const batch = await call(
        'v27.0',
        '',
        { batch: JSON.stringify([{ method: 'GET', relative_url: `?ids=${ad.id}` }]) },
        'POST',
      );
      expect(JSON.parse(batch.body[0].body).error).toMatchObject(retired('Multi-ID requests (ids=)'));
    });

    it('keeps them on v26.0, and on v27.0 for an app made before it (until v28.0)', async () => {
      sim.clock.set(LATE_NOVEMBER);
      const ad = firstAd();
      const many = await call('v26.0', '', { ids: `${ad.id},${ad.campaignId}`, fields: 'name' });
      expect(Object.keys(many.body).sort()).toEqual([ad.id, ad.campaignId].sort());
      const older = await caller(() => established)('v27.0', '', {
        ids: [...established.world.ads.keys()][0]!,
        fields: 'name',
      });
      expect(older.status).toBe(200);
      const overridden = await call('v26.0', ad.id, { method: 'POST', status: 'PAUSED' });
      expect(overridden.body).toEqual({ success: true });
      expect(sim.inspect(ad.id).status).toBe('PAUSED');
      await call('v26.0', ad.id, { status: 'ACTIVE' }, 'POST');
    });
  });

  describe('breakdowns that need an opt-in', () => {
    const byDevice = { level: 'ad', breakdowns: 'impression_device', fields: 'spend', date_preset: 'maximum' };

    it('answers no rows, and no reason, to an account that has not opted in (from 3 August 2026)', async () => {
      sim.clock.set(LATE_NOVEMBER);
      const quiet = await call('v26.0', `${account()}/insights`, byDevice);
      expect(quiet).toMatchObject({ status: 200, body: { data: [] } });
      const advertiserHours = await call('v26.0', `${account()}/insights`, {
        ...byDevice,
        breakdowns: 'hourly_stats_aggregated_by_advertiser_time_zone',
        date_preset: 'yesterday',
      });
      expect(advertiserHours.body.data.length).toBeGreaterThan(0);
    });

    it('once opted in (or before that date) the read is answered or refused as any other', async () => {
      sim.clock.set(MARCH);
      const before = await call('v25.0', `${account()}/insights`, byDevice);
      expect(before.status).toBe(400);
      expect(before.body.error.message).toContain('impression_device');
      sim.clock.set(LATE_NOVEMBER);
      sim.optIn(account(), ['impression_device']);
      const after = await call('v26.0', `${account()}/insights`, byDevice);
      expect(after.body.error.message).toContain('impression_device');
    });
  });

  it('lets Meta pause an object itself through the admin API: PAUSED, with issues_info until turned back on', async () => {
    const campaign = [...sim.world.campaigns.values()][1]!;
    const paused = await fetch(`${sim.url}/__sim/objects/${campaign.id}/meta_pause`, {
      method: 'POST',
      body: JSON.stringify({ reason: 'advantage_plus' }),
    });
    expect(paused.status).toBe(200);
    const read = await call('v25.0', campaign.id, { fields: 'status,issues_info' });
    expect(read.body.status).toBe('PAUSED');
    expect(read.body.issues_info).toEqual([
      expect.objectContaining({ level: 'CAMPAIGN', error_type: 'ADVANTAGE_PLUS_DEPRECATION' }),
    ]);
    await call('v25.0', campaign.id, { status: 'ACTIVE' }, 'POST');
    expect((await call('v25.0', campaign.id, { fields: 'status,issues_info' })).body).toEqual({
      id: campaign.id,
      status: 'ACTIVE',
    });
    const unknown = await fetch(`${sim.url}/__sim/objects/${campaign.id}/meta_pause`, {
      method: 'POST',
      body: JSON.stringify({ reason: 'boredom' }),
    });
    expect(unknown.status).toBe(400);
  });
});
